"""``POST /api/run`` against the naive way, in the same run: the wall time of
one run through the ASGI application in-process (the web side, the fair queue and the sandbox)
against a fresh ``python main.py`` of the same program, and the CPU per run of this process
and of the sandbox, from /proc.

    .venv/bin/python benchmarks/api_run.py [--n 200] [--naive 10] [--lesson query-key-value]
                                          [--threads]

Runs the lesson's sample solution, one request at a time with a short pause (natural pauses,
as benchmarks/sandbox.py); prints p50/p95 and the ratio to the naive p50 (the target:
1/50 or less). Every answer is checked. ``--threads`` splits this process's CPU by thread (as
benchmarks/cpu_per_grade.py does).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cpu_per_grade import by_thread_name, cpu_ms, sandbox_pids, thread_cpu_ms  # noqa: E402

from grading import asgi_post, percentile, web_app  # noqa: E402


def naive_ms(code: str, n: int) -> list[float]:
    """Wall times of a fresh ``python main.py``, with one BLAS thread as in the sandbox (the
    environment's default starts a thread per core, and is slower: the fairer baseline)."""
    env = {
        **os.environ,
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "main.py")
        Path(path).write_text(code)
        for _ in range(n):
            start = time.perf_counter()
            subprocess.run([sys.executable, path], capture_output=True, check=True, env=env)
            times.append((time.perf_counter() - start) * 1000)
    return times


async def main(args) -> int:
    from django.urls import reverse

    from codeblanks.content import catalog
    from codeblanks.sandbox import get_sandbox

    code = catalog().lesson(args.lesson).exercise.solution
    app, _, host = web_app(args.lesson)
    url = reverse("api-run")
    body = json.dumps({"code": code}).encode()
    sandbox = get_sandbox()

    async def one() -> float:
        start = time.perf_counter()
        status, content, sent = await asgi_post(app, host, url, body)
        assert status == 200 and json.loads(content)["verdict"] == "ok", content[:200]
        return (sent - start) * 1000

    for _ in range(10):
        await one()
        await asyncio.sleep(0.03)
    pids = sandbox_pids(sandbox._supervisor.proc.pid)
    await asyncio.sleep(0.5)
    web0, box0 = cpu_ms(os.getpid()), sum(cpu_ms(p, children=True) for p in pids)
    threads0 = thread_cpu_ms()
    times = []
    for _ in range(args.n):
        times.append(await one())
        await asyncio.sleep(0.03)
    await asyncio.sleep(0.5)
    web1, box1 = cpu_ms(os.getpid()), sum(cpu_ms(p, children=True) for p in pids)
    threads1 = thread_cpu_ms()
    naive = statistics.median(naive_ms(code, args.naive))
    p50 = percentile(times, 0.5)
    print(f"POST /api/run, {args.lesson}'s solution, n={args.n}; load {os.getloadavg()[0]:.1f}")
    print(f"  naive `python main.py`  p50 {naive:7.1f} ms (n={args.naive})")
    print(f"  /api/run                p50 {p50:7.2f} ms   p95 {percentile(times, 0.95):7.2f} ms")
    print(f"  CPU per run: this process {(web1 - web0) / args.n:5.2f} ms, sandbox"
          f" {(box1 - box0) / args.n:5.2f} ms")  # fmt: skip
    if args.threads:
        for name, ms in by_thread_name(threads0, threads1).most_common():
            print(f"    {name:22s} {ms / args.n:6.2f} ms per run")
    ratio = naive / p50
    print(f"  /api/run is 1/{ratio:.0f} of the naive run (target: 1/50 or less):"
          f" {'met' if ratio >= 50 else 'MISSED'}")  # fmt: skip
    return 0 if ratio >= 50 else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--naive", type=int, default=10)
    parser.add_argument("--lesson", default="query-key-value")
    parser.add_argument("--threads", action="store_true")
    sys.exit(asyncio.run(main(parser.parse_args())))
