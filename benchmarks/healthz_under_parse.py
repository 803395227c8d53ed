"""``/healthz`` while eight grades of a 64 KiB program run at once (security review S7): parsing
a program holds the GIL, so it must happen where it cannot stall the web process's other
requests (``grading/reading.py``: a worker process; a long program's judging too, ``ajudge`` in
``grading/grade.py``).

    .venv/bin/python benchmarks/healthz_under_parse.py [--rounds 3] [--burst 8]
                                                       [--lesson batches-and-einsum] [--failing]

Through the ASGI application in-process (as benchmarks/grading.py does): first ``/healthz`` one
request after another on a quiet server, then the same while ``--burst`` grades of the lesson's
solution padded with tiny statements to 64 KiB (the costliest shape to parse) run together,
``--rounds`` times. ``--failing`` ends each program with the starter's blank left in a
``print`` (a grade that fails: its judging tokenises the program to name the blank). Prints
/healthz p50/max in both (and /api/lessons', which runs no sandbox program, and a sandbox run's
alone), the bursts' wall time and the event loop's worst lag (a 1 ms ticker). Target: /healthz
max under the burst at most 100 ms. (/healthz answers from the last sandbox check's state,
``web/views/health.py``, so its time is the loop's and the database's. Compare on a quiet
machine, and with the code before the change: the figures follow the machine's load.)

The figures measured with it, before and after, are in docs/changelog.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from codeblanks.web.door.inprocess import asgi_request  # noqa: E402
from grading import asgi_post, web_app  # noqa: E402

SIZE = 64 * 1024
TARGET_MS = 100.0


FAILING_TAIL = "print(____)\n"  # the starter's blank left: a grade that fails


def long_program(solution: str, size: int = SIZE) -> str:
    """The solution, then ``pN = N`` lines up to ``size`` bytes."""
    lines, total, i = [solution], len(solution.encode()), 0
    while total + len(line := f"p{i} = {i}\n") <= size:
        lines.append(line)
        total += len(line)
        i += 1
    return "".join(lines)


async def get_ms(app, host: str, path: str) -> tuple[int, float]:
    start = time.perf_counter()
    answer = await asgi_request(app, "GET", path, host=host)
    return answer.status, (answer.sent_at - start) * 1000


async def sandbox_ms(app, host: str, path: str) -> tuple[int, float]:
    """What /healthz asks of the sandbox, alone: its wait for a slot and the run."""
    from codeblanks.sandbox import RunLimits, get_sandbox

    start = time.perf_counter()
    run = await get_sandbox().arun("print(6 * 7)", limits=RunLimits(wall_s=5.0, cpu_s=5.0))
    return (200 if run.ok else 500), (time.perf_counter() - start) * 1000


async def probe(app, host: str, path: str, until: asyncio.Event) -> list[tuple[int, float]]:
    """``path`` one request after another until ``until`` is set ("sandbox": its run alone)."""
    get = sandbox_ms if path == "sandbox" else get_ms
    times = [await get(app, host, path)]
    while not until.is_set():
        times.append(await get(app, host, path))
    return times


async def ticker(until: asyncio.Event) -> float:
    """The loop's worst lag (ms) behind a 1 ms sleep, until ``until`` is set."""
    worst = 0.0
    while not until.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        worst = max(worst, (time.perf_counter() - start - 0.001) * 1000)
    return worst


Times = list[tuple[int, float]]


async def burst(
    app, host, url, body, n: int, verdict: str = "correct"
) -> tuple[Times, Times, Times, float, float]:
    """/healthz, /api/lessons and sandbox run times during one burst, its wall time, the loop's
    worst lag."""
    done = asyncio.Event()
    probing = asyncio.create_task(probe(app, host, "/healthz", done))
    listing = asyncio.create_task(probe(app, host, "/api/lessons", done))
    running = asyncio.create_task(probe(app, host, "sandbox", done))
    lagging = asyncio.create_task(ticker(done))
    start = time.perf_counter()
    answers = await asyncio.gather(*(asgi_post(app, host, url, body) for _ in range(n)))
    wall = (time.perf_counter() - start) * 1000
    done.set()
    for status, content, _ in answers:
        got = json.loads(content).get("verdict") if status == 200 else (status, content)
        assert got == verdict, got
    return await probing, await listing, await running, wall, await lagging


def summary(name: str, times: Times) -> float:
    ms = [t for _, t in times]
    codes = sorted({s for s, _ in times})
    print(f"  {name:26} n={len(ms):4}  p50 {statistics.median(ms):7.1f} ms  "
          f"max {max(ms):7.1f} ms  (status {codes})")  # fmt: skip
    return max(ms)


async def main(rounds: int, n: int, lesson_id: str, failing: bool = False) -> int:
    from codeblanks.content import catalog

    lesson = catalog().lesson(lesson_id)
    web = web_app(lesson_id)
    if lesson is None or web is None:
        print(f"the lesson {lesson_id} or the web app does not load")
        return 2
    app, url, host = web
    # A node behind a load balancer is migrated; an unmigrated one answers 503 and plans its
    # migrations on every probe, which is not what this measures.
    from django.core.management import call_command

    await asyncio.to_thread(call_command, "migrate", verbosity=0, interactive=False)
    code = long_program(lesson.exercise.solution)
    if failing:
        code = long_program(lesson.exercise.solution, SIZE - len(FAILING_TAIL)) + FAILING_TAIL
    verdict = "error" if failing else "correct"
    body = json.dumps({"code": code}).encode()
    await asgi_post(app, host, url, body)  # warm-up: the pools started, the reference cached
    quiet = [await get_ms(app, host, "/healthz") for _ in range(20)]
    quiet_list = [await get_ms(app, host, "/api/lessons") for _ in range(20)]
    loud: Times = []
    loud_list: Times = []
    loud_runs: Times = []
    walls, lags = [], []
    for _ in range(rounds):
        times, listed, runs, wall, lag = await burst(app, host, url, body, n, verdict)
        loud += times
        loud_list += listed
        loud_runs += runs
        walls.append(wall)
        lags.append(lag)
    print(f"{lesson_id}: {rounds} bursts of {n} grades of a {len(code.encode())}-byte program")
    summary("/healthz quiet", quiet)
    worst = summary("/healthz under burst", loud)
    summary("/api/lessons quiet", quiet_list)
    summary("/api/lessons under burst", loud_list)
    summary("sandbox run under burst", loud_runs)
    print(f"  burst wall time p50 {statistics.median(walls):7.1f} ms; "
          f"event loop worst lag {max(lags):.1f} ms")  # fmt: skip
    print(f"  /healthz max under the burst {worst:.1f} ms: target <= {TARGET_MS:.0f} ms "
          f"{'met' if worst <= TARGET_MS else 'NOT met'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="bursts (default 3)")
    parser.add_argument("--burst", type=int, default=8, help="grades at once (default 8)")
    parser.add_argument("--lesson", default="batches-and-einsum")
    parser.add_argument("--failing", action="store_true", help="programs that fail (a blank)")
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.rounds, args.burst, args.lesson, args.failing)))
