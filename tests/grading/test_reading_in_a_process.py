"""A long learner's program is read (parsed, its cases made, what the task's rules look for
found) in a worker process (``grading/reading.py``, ``sandbox/workers.py``), off the web
process's GIL (security review S7); a short one in a thread here. The pool fails safe: a reading
that takes too long, or a pool whose worker died, is the platform's failure said as such, never a
hang, an exception or a verdict on the learner."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from concurrent.futures import BrokenExecutor

import pytest

from codeblanks.content import catalog
from codeblanks.grading import grade, reading
from codeblanks.grading.reading import READ_HERE_CHARS, READ_S, read
from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox import workers


def _lesson(lesson_id: str, version: str):
    lesson = catalog().lesson(lesson_id)
    if lesson is None:
        pytest.fail(f"the built-in lesson {lesson_id} does not load")
    return dataclasses.replace(lesson, version=version)


def long_program(solution: str) -> str:
    """The solution, then tiny statements past ``READ_HERE_CHARS``: still right."""
    return solution + "".join(f"p{i} = {i}\n" for i in range(READ_HERE_CHARS // 6))


def test_a_short_program_is_read_here_and_a_long_one_in_a_worker(sandbox, monkeypatch):
    lesson = _lesson("batches-and-einsum", "where-read")
    code = lesson.exercise.solution
    assert len(code) <= READ_HERE_CHARS < len(long_program(code))
    monkeypatch.setattr(workers, "_submit", lambda fn, args: None)  # the pool refuses all work
    assert grade(lesson, code, sandbox).correct
    g = grade(lesson, long_program(code), sandbox)
    assert g.verdict == Verdict.SANDBOX_ERROR and g.feedback and "try again" in g.feedback[0]


def test_a_reading_that_raises_here_is_a_platform_error(sandbox, monkeypatch):
    lesson = _lesson("batches-and-einsum", "read-raises")

    def broken(lesson, code):
        raise RecursionError("too deep")

    monkeypatch.setattr(reading, "lesson_facts", broken)
    g = grade(lesson, lesson.exercise.solution, sandbox)
    assert g.verdict == Verdict.SANDBOX_ERROR and g.feedback and "try again" in g.feedback[0]


def test_the_reading_is_the_same_in_the_worker_and_here():
    lesson = _lesson("batches-and-einsum", "")
    code = lesson.exercise.solution
    future = workers.pool().submit(read, lesson, code)
    assert future.result() == read(lesson, code)
    # ... and it is not done by this process
    assert workers.pool().submit(os.getpid).result() != os.getpid()


def test_a_reading_past_its_time_is_a_platform_error_and_the_pool_is_renewed(sandbox, monkeypatch):
    lesson = _lesson("batches-and-einsum", "read-timeout")
    before = workers.pool()
    code = long_program(lesson.exercise.solution)
    monkeypatch.setattr(reading, "READ_S", 0.0)  # no reading is ever done at once
    g = grade(lesson, code, sandbox)
    assert g.verdict == Verdict.SANDBOX_ERROR and g.feedback and "try again" in g.feedback[0]
    monkeypatch.undo()
    assert workers.pool() is not before  # the stopped pool was replaced
    assert grade(lesson, code, sandbox).correct


def test_a_pool_whose_worker_died_is_replaced(sandbox):
    lesson = _lesson("batches-and-einsum", "worker-died")
    broken = workers.pool()
    with pytest.raises(BrokenExecutor):
        broken.submit(os._exit, 1).result()
    g = grade(lesson, long_program(lesson.exercise.solution), sandbox)
    assert g.correct, g.feedback
    assert workers.pool() is not broken


def test_work_that_raises_in_a_worker_gives_none_and_keeps_the_pool():
    before = workers.pool()
    assert asyncio.run(workers.offload(int, "not a number", timeout=READ_S)) is None
    assert workers.pool() is before
    assert asyncio.run(workers.offload(int, "42", timeout=READ_S)) == 42


def test_the_workers_yield_the_cpu_to_the_web_process():
    assert workers.pool().submit(os.nice, 0).result() == os.nice(0) + workers.NICENESS
