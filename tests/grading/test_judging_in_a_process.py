"""A long program is judged (``grading/grade.py`` ``ajudge``) in a worker process, as it was read:
judging a failed 64 KiB program tokenises and parses it (a blank left, an error explained), pure
Python that holds the GIL for tens of milliseconds (security review S7). A short one is judged
in a thread here. The judgement is the same either way, in the request's language, and a judging
the worker could not do is the platform's failure said as such."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import os

import pytest

from codeblanks import i18n
from codeblanks.content import catalog
from codeblanks.grading.grade import JUDGE_HERE_CHARS, agrade_runs, ajudge, judge
from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox import workers

grade = importlib.import_module("codeblanks.grading.grade")  # the package names a function so


def _lesson(version: str):
    lesson = catalog().lesson("batches-and-einsum")
    if lesson is None:
        pytest.fail("the built-in lesson batches-and-einsum does not load")
    return dataclasses.replace(lesson, version=version)


def long_failing(solution: str, tail: str = "print(____)\n") -> str:
    """The solution, tiny statements past ``JUDGE_HERE_CHARS``, then ``tail`` (which fails)."""
    filler = "".join(f"p{i} = {i}\n" for i in range(JUDGE_HERE_CHARS // 6))
    return solution + filler + tail


def _judged_both_ways(lesson, code, sandbox, language="en"):
    runs, ref, missing = asyncio.run(agrade_runs(lesson, code, sandbox))
    with i18n.language(language):
        here = judge(lesson, code, runs, ref.trusted(), missing)
        there = asyncio.run(ajudge(lesson, code, runs, ref.trusted(), missing))
    return here, there


@pytest.mark.parametrize("language", ["en", "tr"])
def test_a_long_program_is_judged_in_the_worker_as_here(sandbox, language):
    lesson = _lesson("").in_language(language)
    code = long_failing(lesson.exercise.solution)
    assert len(code) > JUDGE_HERE_CHARS
    here, there = _judged_both_ways(lesson, code, sandbox, language)
    assert there == here
    assert there.verdict == Verdict.ERROR and "____" in there.feedback[0], there.feedback
    blank_line = code.count("\n")  # the last line's number
    assert there.line == blank_line


def test_a_long_program_is_not_judged_in_this_process(sandbox, monkeypatch):
    lesson = _lesson("")
    code = long_failing(lesson.exercise.solution, "print(totl)\n")
    runs, ref, missing = asyncio.run(agrade_runs(lesson, code, sandbox))
    judged_here = []
    monkeypatch.setattr(grade, "judge", lambda *a: judged_here.append(a))  # not the worker's
    g = asyncio.run(ajudge(lesson, code, runs, ref.trusted(), missing))
    assert not judged_here and g.verdict == Verdict.ERROR and g.line == code.count("\n")
    # ... a short one is
    short = lesson.exercise.solution + "print(totl)\n"
    runs, ref, missing = asyncio.run(agrade_runs(lesson, short, sandbox))
    asyncio.run(ajudge(lesson, short, runs, ref.trusted(), missing))
    assert len(judged_here) == 1


def test_a_judging_past_its_time_is_a_platform_error_and_the_pool_is_renewed(sandbox, monkeypatch):
    lesson = _lesson("judge-timeout")
    code = long_failing(lesson.exercise.solution)
    before = workers.pool()
    monkeypatch.setattr(grade, "JUDGE_S", 0.0)  # no judging is ever done at once
    g = grade.grade(lesson, code, sandbox)
    assert g.verdict == Verdict.SANDBOX_ERROR and g.feedback and "try again" in g.feedback[0]
    assert g.cases  # the runs it could not judge are named
    monkeypatch.undo()
    assert workers.pool() is not before
    assert grade.grade(lesson, code, sandbox).verdict == Verdict.ERROR


def test_the_worker_is_another_process():
    assert workers.pool().submit(os.getpid).result() != os.getpid()
