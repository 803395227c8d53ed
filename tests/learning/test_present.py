"""Every verdict reads as words; limits are explained with the lesson's own numbers."""

import dataclasses

import pytest
from tests.web.conftest import FIRST

from codeblanks.content.model import GradingSpec, Limits
from codeblanks.grading import Grade
from codeblanks.grading.reference import limits_for
from codeblanks.learning.present import present
from codeblanks.sandbox import VERDICTS


@pytest.mark.parametrize("verdict", [v for v in VERDICTS if v != "ok"] + ["correct", "incorrect"])
def test_every_verdict_has_a_title_and_words(verdict):
    view = present(Grade(verdict, "", "", "a\nb\n"), limits_for(FIRST))
    assert view.title and view.detail and view.title != verdict


def test_limits_use_the_lessons_numbers():
    spec = GradingSpec(limits=Limits(wall_s=2.5, cpu_s=0.5, memory_mb=300))
    lesson = dataclasses.replace(FIRST, exercise=dataclasses.replace(FIRST.exercise, grading=spec))
    # which limit stopped it is not known here: both are named
    detail = present(Grade("timeout", "", "", ""), limits_for(lesson)).detail
    assert "more than 0.5 s of CPU time or ran longer than 2.5 s" in detail
    assert "300 MB" in present(Grade("memory-limit", "", "", ""), limits_for(lesson)).detail


def test_a_timeout_says_the_graders_sentence_once():
    """The grader's sentence names the limit that stopped the run; the page says it once."""
    said = "Your program ran out of time (it used more than 2 s of CPU time, the limit): ..."
    view = present(Grade("timeout", "", "", "", feedback=(said,)), limits_for(FIRST))
    assert view.detail == said and view.feedback == []


def test_correct_counts_the_hidden_cases():
    grade = Grade("correct", "a\nb\n", "", "a\nb\n", cases=("visible", "five tokens", "wide"))
    assert "all 3 sets of inputs" in present(grade, limits_for(FIRST)).detail


def test_a_hidden_case_is_named_when_it_fails():
    grade = Grade("incorrect", "x", "", "y", case="five tokens", diff=("-y", "+x"))
    view = present(grade, limits_for(FIRST))
    assert "five tokens" in view.detail
    assert [(r.kind, r.text) for r in view.diff] == [("expected", "y"), ("got", "x")]


def test_right_output_but_wrong_values_does_not_claim_a_diff():
    grade = Grade("incorrect", "a\n", "", "a\n", feedback=("`A` has the wrong values",))
    view = present(grade, limits_for(FIRST))
    assert view.diff == [] and "differ" not in view.detail
    assert "computes is not right" in view.detail
    assert view.feedback == ["`A` has the wrong values"]


def test_feedback_does_not_repeat_the_headline():
    grade = Grade("error", "", "", "a\n", feedback=("Your program stopped with an error.", "why"))
    assert present(grade, limits_for(FIRST)).feedback == ["why"]
