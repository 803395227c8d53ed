"""``POST /api/run`` against the naive way, in the same run: the wall time of one run through a
real socket to a real ``codeblanks serve`` (uvicorn's HTTP layer, the web side, the fair queue
and the sandbox), seen by a client in this process, against a fresh ``python main.py`` of the same
program; and the CPU per run of the server's whole process tree (serve, the sandbox's launcher,
zygote and children), from /proc.

    .venv/bin/python benchmarks/api_run.py [--n 200] [--naive 10] [--lesson query-key-value]
                                          [--baseline COMMIT] [--in-process [--threads]]

Runs the lesson's sample solution, one request at a time over one keep-alive connection with a
short pause (natural pauses, as benchmarks/sandbox.py); prints p50/p95 and the ratio to the
naive p50 (the target: 1/50 or less). Every answer is checked. The node is started as
benchmarks/realnode.py does (SQLite in a temporary directory, rate limit off).

``--baseline COMMIT``: the same against a checkout of COMMIT run with this virtualenv, both nodes
up at once, measured alternately in rounds, printed side by side.

``--in-process``: the former measure instead, **in-process**: the ASGI application called in
this process, the time taken when the application sends its answer. It leaves out uvicorn's
HTTP parsing, the socket and the client's wake-up, and flatters ``/api/run`` by 20-40 %
(shared/reviews/performance.md); it is kept to split the web side's CPU by thread
(``--threads``), which needs the application in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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

import realnode  # noqa: E402  (benchmarks/realnode.py, beside this file)
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


async def in_process(args) -> int:
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
    print(f"POST /api/run IN-PROCESS (ASGI app called in this process: no HTTP layer, no "
          f"socket; flatters by 20-40 %), {args.lesson}'s solution, n={args.n}; "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
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


async def over_socket(args, nodes: list) -> int:
    """The real measure: each node a ``codeblanks serve`` process, the client this process."""
    from codeblanks.content import catalog

    code = catalog().lesson(args.lesson).exercise.solution
    body = json.dumps({"code": code}).encode()
    headers = {"Content-Type": "application/json"}
    conns = [realnode.Connection(node.url) for node in nodes]

    async def one(conn) -> float:
        start = time.perf_counter()
        status, content = await conn.request("POST", "/api/run", body, headers)
        took = (time.perf_counter() - start) * 1000
        assert status == 200 and json.loads(content)["verdict"] == "ok", (status, content[:200])
        return took

    for conn in conns:  # warm: the connection, the first run's imports and caches
        for _ in range(10):
            await one(conn)
            await asyncio.sleep(0.03)
    times: list[list[float]] = [[] for _ in nodes]
    cpu = [0.0 for _ in nodes]
    rounds = max(1, args.rounds if len(nodes) > 1 else 1)
    per_round = max(1, args.n // rounds)
    loads = [realnode.load()]
    for r in range(rounds):
        order = range(len(nodes)) if r % 2 == 0 else reversed(range(len(nodes)))
        for k in order:
            await asyncio.sleep(0.5)  # the last children reaped, the spares refilled
            cpu0 = nodes[k].cpu_ms()
            for _ in range(per_round):
                times[k].append(await one(conns[k]))
                await asyncio.sleep(0.03)
            await asyncio.sleep(0.5)
            cpu[k] += nodes[k].cpu_ms() - cpu0
        loads.append(realnode.load())
    for conn in conns:
        await conn.close()
    naive = statistics.median(naive_ms(code, args.naive))
    print(f"POST /api/run through a real socket to `codeblanks serve`, {args.lesson}'s solution, "
          f"{per_round * rounds} runs per node in {rounds} round(s); load "
          f"{' -> '.join(loads)}")  # fmt: skip
    print(f"  naive `python main.py`  p50 {naive:7.1f} ms (n={args.naive})")
    ok = True
    for k, node in enumerate(nodes):
        p50 = percentile(times[k], 0.5)
        ratio = naive / p50
        ok = ok and (k > 0 or ratio >= 50)
        print(f"  {node.label:20s} p50 {p50:6.2f} ms  p95 {percentile(times[k], 0.95):6.2f} ms"
              f"  server-tree CPU {cpu[k] / len(times[k]):5.2f} ms/run  1/{ratio:.0f} of naive"
              f" (target 1/50: {'met' if ratio >= 50 else 'MISSED'})")  # fmt: skip
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--naive", type=int, default=10)
    parser.add_argument("--lesson", default="query-key-value")
    parser.add_argument("--baseline", help="a commit to compare with, alternately")
    parser.add_argument("--rounds", type=int, default=4, help="alternations with --baseline")
    parser.add_argument("--in-process", action="store_true", help="the former in-process measure")
    parser.add_argument("--threads", action="store_true", help="with --in-process: by thread")
    args = parser.parse_args()
    if args.in_process:
        return asyncio.run(in_process(args))
    with contextlib.ExitStack() as stack:
        nodes = [stack.enter_context(realnode.serve(label="this tree"))]
        if args.baseline:
            src = stack.enter_context(realnode.checkout(args.baseline))
            label = f"baseline {args.baseline[:10]}"
            print(f"{label}: {realnode.describe(args.baseline)}", flush=True)
            nodes.append(stack.enter_context(realnode.serve(src, label=label)))
        return asyncio.run(over_socket(args, nodes))


if __name__ == "__main__":
    sys.exit(main())
