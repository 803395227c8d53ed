"""A Run against the naive way, in the same run: the wall time of one Run through a real socket
to a real ``codeblanks serve`` (uvicorn's HTTP layer, the web side, the fair queue and the
sandbox), seen by a client in this process, against a fresh ``python main.py`` of the same
program; and the CPU per Run of the server's whole process tree (serve, the sandbox's launcher,
zygote and children), from /proc. Two kinds of Run: ``POST /api/run`` (a bare run, nothing
kept) and the lesson page's Run (its htmx form with the session cookie and CSRF token the page
gave, graded and recorded: a learner's Run).

    .venv/bin/python benchmarks/api_run.py [--n 200] [--naive 10] [--lesson query-key-value]
                                          [--what api|page|both] [--baseline COMMIT|FOLDER]
                                          [--rounds 4] [--in-process [--threads]]

Runs the lesson's sample solution, one request at a time over one keep-alive connection per
kind with a short pause (natural pauses, as benchmarks/sandbox.py); prints p50/p95, the CPU per
Run and, for /api/run, the ratio to the naive p50 (the target: 1/50 or less). Every answer is
checked. The node is started as benchmarks/realnode.py does (SQLite in a temporary directory,
rate limit off), with the load average before and after each round.

``--baseline COMMIT|FOLDER``: the same against another tree, both nodes up at once, measured
alternately in rounds, printed side by side: a commit (a ``git archive`` of it run with this
virtualenv) or another checkout's folder (run with its own ``.venv`` if it has one).

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
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
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


class Asker:
    """One kind of Run asked of one node over one keep-alive connection: ``api`` (``POST
    /api/run``, JSON) or ``page`` (the lesson page's Run as its htmx form sends it, with the
    session cookie and CSRF token the page gave: a learner's Run, graded and recorded)."""

    def __init__(self, kind: str, node, lesson: str, code: str) -> None:
        self.kind, self.node, self.lesson, self.code = kind, node, lesson, code
        self.conn = realnode.Connection(node.url, cookies=kind == "page")
        self.body = b""
        self.headers: dict[str, str] = {}

    async def start(self) -> None:
        if self.kind == "api":
            self.body = json.dumps({"code": self.code}).encode()
            self.headers = {"Content-Type": "application/json"}
            return
        page = f"/lessons/{self.lesson}/"
        status, html = await self.conn.request("GET", page, headers={"Accept-Language": "en"})
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert status == 200 and token, (status, html[:200])
        form = {"csrfmiddlewaretoken": token.group(1).decode(), "code": self.code}
        self.body = urllib.parse.urlencode(form).encode()
        self.headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
            "Accept-Language": "en",
            "Referer": f"{self.conn.origin}{page}",
            "Origin": self.conn.origin,
        }

    @property
    def path(self) -> str:
        return "/api/run" if self.kind == "api" else f"/lessons/{self.lesson}/run"

    async def one(self) -> float:
        start = time.perf_counter()
        status, content = await self.conn.request("POST", self.path, self.body, self.headers)
        took = (time.perf_counter() - start) * 1000
        if self.kind == "api":
            ok = status == 200 and json.loads(content)["verdict"] == "ok"
        else:
            ok = status == 200 and b'data-verdict="correct"' in content
        assert ok, (self.kind, status, content[:300])
        return took


async def over_socket(args, nodes: list) -> int:
    """The real measure: each node a ``codeblanks serve`` process, the client this process;
    with two nodes, each kind of Run asked of one and then the other, alternately in rounds."""
    from codeblanks.content import catalog

    code = catalog().lesson(args.lesson).exercise.solution
    kinds = ["api", "page"] if args.what == "both" else [args.what]
    askers = {(k, kind): Asker(kind, node, args.lesson, code)
              for k, node in enumerate(nodes) for kind in kinds}  # fmt: skip
    for asker in askers.values():  # warm: the connection, the first run's imports and caches
        await asker.start()
        for _ in range(10):
            await asker.one()
            await asyncio.sleep(0.03)
    times: dict[tuple, list[float]] = {key: [] for key in askers}
    cpu = dict.fromkeys(askers, 0.0)
    web = dict.fromkeys(askers, 0.0)
    rounds = max(1, args.rounds if len(nodes) > 1 else 1)
    per_round = max(1, args.n // rounds)
    loads = [realnode.load()]
    for r in range(rounds):
        order = list(range(len(nodes))) if r % 2 == 0 else list(reversed(range(len(nodes))))
        for kind in kinds:
            for k in order:
                asker = askers[(k, kind)]
                await asyncio.sleep(0.5)  # the last children reaped, the spares refilled
                cpu0, web0 = nodes[k].cpu_ms(), nodes[k].own_cpu_ms()
                for _ in range(per_round):
                    times[(k, kind)].append(await asker.one())
                    await asyncio.sleep(0.03)
                await asyncio.sleep(0.5)
                cpu[(k, kind)] += nodes[k].cpu_ms() - cpu0
                web[(k, kind)] += nodes[k].own_cpu_ms() - web0
        loads.append(realnode.load())
    for asker in askers.values():
        await asker.conn.close()
    naive = statistics.median(naive_ms(code, args.naive))
    print(f"A Run through a real socket to `codeblanks serve`, {args.lesson}'s solution, "
          f"{per_round * rounds} of each kind per node in {rounds} round(s); load average "
          f"{' -> '.join(loads)}")  # fmt: skip
    print(f"  naive `python main.py`  p50 {naive:7.1f} ms (n={args.naive})")
    ok = True
    for kind in kinds:
        what = "POST /api/run" if kind == "api" else "the page's Run (htmx, graded)"
        print(f"  {what}: wall as the client saw it; CPU of the server's whole process tree"
              " (of it, the serve process's own: the web side)")  # fmt: skip
        for k, node in enumerate(nodes):
            took = times[(k, kind)]
            p50 = percentile(took, 0.5)
            ratio = naive / p50
            line = (f"    {node.label:32s} p50 {p50:6.2f} ms  p95 {percentile(took, 0.95):6.2f} ms"
                    f"  CPU {cpu[(k, kind)] / len(took):5.2f} ms/run"
                    f" (serve process {web[(k, kind)] / len(took):5.2f})")  # fmt: skip
            if kind == "api":
                met = ratio >= 50
                ok = ok and (k > 0 or met)
                line += f"  1/{ratio:.0f} of naive (target 1/50: {'met' if met else 'MISSED'})"
            print(line)
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--naive", type=int, default=10)
    parser.add_argument("--lesson", default="query-key-value")
    parser.add_argument("--baseline", help="a commit or another checkout's folder, alternately")
    parser.add_argument("--what", choices=["api", "page", "both"], default="both",
                        help="which Run: POST /api/run, the page's, or both")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=4, help="alternations with --baseline")
    parser.add_argument("--in-process", action="store_true", help="the former in-process measure")
    parser.add_argument("--threads", action="store_true", help="with --in-process: by thread")
    args = parser.parse_args()
    if args.in_process:
        return asyncio.run(in_process(args))
    with contextlib.ExitStack() as stack:
        nodes = [stack.enter_context(realnode.serve(label="this tree"))]
        if args.baseline:
            tree = stack.enter_context(realnode.baseline(args.baseline))
            print(f"{tree.label}: {realnode.describe(args.baseline)}", flush=True)
            served = realnode.serve(tree.src, label=tree.label, python=tree.python)
            nodes.append(stack.enter_context(served))
        return asyncio.run(over_socket(args, nodes))


if __name__ == "__main__":
    sys.exit(main())
