"""Every verdict reads as words; limits are explained with the lesson's own numbers."""

import pytest

from codeblanks.grading import Grade
from codeblanks.learning.present import present
from codeblanks.sandbox import VERDICTS
from codeblanks.sandbox.result import RunLimits


@pytest.mark.parametrize("verdict", [v for v in VERDICTS if v != "ok"] + ["correct", "incorrect"])
def test_every_verdict_has_a_title_and_words(verdict):
    view = present(Grade(verdict, "", "", "a\nb\n"), RunLimits())
    assert view.title and view.detail and view.title != verdict


def test_limits_use_the_lessons_numbers():
    lesson = RunLimits(wall_s=2.5, cpu_s=0.5, memory_mb=300)  # a lesson's, as limits_for gives
    # which limit stopped it is not known here: both are named
    detail = present(Grade("timeout", "", "", ""), lesson).detail
    assert "more than 0.5 s of CPU time or ran longer than 2.5 s" in detail
    assert "300 MB" in present(Grade("memory-limit", "", "", ""), lesson).detail


def test_a_timeout_says_the_graders_sentence_once():
    """The grader's sentence names the limit that stopped the run; the page says it once."""
    said = "Your program ran out of time (it used more than 2 s of CPU time, the limit): ..."
    view = present(Grade("timeout", "", "", "", feedback=(said,)), RunLimits())
    assert view.detail == said and view.feedback == []


def test_correct_counts_the_hidden_cases():
    grade = Grade("correct", "a\nb\n", "", "a\nb\n", cases=("visible", "five tokens", "wide"))
    assert "all 3 sets of inputs" in present(grade, RunLimits()).detail


def test_a_hidden_case_is_named_when_it_fails():
    grade = Grade("incorrect", "x", "", "y", case="five tokens", diff=("-y", "+x"))
    view = present(grade, RunLimits())
    assert "five tokens" in view.detail
    assert [(r.kind, r.text) for r in view.diff] == [("expected", "y"), ("got", "x")]


def test_right_output_but_wrong_values_does_not_claim_a_diff():
    grade = Grade("incorrect", "a\n", "", "a\n", feedback=("`A` has the wrong values",))
    view = present(grade, RunLimits())
    assert view.diff == [] and "differ" not in view.detail
    assert "computes is not right" in view.detail
    assert view.feedback == ["`A` has the wrong values"]


def test_feedback_does_not_repeat_the_headline():
    grade = Grade("error", "", "", "a\n", feedback=("Your program stopped with an error.", "why"))
    assert present(grade, RunLimits()).feedback == ["why"]


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_right_printout_with_a_wrong_value_is_said_once(lang):
    """The learner trial's F9: the heading's sentence and the grader's first said the same."""
    from codeblanks import i18n
    from codeblanks.grading.grade import printed_right

    with i18n.language(lang):
        said = printed_right()
        grade = Grade("incorrect", "a\n", "", "a\n", feedback=(said, "`A` has the wrong values"))
        view = present(grade, RunLimits())
    assert view.detail == said and view.feedback == ["`A` has the wrong values"]
    assert (lang == "tr") == ("output is right" not in said)
    nudged = Grade("incorrect", "a\n", "", "a\n", feedback=("Does every row sum to 1?", said, "x"))
    with i18n.language(lang):
        view = present(nudged, RunLimits())
    assert view.detail == said and view.feedback == ["Does every row sum to 1?", "x"]


def test_the_turkish_words_keep_one_informal_voice():
    """The learner trial's F13: the error verdict's formal "görün", the pictures' heading."""
    from codeblanks import i18n

    with i18n.language("tr"):
        detail = present(Grade("error", "", "", "a\n"), RunLimits()).detail
        heading = i18n.gettext("Your arrays as pictures")
    assert detail.endswith("aşağıda gör.") and heading == "Dizilerin, resim olarak"
