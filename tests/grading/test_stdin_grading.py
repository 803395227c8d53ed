"""A lesson that gives its program input (the Python course's py-input): every case runs on its
own input, the solution is right and each anticipated mistake is told its nudge, a program that
reads past the input is told so in words, and a hidden case names the input it gave. Through
the real sandbox."""

from __future__ import annotations

import dataclasses

import pytest

from codeblanks import i18n
from codeblanks.content import catalog
from codeblanks.grading import grade
from codeblanks.grading.blanks import check_blank

MORE_INPUT = "Your program asked for more input than this case gives"


def without_mistakes(lesson):
    """The lesson with no anticipated mistake (a version of its own: its reference results are
    cached apart), so that the grader's own words show."""
    return dataclasses.replace(
        lesson,
        version=f"{lesson.version}.no-mistakes",
        exercise=dataclasses.replace(
            lesson.exercise,
            grading=dataclasses.replace(lesson.exercise.grading, mistakes=()),
        ),
    )


@pytest.fixture(scope="module")
def lesson():
    found = catalog().lesson("py-input")
    if found is None:
        pytest.fail("the built-in lesson py-input does not load")
    return found


def test_the_solution_is_right_on_every_case(lesson, sandbox):
    g = grade(lesson, lesson.exercise.solution, sandbox)
    assert g.verdict == "correct", g.feedback
    assert g.stdout == "12 + 30 = 42\n12 < 30\n"
    assert g.cases == ("visible", "9 and 10", "7 and 7")


@pytest.mark.parametrize(
    ("mistake", "case"),
    [
        ("mistakes/adding-text.py", "visible"),
        ("mistakes/float.py", "visible"),
        ("mistakes/prompt.py", "visible"),
        ("mistakes/compared-as-text.py", "9 and 10"),
        ("mistakes/no-equal.py", "7 and 7"),
    ],
)
def test_each_mistake_is_wrong_on_its_case_with_its_nudge(lesson, sandbox, mistake, case):
    (declared,) = [m for m in lesson.exercise.grading.mistakes if m.file == mistake]
    g = grade(lesson, declared.code, sandbox)
    assert g.verdict == "incorrect"
    assert g.case == case
    assert g.mistake == mistake
    assert g.feedback[0] == declared.nudge


def test_a_hidden_case_names_the_input_it_gave(lesson, sandbox):
    # compared as text, but not the declared mistake's program: the words of the case show
    code = lesson.exercise.solution.replace("a = int(a)\nb = int(b)\n", "")
    code = code.replace('print(a, "+", b, "=", a + b)', 'print(a, "+", b, "=", int(a) + int(b))')
    bare = without_mistakes(lesson)
    g = grade(bare, code, sandbox)
    assert g.verdict == "incorrect" and g.case == "9 and 10"
    assert "hidden case “9 and 10” (input '9\\n10\\n')" in g.feedback[0]


def test_reading_past_the_input_is_said_in_words(lesson, sandbox):
    code = lesson.exercise.solution.replace("b = input()\n", "b = input()\nc = input()\n")
    g = grade(lesson, code, sandbox)
    assert g.verdict == "error" and g.case == "visible"
    assert any(MORE_INPUT in sentence for sentence in g.feedback), g.feedback
    assert "EOFError" in g.stderr and g.line == 3


def test_reading_past_the_input_in_turkish(lesson, sandbox):
    code = lesson.exercise.solution.replace("b = input()\n", "b = input()\nc = input()\n")
    with i18n.language("tr"):
        g = grade(lesson.in_language("tr"), code, sandbox)
    assert any("fazla girdi istedi" in sentence for sentence in g.feedback), g.feedback


def test_a_program_that_ignores_its_input_is_told_it_prints_the_same(lesson, sandbox):
    bare = without_mistakes(lesson)
    g = grade(bare, 'print("12 + 30 = 42")\nprint("12 < 30")\n', sandbox)
    assert g.verdict == "incorrect" and g.case == "9 and 10"
    assert "computed from the given inputs (`input()`)" in g.feedback[0]


def test_a_blank_after_the_solution_reads_the_lesson_s_input(lesson, sandbox):
    # a value blank whose setup is the solution: the solution reads both lines first
    question = dataclasses.replace(
        next(q for q in lesson.questions if q.id == "read-a-number"),
        check="value",
        code="total = ____",
        answer="a + b",
    )
    assert check_blank(lesson, question, "b + a", sandbox).verdict == "correct"
    assert check_blank(lesson, question, "a * b", sandbox).verdict == "incorrect"
