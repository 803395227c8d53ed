"""The "fill in the line" review card drawn from a solved lesson's solution, and judged
as the lesson's blank questions are (grading/blanks.py, the real sandbox)."""

from __future__ import annotations

import dataclasses

import pytest

from codeblanks import i18n
from codeblanks.content.catalog import catalog
from codeblanks.content.model import BLANK, Lesson
from codeblanks.grading import check_blank
from codeblanks.learning.linecards import LINE_ID, card_question, line_card
from codeblanks.sandbox import get_sandbox


def _lesson(lesson_id: str, language: str = "en") -> Lesson:
    found = catalog().lesson(lesson_id)
    assert found is not None
    return found.in_language(language)


def test_the_line_is_one_the_starter_left_blank_with_its_right_hand_side_blanked():
    lesson = _lesson("arrays-and-shapes")
    card = line_card(lesson)
    assert card is not None and card.id == LINE_ID and card.check == "value"
    assert card.code.count(BLANK) == 1 and card.code.split(" = ")[0] in {"X", "feature", "last_two"}
    assert card.code.replace(BLANK, card.answer) in lesson.exercise.solution
    assert "#" not in card.code  # the comment is a clue in the prompt, not code
    assert line_card(lesson) == card  # the same card every time


def test_a_line_inside_a_function_is_judged_by_its_text():
    card = line_card(_lesson("py-functions"))
    assert card is not None and card.check == "exact" and card.answer in card.explanation


def test_the_card_follows_the_lessons_language():
    with i18n.language("tr"):
        card = line_card(_lesson("py-functions", "tr"))
    assert card is not None and "harfler" in card.code and "satırı tamamla" in card.prompt


def test_a_program_without_a_line_worth_asking_has_no_card():
    lesson = _lesson("arrays-and-shapes")
    plain = "n = 3\nname = n\nprint(n, name)\n"  # a literal and a bare name: nothing to recall
    exercise = dataclasses.replace(lesson.exercise, solution=plain)
    bare = dataclasses.replace(lesson, exercise=exercise)
    assert line_card(bare) is None and card_question(bare, LINE_ID) is None
    own = lesson.questions[0]
    assert card_question(lesson, own.id) == own and card_question(lesson, "no-such") is None


@pytest.mark.parametrize(
    ("answer", "right"),
    [("X[:, 1]", True), ("E[ids][:, 1]", True), ("X[:, 1:2]", False), ("X[1]", False),
     ("x[:, 1]", False)],
)  # fmt: skip
def test_the_card_is_judged_by_value_in_the_real_sandbox(answer, right):
    lesson = _lesson("arrays-and-shapes")
    card = line_card(lesson)
    assert card is not None and card.answer == "X[:, 1]"
    verdict = check_blank(lesson, card, answer, get_sandbox())
    assert verdict.correct is right, verdict.message
    if not right:
        assert verdict.explanation == card.explanation and "X[:, 1]" in card.explanation
