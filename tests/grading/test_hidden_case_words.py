"""A failing hidden case is told in words (the learner trial's F7): its name, and what each of
its inputs holds, read from the values the case really builds (through the real sandbox); its
set-up code travels beside the words, never in them."""

from __future__ import annotations

import numpy as np
import pytest

from codeblanks import i18n
from codeblanks.content import catalog
from codeblanks.grading import grade
from codeblanks.grading.grade import case_intro
from codeblanks.grading.inputs import describe_value
from codeblanks.grading.reference import Reference
from codeblanks.sandbox.inside.lessontest import dumps

TEN = "ten tokens with four features, a sentence of seven"
TEN_SETUP = (
    "E = np.random.default_rng(21).integers(-5, 6, size=(10, 4))\n"
    "ids = np.random.default_rng(22).integers(0, 10, size=7)"
)


def _lesson(lesson_id: str, language: str = "en"):
    lesson = catalog().in_language(language).lesson(lesson_id)
    if lesson is None:
        pytest.fail(f"the built-in lesson {lesson_id} does not load")
    return lesson


def _counted_by_hand(lesson) -> str:
    """The trial's program: right on the visible five tokens, `X[3:]` wrong on seven."""
    mistake = next(m for m in lesson.exercise.grading.mistakes if "counted" in str(m.path))
    return mistake.code


def test_a_failing_hidden_case_is_named_and_its_inputs_described_in_words(sandbox):
    lesson = _lesson("arrays-and-shapes")
    g = grade(lesson, _counted_by_hand(lesson), sandbox)
    assert g.verdict == "incorrect" and g.case == TEN, (g.verdict, g.case)
    (intro,) = [f for f in g.feedback if "hidden case" in f]
    assert f"“{TEN}”" in intro
    assert "`E`: a 10×4 array of whole numbers" in intro, intro
    assert "`ids`: an array of 7 whole numbers" in intro, intro
    # the code is not in the words, but beside them
    for sentence in g.feedback:
        assert "default_rng" not in sentence and "np." not in sentence, sentence
    assert g.setup == TEN_SETUP
    assert g.to_json()["setup"] == TEN_SETUP


def test_the_words_follow_the_language(sandbox):
    lesson = _lesson("arrays-and-shapes", "tr")
    with i18n.language("tr"):
        g = grade(lesson, _counted_by_hand(lesson), sandbox)
    assert g.verdict == "incorrect" and g.case and g.case != "visible"
    (intro,) = [f for f in g.feedback if "gizli" in f]
    assert "`E`: 10×4 boyutlu bir tam sayı dizisi" in intro, intro
    assert "`ids`: 7 tam sayı içeren bir dizi" in intro, intro
    assert "default_rng" not in " ".join(g.feedback)
    assert "default_rng(21)" in g.setup


def test_an_input_is_described_as_the_case_gave_it_not_as_the_program_left_it(sandbox):
    # The solution counts n down to 1; the case gave it 27, and that is what the learner reads.
    lesson = _lesson("py-while-loops")
    rounds = next(m for m in lesson.exercise.grading.mistakes if "rounds" in str(m.path))
    g = grade(lesson, rounds.code, sandbox)
    assert g.case == "a long way down from 27", (g.verdict, g.case, g.feedback)
    assert any("(`n`: the number 27)" in f for f in g.feedback), g.feedback
    assert g.setup == "n = 27"


def test_a_passing_program_carries_no_setup(sandbox):
    lesson = _lesson("arrays-and-shapes")
    g = grade(lesson, lesson.exercise.solution, sandbox)
    assert g.correct and g.setup == "" and g.to_json()["setup"] is None


def test_without_the_values_the_case_is_named_and_its_code_still_kept_out():
    lesson = _lesson("arrays-and-shapes")
    unknown = Reference(expected={}, solution={}, mistakes=())
    intro = case_intro(lesson, TEN, unknown)
    assert intro.endswith(f"hidden case “{TEN}”.") and "default_rng" not in intro


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (np.zeros((2, 3, 4)), "a 2×3×4 array of decimal numbers"),
        (np.zeros((8, 8)), "an 8×8 array of decimal numbers"),
        (np.zeros((11, 2), dtype=np.int8), "an 11×2 array of whole numbers"),
        (np.zeros((1, 8)), "a 1×8 array of decimal numbers"),
        (np.array([True, False]), "an array of 2 true/false values"),
        (np.array([5]), "an array of 1 whole number"),
        (np.array(3), "the number 3"),
        (np.array(0.1 + 0.2), "a decimal number"),  # 0.30000000000000004: too long to quote
        (np.array(True), "the value True"),
        (dumps("Işık ılık"), "a string of 9 characters"),
        (dumps([1, 2, 3]), "a list of 3 items"),
        (dumps([]), "an empty list"),
        (dumps(""), "an empty string"),
        (dumps([("Zoe", 9)]), "a list of 1 item"),
        (dumps({"a": 1, "b": 2}), "a dictionary of 2 entries"),
        # no words for a kind a literal cannot write: left out
        ('{"$":"object","t":"Box","r":"<Box object at 0x7f>"}', None),
        ("[1, 2, ", None),  # no JSON that lessontest writes
    ],
)
def test_each_kind_of_value_in_words(value, words):
    assert describe_value(value) == words
