"""Recovery: the zygote killed again and again while several clients run programs. What recovery
guarantees, and nothing about how fast (benchmarks/recovery.py times it): every run is answered,
each failure is a run a kill could have reached, and once a new zygote is up the next run is
right. The test learns the zygote's pid and its return through ``Sandbox.zygote``, which waits
through a restart, and stops and joins its own threads before it ends."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from codeblanks.sandbox import RunLimits, Sandbox
from codeblanks.sandbox.config import SandboxConfig

PROGRAMS = (
    "import numpy as np\nprint(int(np.arange(4).sum()))",
    "import time\ntime.sleep(0.15)\nprint(6)",
    "print(sum(range(4)))",
)
KILLS = 4
# Generous bounds that only a hang reaches, never a slow machine.
HANG_S = 120.0


def test_the_zygote_killed_repeatedly_under_load_recovers_every_time():
    box = Sandbox(config=SandboxConfig(slots=6, per_client=2, spares=4, wait_s=HANG_S))
    stop = threading.Event()
    kills = [0]  # kills issued so far; read by the clients after each run
    results: list[tuple[int, int, str, str]] = []  # restarts before, kills after, verdict, out
    lock = threading.Lock()
    enough = threading.Semaphore(0)  # one release per finished run

    def client(n: int) -> None:
        i = 0
        while not stop.is_set():
            before = box.stats()["zygote_restarts"]
            r = box.run(PROGRAMS[i % 3], limits=RunLimits(wall_s=30, cpu_s=3), client=f"c{n % 3}")
            with lock:
                results.append((before, kills[0], r.verdict, r.stdout))
            enough.release()
            i += 1

    threads = [threading.Thread(target=client, args=(n,), name=f"recovery-{n}") for n in range(6)]
    try:
        assert box.run("print(1)").verdict == "ok"
        for t in threads:
            t.start()
        for number in range(1, KILLS + 1):
            for _ in range(6):  # the clients are running on this zygote
                assert enough.acquire(timeout=HANG_S), "no run finished"
            _, pid = box.zygote(after=number - 1, timeout=HANG_S)
            with lock:
                kills[0] += 1
            os.kill(pid, 9)
            # A new zygote comes up, and the next run on it is right.
            assert box.zygote(after=number, timeout=HANG_S)[0] == number + 1
            back = box.run(PROGRAMS[number % 3], client="after")
            assert (back.verdict, back.stdout) == ("ok", "6\n"), back
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=HANG_S)
        alive = [t.name for t in threads if t.is_alive()]
        box.close()
    assert not alive, f"runs hung: {alive}"

    assert any(v == "ok" for _, _, v, _ in results), "no run succeeded"
    verdicts = {v for _, _, v, _ in results}
    assert verdicts <= {"ok", "sandbox-error"}, verdicts
    assert all(out == "6\n" for _, _, v, out in results if v == "ok")
    # A run fails only if a kill came before it ended that could reach its zygote: the one it
    # began on is number restarts + 1, killed by kill number restarts + 1.
    for before, kills_after, verdict, _ in results:
        if verdict == "sandbox-error":
            assert kills_after > before, (before, kills_after)
    assert box.stats()["zygote_restarts"] == KILLS


FLOOD = (
    "tests/sandbox/test_scheduler.py"
    "::test_a_client_flooding_the_sandbox_with_sleepers_cannot_starve_another"
)


def test_a_process_that_closed_its_sandbox_with_runs_in_flight_exits():
    """Runs in flight when the sandbox closes hear at once that their child is gone: no I/O
    thread is left to notice the zygote's end, and their threads used to wait out the wall
    limit (900 s in the scheduler's flood test, whose sleepers are given up by their callers),
    keeping the process from exiting. That test, in a pytest of its own, must end."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", FLOOD],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=HANG_S,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
