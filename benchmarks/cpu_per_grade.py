"""Where a grade's CPU goes: this process (the web app and the grader) against the sandbox (the
zygote and every child it forked and reaped), counted from /proc, so the figure does not depend
on the machine's load the way latencies do.

    .venv/bin/python benchmarks/cpu_per_grade.py [--n 100] [--lesson query-key-value]
                                                [--direct] [--profile FILE] [--threads]

Grades the lesson's sample solution ``--n`` times, one after another with a short pause, through
the JSON API in-process (``codeblanks.web.door.asgi.application``, as benchmarks/grading.py
does), or ``agrade()`` itself with ``--direct``. ``--profile`` writes cProfile's statistics of
the main thread (the event loop: the web side) to FILE; ``--threads`` splits this process's
CPU by thread (the event loop, the sandbox's run pool, asyncio's default executor for
grading, the sandbox's I/O and cgroups threads, asgiref's thread), read from
/proc/self/task/*/stat and named by ``threading.enumerate()``. In the same run, the baseline:
the CPU of a fresh ``python main.py`` of the same program (the naive way, ``--naive`` times),
and the ratio (the target: a learner's step at most 1/8 of a naive run's CPU).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from grading import asgi_post, web_app  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid: int, children: bool = False) -> float:
    """utime + stime (and the reaped children's, if asked) of ``pid``, in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    used = int(fields[11]) + int(fields[12])
    if children:
        used += int(fields[13]) + int(fields[14])
    return used * 1000 / TICK


def thread_cpu_ms() -> dict[int, float]:
    """utime + stime of each of this process's threads (by native id), in ms."""
    used = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        used[int(task.name)] = (int(fields[11]) + int(fields[12])) * 1000 / TICK
    return used


def by_thread_name(before: dict[int, float], after: dict[int, float]) -> Counter[str]:
    """The CPU each kind of thread used between two ``thread_cpu_ms`` samples: named as Python
    named them, without a pool's ``_3`` suffix (a thread that already ended: ``?``)."""
    names = {t.native_id: re.sub(r"_\d+$", "", t.name) for t in threading.enumerate()}
    spent: Counter[str] = Counter()
    for tid, ms in after.items():
        spent[names.get(tid, "?")] += ms - before.get(tid, 0.0)
    return spent


def sandbox_pids(launcher: int) -> list[int]:
    """The launcher and the zygote it forked (the zygote's children are counted once reaped,
    in its children's CPU, which is why the rounds pause)."""
    kids = []
    for task in Path(f"/proc/{launcher}/task").iterdir():
        kids += [int(k) for k in (task / "children").read_text().split()]
    return [launcher, *kids]


def naive_cpu_ms(code: str, n: int, blas_threads: str | None = "1") -> float:
    """Mean CPU (user + system) of a fresh ``python main.py`` of ``code``: with one BLAS thread
    (as in the sandbox, and as the target's baseline is counted), or None for this environment's
    default (OpenBLAS then starts a thread per core, and costs more)."""
    env = dict(os.environ)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env.pop(var, None)
        if blas_threads:
            env[var] = blas_threads
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "main.py")
        Path(path).write_text(code)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for _ in range(n):
            subprocess.run([sys.executable, path], capture_output=True, check=True, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000 / n


async def main(args) -> int:
    from codeblanks.content import catalog
    from codeblanks.grading import agrade
    from codeblanks.sandbox import get_sandbox

    lesson = catalog().lesson(args.lesson)
    code = lesson.exercise.solution
    sandbox = get_sandbox()
    web = None if args.direct else web_app(args.lesson)

    async def one() -> None:
        if web is None:
            assert (await agrade(lesson, code)).verdict == "correct"
            return
        app, url, host = web
        status, content, _ = await asgi_post(app, host, url, json.dumps({"code": code}).encode())
        assert status == 200 and json.loads(content)["verdict"] == "correct", content[:200]

    for _ in range(5):
        await one()
        await asyncio.sleep(0.05)
    launcher = sandbox._supervisor.proc.pid
    pids = sandbox_pids(launcher)
    await asyncio.sleep(0.5)  # let the spares settle

    def sample() -> tuple[float, float]:
        return cpu_ms(os.getpid()), sum(cpu_ms(p, children=True) for p in pids)

    profile = cProfile.Profile() if args.profile else None
    web0, box0 = sample()
    threads0 = thread_cpu_ms()
    wall = time.perf_counter()
    for _ in range(args.n):
        if profile:
            profile.enable()
        await one()
        if profile:
            profile.disable()
        await asyncio.sleep(0.03)
    await asyncio.sleep(0.5)  # the last children are reaped, the spares refilled
    web1, box1 = sample()
    threads1 = thread_cpu_ms()
    wall = time.perf_counter() - wall
    n = args.n
    print(f"{args.lesson}: {n} grades ({'agrade()' if web is None else 'through the ASGI app'}),"
          f" load {os.getloadavg()[0]:.1f}")  # fmt: skip
    web, box = (web1 - web0) / n, (box1 - box0) / n
    print(f"  CPU per grade: this process {web:6.2f} ms   sandbox (zygote and children)"
          f" {box:6.2f} ms   total {web + box:6.2f} ms")  # fmt: skip
    if args.threads:
        for name, ms in by_thread_name(threads0, threads1).most_common():
            print(f"    {name:22s} {ms / n:6.2f} ms per grade")
    naive, default = naive_cpu_ms(code, args.naive), naive_cpu_ms(code, args.naive, None)
    print(f"  baseline: a fresh `python main.py` with one BLAS thread {naive:6.1f} ms of CPU"
          f" (n={args.naive}); a grade is 1/{naive / (web + box):.1f} of it (the step's target:"
          f" 1/8 or less, benchmarks/step.py); with the default BLAS threads {default:6.1f} ms,"
          f" 1/{default / (web + box):.1f}")  # fmt: skip
    print(f"  (wall {wall:.1f} s; the refill of spares between rounds is counted in the sandbox)")
    if profile:
        profile.dump_stats(args.profile)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--lesson", default="query-key-value")
    parser.add_argument("--direct", action="store_true")
    parser.add_argument("--profile")
    parser.add_argument("--threads", action="store_true")
    parser.add_argument("--naive", type=int, default=10)
    sys.exit(asyncio.run(main(parser.parse_args())))
