"""Recovery: the zygote killed again and again while several clients run programs. Runs in
flight end as sandbox-error, later ones succeed, nothing hangs, no supervisor thread dies."""

from __future__ import annotations

import os
import threading
import time

from codeblanks.sandbox import RunLimits, Sandbox
from codeblanks.sandbox.config import SandboxConfig

PROGRAMS = (
    "import numpy as np\nprint(int(np.arange(4).sum()))",
    "import time\ntime.sleep(0.15)\nprint(6)",
    "print(sum(range(4)))",
)


def zygote_pid(box: Sandbox) -> int:
    launcher = box._supervisor.proc.pid
    with open(f"/proc/{launcher}/task/{launcher}/children") as f:
        return int(f.read().split()[0])


def test_the_zygote_killed_repeatedly_under_load_recovers_every_time():
    box = Sandbox(config=SandboxConfig(slots=6, per_client=2, spares=4, wait_s=10))
    stop = threading.Event()
    results: list[tuple[float, float, str, str]] = []  # start, end, verdict, stdout
    lock = threading.Lock()

    def client(n: int) -> None:
        i = 0
        while not stop.is_set():
            start = time.monotonic()
            r = box.run(PROGRAMS[i % 3], limits=RunLimits(wall_s=3, cpu_s=3), client=f"c{n % 3}")
            with lock:
                results.append((start, time.monotonic(), r.verdict, r.stdout))
            i += 1

    try:
        assert box.run("print(1)").verdict == "ok"
        threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(6)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        kills = []
        for _ in range(4):
            pid = zygote_pid(box)
            kills.append(time.monotonic())
            os.kill(pid, 9)
            time.sleep(1.0)
            assert box._supervisor.thread.is_alive()
        time.sleep(1.0)
        stop.set()
        for t in threads:
            t.join(timeout=10)
        assert not any(t.is_alive() for t in threads), "a run hung"
        after = [box.run(p, client="after") for p in PROGRAMS * 3]
    finally:
        box.close()

    assert after and all(r.verdict == "ok" for r in after), after
    verdicts = {v for _, _, v, _ in results}
    assert verdicts <= {"ok", "sandbox-error"}, verdicts
    assert all(out in ("6\n",) for _, _, v, out in results if v == "ok")
    assert all(end - start < 5.0 for start, end, _, _ in results), "a run took far too long"
    # Every failure is a run that was in flight (or waiting for a spare) at a kill...
    for start, end, verdict, _ in results:
        if verdict == "sandbox-error":
            assert any(start - 0.1 <= k <= end for k in kills), (start, end, kills)
    # ...and soon after each kill runs succeed again: a new zygote starts (Python and NumPy
    # imported afresh) in well under a second on a quiet machine; 3 s allows a busy CI host.
    for k in kills:
        back = min((e - k for s, e, v, _ in results if v == "ok" and s > k), default=99.0)
        assert back < 3.0, f"the first good run ended {back:.2f} s after a kill"
