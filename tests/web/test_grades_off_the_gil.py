"""Security review S7: eight grades of a 64 KiB program at once must not stall the web process's
other requests. Parsing holds the GIL, so a thread was not enough: the program is read in a
worker process (``grading/reading.py``), and a long program is judged there too (``ajudge`` in
``grading/grade.py``: a failed one is tokenised for its blank and parsed to explain its error).

Proven without a wall-clock bound: through the ASGI app, with the real grader and sandbox, a
burst of grades runs while a ticker on the loop records how late each of its ticks is. Compared
with figures measured in the same test, on the same machine: the CPU this process spends during
the burst is well under what reading (or judging) the programs here would cost (that is done
elsewhere), so the loop is left free. (How late the loop was, and /healthz under the burst, are wall
times: benchmarks/healthz_under_parse.py.)"""

from __future__ import annotations

import asyncio
import json
import resource
import time

import pytest
from django.test import override_settings
from django.urls import reverse

from codeblanks.content import catalog
from codeblanks.grading.grade import agrade_runs, judge
from codeblanks.grading.reading import read
from codeblanks.sandbox import get_sandbox
from codeblanks.web.door import asgi
from codeblanks.web.pages import selectors

from .test_api_fast_path import acall
from .test_run import _config

pytestmark = pytest.mark.django_db

LESSON = "batches-and-einsum"  # variants and rules: every part of the reading does work
BURST = 8
TICK_S = 0.001


@pytest.fixture(autouse=True)
def real_course(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: catalog().in_language("en"))


def long_program(solution: str, size: int = 64 * 1024) -> str:
    """The solution, then tiny statements up to ``size`` bytes: the costliest shape to parse."""
    lines, total, i = [solution], len(solution.encode()), 0
    while total + len(line := f"p{i} = {i}\n") <= size:
        lines.append(line)
        total += len(line)
        i += 1
    return "".join(lines)


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)  # every thread of this process
    return usage.ru_utime + usage.ru_stime


def _reading_cost_s(lesson, code: str) -> float:
    """The CPU one reading of ``code`` takes here, the least of three."""
    costs = []
    for _ in range(3):
        start = time.thread_time()
        read(lesson, code)
        costs.append(time.thread_time() - start)
    return min(costs)


def _judging_cost_s(lesson, code: str) -> float:
    """The CPU judging ``code``'s runs takes here, the least of three."""
    runs, ref, missing = asyncio.run(agrade_runs(lesson, code, get_sandbox()))
    costs = []
    for _ in range(3):
        start = time.thread_time()
        judge(lesson, code, runs, ref.trusted(), missing)
        costs.append(time.thread_time() - start)
    return min(costs)


async def _burst(url: str, body: bytes) -> tuple[list, float, float, list[float]]:
    """The answers, the burst's wall time and this process's CPU meanwhile, and the ticks' lags."""
    lags: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(TICK_S)
            lags.append(time.perf_counter() - start - TICK_S)

    headers = [(b"content-type", b"application/json")]
    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(TICK_S * 5)  # the ticker runs before the burst starts
    wall, cpu = time.perf_counter(), _cpu_s()
    answers = await asyncio.gather(
        *(
            acall(asgi.application, "POST", url, body, headers=headers, client=f"10.0.0.{i}")
            for i in range(BURST)
        )
    )
    wall, cpu = time.perf_counter() - wall, _cpu_s() - cpu
    done.set()
    await ticking
    return answers, wall, cpu, lags


def test_a_burst_of_long_programs_leaves_the_loop_free():
    lesson = catalog().in_language("en").lesson(LESSON)
    assert lesson is not None
    code = long_program(lesson.exercise.solution)
    assert 60 * 1024 < len(code.encode()) <= 64 * 1024
    url = reverse("api-grade", args=[LESSON])
    body = json.dumps({"code": code}).encode()
    headers = [(b"content-type", b"application/json")]
    limits = _config(run_rate=0, run_cpu_per_minute=0, max_code_bytes=64 * 1024)
    with override_settings(CODEBLANKS=limits):
        # once first: the reading's pool started, the lesson's reference cached
        warm = asyncio.run(acall(asgi.application, "POST", url, body, headers=headers))
        assert warm.status == 200 and warm.json()["verdict"] == "correct", warm.body
        cost = _reading_cost_s(lesson, code)
        answers, wall, cpu, lags = asyncio.run(_burst(url, body))
    for answer in answers:
        assert answer.status == 200 and answer.json()["verdict"] == "correct", answer.body
    # The readings' CPU is spent in the pool's processes, not under this process's GIL, so
    # the loop is free to turn. (How late its ticks were is wall time, which a busy machine
    # stretches whatever the code does: benchmarks/healthz_under_parse.py prints it.)
    assert lags, "the loop never turned during the burst"
    assert cpu < BURST * cost / 2, (cpu, cost, wall)


def test_a_burst_of_long_failing_programs_leaves_the_loop_free():
    """A blank left on the last line of 64 KiB: the judge tokenises the whole program to find
    it, and that is done in the worker, not under this process's GIL."""
    lesson = catalog().in_language("en").lesson(LESSON)
    assert lesson is not None
    tail = "print(____)\n"
    code = long_program(lesson.exercise.solution, 64 * 1024 - len(tail)) + tail
    url = reverse("api-grade", args=[LESSON])
    body = json.dumps({"code": code}).encode()
    limits = _config(run_rate=0, run_cpu_per_minute=0, max_code_bytes=64 * 1024)
    short = json.dumps({"code": lesson.exercise.solution + tail}).encode()
    with override_settings(CODEBLANKS=limits):
        cost = _judging_cost_s(lesson, code)
        # The same burst of a short failing program: what a grade costs this process whatever
        # its length (the request, the sandbox's supervision, the attempt saved).
        _, _, base, _ = asyncio.run(_burst(url, short))
        answers, wall, cpu, lags = asyncio.run(_burst(url, body))
    for answer in answers:
        assert answer.status == 200 and answer.json()["verdict"] == "error", answer.body
        assert "____" in answer.json()["feedback"][0], answer.json()["feedback"]
    assert lags, "the loop never turned during the burst"
    # What the length added here is under judging the long programs here would cost. (Not
    # half of it, as for correct programs: a failed long program still costs this process
    # ~60 ms of its own beside the judging, seen at load 18 — left for benchmarks/.)
    assert cpu - base < BURST * cost, (cpu, base, cost, wall)
