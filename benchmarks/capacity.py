"""How many learners does one node hold? Learner steps at a growing offered rate against a real
``codeblanks serve``, driven over HTTP from outside the server's process tree.

    .venv/bin/python benchmarks/capacity.py [--rates 10,20,30,40,50,60,70,80] [--seconds 15]
                                            [--baseline COMMIT | --versus K=V,...]
                                            [--url http://host:port]

A **step** is what a learner does about once every 30 s: open the lesson page (GET, with the
learner's session cookie) and press Run on the sample solution (the page's own htmx form: POST
with the page's CSRF token; the answer must say ``correct``). Steps arrive open-loop at the
offered rate (Poisson arrivals, seeded), each by a learner not already mid-step (a new learner,
with a cookie jar, a keep-alive connection and a 127.x.y.z address of its own, joins when all
are busy), for ``--seconds`` per rate; steps still in flight at the end are waited for.

The node is ``codeblanks serve`` on a free loopback port, SQLite in a temporary directory, the
rate limit off (benchmarks/realnode.py). The client is this process (asyncio, raw sockets); it
shares the machine's cores with the node, but its CPU is not the node's: the node's CPU per step
is the whole server tree's (serve, the sandbox's launcher, zygote and children: utime + stime +
the reaped children's) from /proc, sampled before and after each rate.

Printed per rate: achieved steps/s, step p50/p95/p99, page and Run p95, errors (HTTP errors, a
wrong answer, a step over 30 s) and busy answers, the server tree's CPU per step (``cpu/st``),
this client's (``cli/st``), the whole machine's busy share (``mach``: the client, the node and
anything else; on 2 cores at 100 % the cores, not the node's design, are the ceiling), the load
average. Then the
highest rate **held** (step p95 <= 150 ms, 0 errors, 0 busy, at least 90 % of the offered rate
achieved) and the learners that makes at one step per learner every 30 s. It stops stepping up
after the first rate missed (``--all``: runs every rate).

``--baseline COMMIT``: the same against a checkout of COMMIT (``git archive``, run with this
virtualenv, PYTHONPATH at its src/; or a folder: another checkout, run with its own ``.venv``
when it has one, as when the two differ in their dependencies), both nodes up at once, the two
measured alternately at each rate (the order swapped from one rate to the next), printed side by
side. The node measured second at a rate meets the load the first left (the load average rises
through a run): past a few rates the order decides little, but at the knee it can decide which
looks better, so compare with ``--rounds 2`` (each rate twice per node, A B then B A, the
rounds pooled in the summary), or more. ``--versus K=V,...``: the same against this tree under
other settings (``CODEBLANKS_WEB_WORKERS=2``): what a setting buys.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import realnode  # noqa: E402  (benchmarks/realnode.py, beside this file)
from realnode import (  # noqa: E402
    Connection,
    busy_share,
    load,
    machine_cpu,
    percentile,
    source_address,
)

LESSON = "query-key-value"
TARGET_P95_MS = 150.0
SECONDS_PER_STEP = 30.0  # a learner presses Run (after opening the page) every 30 s
TIMEOUT_S = 30.0
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
VERDICT = re.compile(rb'data-verdict="([^"]*)"')


def solution() -> str:
    from codeblanks.content import catalog

    lesson = catalog().lesson(LESSON)
    if lesson is None:
        raise SystemExit(f"the lesson {LESSON} is not in the catalogue")
    return lesson.exercise.solution


@dataclass
class Rate:
    offered: float
    label: str
    step_ms: list[float] = field(default_factory=list)
    page_ms: list[float] = field(default_factory=list)
    run_ms: list[float] = field(default_factory=list)
    errors: int = 0
    busy: int = 0
    examples: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cpu_ms: float = float("nan")  # the server tree's CPU, per step
    client_ms: float = float("nan")  # this process's CPU (the learners' side), per step
    machine_busy: float = float("nan")  # the whole machine's CPU busy share over the rate
    learners: int = 0
    arrivals: int = 0  # steps offered (Poisson: about offered x seconds)
    window: float = 0.0  # the seconds they were offered over
    load_start: str = ""
    load_end: str = ""

    @property
    def done(self) -> int:
        return len(self.step_ms)

    @property
    def achieved(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    @property
    def p95(self) -> float:
        return percentile(self.step_ms, 0.95)

    def held(self) -> bool:
        return (
            self.errors == 0
            and self.busy == 0
            and self.p95 <= TARGET_P95_MS
            and self.achieved >= 0.9 * self.arrivals / max(self.window, 1e-9)
        )

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.examples) < 3:
            self.examples.append(what[:300])

    def row(self) -> str:
        return (
            f"{self.offered:5.0f} {self.achieved:7.1f} {percentile(self.step_ms, 0.5):7.1f} "
            f"{self.p95:7.1f} {percentile(self.step_ms, 0.99):7.1f} "
            f"{percentile(self.page_ms, 0.95):7.1f} {percentile(self.run_ms, 0.95):7.1f} "
            f"{self.errors:4d} {self.busy:4d} {self.cpu_ms:6.1f} {self.client_ms:6.1f} "
            f"{self.machine_busy:5.0%}  {self.load_start}->{self.load_end}"
            f"  {'held' if self.held() else 'MISSED'}"
        )


def pooled(rounds: list[Rate]) -> Rate:
    """One rate's rounds as one: the steps pooled (so the percentiles are over all of them),
    the counts summed, the CPU per step weighted by the steps offered."""
    out = Rate(rounds[0].offered, rounds[0].label, load_start=rounds[0].load_start,
               load_end=rounds[-1].load_end)  # fmt: skip
    for r in rounds:
        out.step_ms += r.step_ms
        out.page_ms += r.page_ms
        out.run_ms += r.run_ms
        out.errors += r.errors
        out.busy += r.busy
        out.examples = (out.examples + r.examples)[:3]
        out.seconds += r.seconds
        out.arrivals += r.arrivals
        out.window += r.window
        out.learners += r.learners

    def weighted(values: list[float], weights: list[float]) -> float:
        pairs = [(v, w) for v, w in zip(values, weights, strict=True) if v == v]  # not NaN
        total = sum(w for _, w in pairs)
        return sum(v * w for v, w in pairs) / total if total else float("nan")

    steps = [float(r.arrivals) for r in rounds]
    out.cpu_ms = weighted([r.cpu_ms for r in rounds], steps)
    out.client_ms = weighted([r.client_ms for r in rounds], steps)
    out.machine_busy = weighted([r.machine_busy for r in rounds], [r.window for r in rounds])
    return out


HEADER = " rate  ach/s  p50 ms  p95 ms  p99 ms page95  run95  err busy cpu/st cli/st  mach  load"


class Learner:
    def __init__(self, url: str, n: int) -> None:
        self.conn = Connection(url, source=source_address(n), cookies=True)


class Driver:
    """The learners of one node (kept from one rate to the next, as a class stays logged in)."""

    def __init__(self, url: str, code: str, first: int = 0) -> None:
        self.url, self.code = url, code
        self.idle: list[Learner] = []
        self.made = first  # learners' addresses: from ``first`` on, distinct between nodes
        self.page = f"/lessons/{LESSON}/"
        self.run = f"/lessons/{LESSON}/run"

    def learner(self) -> Learner:
        if self.idle:
            return self.idle.pop()
        self.made += 1
        return Learner(self.url, self.made)

    async def step(self, rate: Rate | None) -> None:
        learner = self.learner()
        conn = learner.conn
        start = time.perf_counter()
        try:
            status, body = await asyncio.wait_for(
                conn.request("GET", self.page, headers={"Accept-Language": "en"}), TIMEOUT_S
            )
            page_done = time.perf_counter()
            token = TOKEN.search(body)
            if status in (429, 503):  # the node turned the page away: busy, as a Run can be
                self.idle.append(learner)
                if rate is not None:
                    rate.busy += 1
                return
            if status != 200 or not token:
                raise ValueError(f"page: HTTP {status} {body[:200]!r}")
            form = urlencode({"csrfmiddlewaretoken": token.group(1).decode(), "code": self.code})
            headers = {
                "Accept-Language": "en",
                "Content-Type": "application/x-www-form-urlencoded",
                "HX-Request": "true",
                "Origin": conn.origin,
                "Referer": conn.origin + self.page,
            }
            status, body = await asyncio.wait_for(
                conn.request("POST", self.run, form.encode(), headers),
                TIMEOUT_S - (page_done - start),
            )
            end = time.perf_counter()
        except (TimeoutError, OSError, ValueError, asyncio.IncompleteReadError) as e:
            await conn.close()
            if rate is not None:
                rate.error(f"{type(e).__name__}: {e}")
            self.idle.append(learner)
            return
        self.idle.append(learner)
        if rate is None:
            return
        verdict = VERDICT.search(body)
        verdict = verdict.group(1).decode() if verdict else ""
        if verdict == "busy" or status in (429, 503):
            rate.busy += 1
        elif status != 200 or verdict != "correct":
            rate.error(f"Run: HTTP {status} {verdict or body[:300]!r}")
        else:
            rate.step_ms.append((end - start) * 1000)
            rate.page_ms.append((page_done - start) * 1000)
            rate.run_ms.append((end - page_done) * 1000)

    async def warm(self, steps: int = 10) -> None:
        for _ in range(steps):
            await self.step(None)


async def offer(driver: Driver, node: realnode.Served | None, rate: Rate, seconds: float) -> Rate:
    """Steps at ``rate.offered`` per second (Poisson arrivals) for ``seconds``; then waits for
    the steps in flight. The server tree's CPU is sampled before and after."""
    rng = random.Random(int(rate.offered * 1000) + 7)
    await asyncio.sleep(0.5)  # the last rate's children reaped, the spares refilled
    rate.load_start = load()
    cpu0 = node.cpu_ms() if node else float("nan")
    client0, machine0 = time.process_time(), machine_cpu()
    made0 = driver.made
    tasks = []
    start = time.monotonic()
    due = start
    while True:
        due += rng.expovariate(rate.offered)
        if due - start >= seconds:
            break
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        tasks.append(asyncio.create_task(driver.step(rate)))
    await asyncio.gather(*tasks)
    rate.seconds = time.monotonic() - start  # from the first offer to the last answer
    rate.arrivals, rate.window = len(tasks), seconds
    rate.client_ms = (time.process_time() - client0) * 1000 / max(1, len(tasks))
    rate.machine_busy = busy_share(machine0)
    await asyncio.sleep(0.5)  # the children of the last Runs reaped
    if node:
        rate.cpu_ms = (node.cpu_ms() - cpu0) / max(1, len(tasks))
    rate.learners = driver.made - made0
    rate.load_end = load()
    return rate


def best(rates: list[Rate]) -> str:
    held = [r for r in rates if r.held()]
    if not held:
        low = rates[0].offered if rates else 0
        return f"none held (below {low:.0f} steps/s)"
    top = max(held, key=lambda r: r.offered)
    return (
        f"{top.offered:.0f} steps/s (achieved {top.achieved:.1f}, p95 {top.p95:.0f} ms, "
        f"{top.cpu_ms:.1f} ms CPU/step) = {top.offered * SECONDS_PER_STEP:,.0f} learners "
        f"at one Run per {SECONDS_PER_STEP:.0f} s"
    )


async def main_async(args, nodes: list[tuple[str, realnode.Served | None]]) -> int:
    code = solution()
    rates = [float(x) for x in args.rates.split(",")]
    drivers = [Driver(url, code, first=i * 60000) for i, (url, _) in enumerate(nodes)]
    for driver in drivers:
        await driver.warm()
    labels = [served.label if served else url for url, served in nodes]
    for label, (_, served) in zip(labels, nodes, strict=True):
        if served:  # what the node's tree uses doing nothing, which the CPU per step includes
            await asyncio.sleep(1)
            cpu0, start = served.cpu_ms(), time.monotonic()
            await asyncio.sleep(3)
            idle = (served.cpu_ms() - cpu0) / (time.monotonic() - start)
            print(f"[{label}] idle, the server tree uses {idle:.1f} ms of CPU per second "
                  f"(load {load()})", flush=True)  # fmt: skip
    results: list[list[Rate]] = [[] for _ in nodes]  # per rate, the rounds pooled
    print(f"steps: GET the lesson page + POST Run (htmx form, CSRF), {args.seconds:.0f} s per "
          f"rate; held = step p95 <= {TARGET_P95_MS:.0f} ms, 0 errors, 0 busy, >= 90 % of the "
          f"rate offered achieved (ach/s: steps answered right / seconds from the first offer to "
          f"the last answer)", flush=True)  # fmt: skip
    print(f"  {HEADER}", flush=True)
    for i, offered in enumerate(rates):
        rounds: list[list[Rate]] = [[] for _ in nodes]
        for r in range(args.rounds):
            order = list(range(len(nodes)))
            if (i + r) % 2:
                order.reverse()  # which tree goes first alternates by rate and by round
            for k in order:
                url, served = nodes[k]
                rate = await offer(drivers[k], served, Rate(offered, labels[k]), args.seconds)
                rounds[k].append(rate)
                extra = f"\n      e.g. {rate.examples}" if rate.examples else ""
                print(f"  [{labels[k]}] {rate.row()}{extra}", flush=True)
        for k in range(len(nodes)):
            results[k].append(pooled(rounds[k]))
        if not args.all and not any(results[k][-1].held() for k in range(len(nodes))):
            break
    pooled_note = f", the {args.rounds} rounds pooled" if args.rounds > 1 else ""
    print(f"\nper rate (steps/s offered; step latency in ms; CPU per step of the server's whole "
          f"process tree, ms{pooled_note}):")  # fmt: skip
    for k, label in enumerate(labels):
        print(f"{label}:\n  {HEADER}")
        for rate in results[k]:
            print(f"  {rate.row()}")
    print("\nhighest rate held (step p95 <= 150 ms, 0 errors, 0 busy):")
    for k, label in enumerate(labels):
        print(f"  {label:20s} {best(results[k])}")
    if len(nodes) == 2:
        common = [(a, b) for a, b in zip(results[0], results[1], strict=False)]
        cpu = [a.cpu_ms / b.cpu_ms for a, b in common if b.cpu_ms == b.cpu_ms and b.cpu_ms > 0]
        if cpu:
            print(f"  CPU per step, {labels[0]} / {labels[1]}, rate by rate: "
                  + ", ".join(f"{c:.2f}" for c in cpu))  # fmt: skip
    print(f"load average at the end: {load()} ({os.cpu_count()} cores; the client "
          f"runs on the same cores)")  # fmt: skip
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="10,20,30,40,50,60,70,80", help="steps/s, in order")
    parser.add_argument("--seconds", type=float, default=15.0, help="each rate's length")
    parser.add_argument("--all", action="store_true", help="every rate, even after a miss")
    parser.add_argument(
        "--rounds", type=int, default=1,
        help="each rate this many times per node, which node goes first alternating (2: ABBA)",
    )  # fmt: skip
    parser.add_argument(
        "--baseline", help="a commit, or a checkout with its own .venv, to compare with"
    )
    parser.add_argument(
        "--versus", metavar="K=V[,K=V]", help="compare with this tree under these settings"
    )
    parser.add_argument("--url", help="a node already serving (its CPU is not counted)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds: at least 1")
    if args.url:
        return asyncio.run(main_async(args, [(args.url, None)]))
    with contextlib.ExitStack() as stack:
        here = stack.enter_context(realnode.serve(label="this tree"))
        nodes = [(here.url, here)]
        if args.baseline:
            tree = stack.enter_context(realnode.baseline(args.baseline))
            print(f"{tree.label}: {realnode.describe(args.baseline)}", flush=True)
            base = stack.enter_context(realnode.serve(tree.src, tree.label, python=tree.python))
            nodes.append((base.url, base))
        elif args.versus:
            env = dict(kv.split("=", 1) for kv in args.versus.split(","))
            other = stack.enter_context(realnode.serve(label=args.versus, env=env))
            nodes.append((other.url, other))
        return asyncio.run(main_async(args, nodes))


if __name__ == "__main__":
    sys.exit(main())
