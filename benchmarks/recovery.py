"""How long the sandbox takes to serve again after its zygote is killed, here and at a baseline
commit, run alternately in the same minutes (tests/sandbox/test_recovery.py asserts that it
recovers; this says how fast).

    .venv/bin/python benchmarks/recovery.py                       # this checkout alone
    .venv/bin/python benchmarks/recovery.py --baseline a26b750    # beside that commit

Each round kills the zygote while two clients run small programs, then times, from the kill,
the first run that comes back right. The zygote is found from outside, through /proc (the
sandbox's launcher is this process's child; the zygote is the launcher's), so the same script
measures any commit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _my_children() -> list[int]:
    """Children of every thread of this process (a zygote restarted by the sandbox's I/O
    thread is that thread's child)."""
    me = os.getpid()
    found = []
    for task in os.listdir(f"/proc/{me}/task"):
        try:
            with open(f"/proc/{me}/task/{task}/children") as f:
                found += [int(p) for p in f.read().split()]
        except OSError:
            continue
    return found


def _zygote() -> int | None:
    """The zygote: the child of this process's sandbox launcher (namespaces.py)."""
    for pid in _my_children():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"namespaces.py" not in f.read():
                    continue
        except OSError:
            continue
        kids = _children(pid)
        if kids:
            return kids[0]
    return None


def measure(kills: int) -> list[float]:
    """Seconds from each kill to the first right answer of a run started after it."""
    from codeblanks.sandbox import Sandbox
    from codeblanks.sandbox.config import SandboxConfig

    box = Sandbox(config=SandboxConfig(slots=2, spares=2))
    stop = threading.Event()

    def client() -> None:
        while not stop.is_set():
            box.run("print(6)")

    clients = [threading.Thread(target=client) for _ in range(2)]
    backs = []
    try:
        for t in clients:
            t.start()
        for _ in range(kills):
            time.sleep(0.5)  # the clients are at work on this zygote
            zygote, deadline = None, time.monotonic() + 60
            while zygote is None and time.monotonic() < deadline:
                zygote = _zygote()
            if zygote is None:
                raise SystemExit("no zygote found under this process")
            killed = time.perf_counter()
            os.kill(zygote, 9)
            while box.run("print(7)").stdout != "7\n":
                if time.perf_counter() - killed > 60:
                    raise SystemExit("the sandbox did not come back within 60 s")
            backs.append(time.perf_counter() - killed)
    finally:
        stop.set()
        for t in clients:
            t.join()
        box.close()
    return backs


def _checkout(commit: str, into: str) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"],
                             check=True, capture_output=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    return Path(into) / "src"


def _run(src: Path, kills: int) -> list[float]:
    out = subprocess.run(
        [sys.executable, __file__, "--src", str(src), "--kills", str(kills), "--raw"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    return [float(x) for x in out.split()]


def _line(name: str, backs: list[float]) -> str:
    ms = [b * 1000 for b in backs]
    return (f"{name:>20}: back after a kill p50 {statistics.median(ms):7.1f} ms, "
            f"max {max(ms):7.1f} ms ({len(ms)} kills)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2, help="alternations with --baseline")
    parser.add_argument("--baseline", help="a commit to measure beside this checkout")
    parser.add_argument("--src", help=argparse.SUPPRESS)
    parser.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.src:
        sys.path.insert(0, args.src)
        print(" ".join(f"{b:.4f}" for b in measure(args.kills)))
        return
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    here = ROOT / "src"
    if not args.baseline:
        print(_line("this checkout", _run(here, args.kills)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = _checkout(args.baseline, tmp)
        for _ in range(args.rounds):
            print(_line(args.baseline, _run(base, args.kills)))
            print(_line("this checkout", _run(here, args.kills)))


if __name__ == "__main__":
    main()
