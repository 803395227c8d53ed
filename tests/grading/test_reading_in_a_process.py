"""A learner's program is read (parsed, its cases made, what the task's rules look for found) in
a worker process (``grading/reading.py``, ``sandbox/workers.py``), off the web process's GIL
(security review S7). The pool fails safe: a reading that takes too long, or a pool whose worker
died, is the platform's failure said as such, never a hang, an exception or a verdict on the
learner."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from concurrent.futures import BrokenExecutor

import pytest

from codeblanks.content import catalog
from codeblanks.grading import grade, reading
from codeblanks.grading.reading import READ_S, read
from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox import workers


def _lesson(lesson_id: str, version: str):
    lesson = catalog().lesson(lesson_id)
    if lesson is None:
        pytest.fail(f"the built-in lesson {lesson_id} does not load")
    return dataclasses.replace(lesson, version=version)


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
    monkeypatch.setattr(reading, "READ_S", 0.0)  # no reading is ever done at once
    g = grade(lesson, lesson.exercise.solution, sandbox)
    assert g.verdict == Verdict.SANDBOX_ERROR and g.feedback and "try again" in g.feedback[0]
    monkeypatch.undo()
    assert workers.pool() is not before  # the stopped pool was replaced
    assert grade(lesson, lesson.exercise.solution, sandbox).correct


def test_a_pool_whose_worker_died_is_replaced(sandbox):
    lesson = _lesson("batches-and-einsum", "worker-died")
    broken = workers.pool()
    with pytest.raises(BrokenExecutor):
        broken.submit(os._exit, 1).result()
    g = grade(lesson, lesson.exercise.solution, sandbox)
    assert g.correct, g.feedback
    assert workers.pool() is not broken


def test_work_that_raises_in_a_worker_gives_none_and_keeps_the_pool():
    before = workers.pool()
    assert asyncio.run(workers.offload(int, "not a number", timeout=READ_S)) is None
    assert workers.pool() is before
    assert asyncio.run(workers.offload(int, "42", timeout=READ_S)) == 42


def test_the_workers_yield_the_cpu_to_the_web_process():
    assert workers.pool().submit(os.nice, 0).result() == os.nice(0) + workers.NICENESS
