"""A grade's verdict is a ``Verdict`` member from the grader to every door, and the same word as
before wherever it leaves as text: JSON, the database, a template."""

from __future__ import annotations

import json

import pytest

from codeblanks.grading import Grade, grade
from codeblanks.grading.blanks import BlankVerdict, check_blank
from codeblanks.grading.verdicts import Verdict, platform_failed
from codeblanks.sandbox.result import BUSY, OK, SANDBOX_ERROR, TIMEOUT, RunResult

from .grading_helpers import blank


def test_a_real_grade_carries_a_member_and_sends_its_word(softmax_lesson):
    right = grade(softmax_lesson, softmax_lesson.exercise.solution)
    wrong = grade(softmax_lesson, softmax_lesson.exercise.starter)
    assert right.verdict is Verdict.CORRECT and wrong.verdict is Verdict.INCORRECT
    sent = json.loads(json.dumps(wrong.to_json()))
    assert sent["verdict"] == "incorrect" and type(wrong.to_json()["verdict"]) is str
    assert f"{wrong.verdict}" == str(wrong.verdict) == "incorrect"  # a template's {{ }}


def test_a_run_that_failed_is_named_by_its_member(softmax_lesson):
    looping = "while True:\n    pass\n"
    g = grade(softmax_lesson, looping)
    assert g.verdict is Verdict.TIMEOUT and not g.verdict.platform


def test_a_word_becomes_its_member_once_and_a_wrong_word_is_refused():
    assert Grade("error", "", "", "").verdict is Verdict.ERROR  # a stored row's word
    with pytest.raises(ValueError, match="'corect'"):
        Grade("corect", "", "", "")


def test_a_blank_verdict_is_a_member_that_agrees_with_correct(softmax_lesson):
    question = blank("P = ____", "np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)")
    judged = check_blank(softmax_lesson, question, "np.exp(S) / np.exp(S).sum(1, keepdims=True)")
    assert judged.correct and judged.verdict is Verdict.CORRECT
    assert judged.to_json()["verdict"] == "correct"
    assert BlankVerdict(False, "no").verdict is Verdict.INCORRECT
    with pytest.raises(ValueError, match="correct=True"):
        BlankVerdict(True, "yes")  # the default would call a right answer wrong


def test_the_platform_is_asked_of_the_member_not_of_a_list():
    assert platform_failed(RunResult(BUSY)) and platform_failed(RunResult(SANDBOX_ERROR))
    assert not platform_failed(RunResult(TIMEOUT)) and not platform_failed(RunResult(OK))
    assert {v for v in Verdict if v.platform} == {Verdict.BUSY, Verdict.SANDBOX_ERROR}
