"""Every hidden case earns its place (``prove``, through the real sandbox): a case that refuses
nothing the visible case lets through is a warning; a case that does not do what a mistake's
``must_fail`` says it does is an error; and the learner meets the promise kept."""

from __future__ import annotations

import dataclasses

import pytest

from codeblanks.content import catalog
from codeblanks.content.model import FunctionTest, FunctionTests, Variant
from codeblanks.grading import grade, prove

from .grading_helpers import SOFTMAX_VARIANTS, make_lesson, with_grading

VISIBLE_AGAIN = Variant(
    "the visible scores again",
    {"S": "np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])"},
)
OVERFLOW = "scores above 700 (a bare np.exp overflows): five tokens of width 16"
BARE_EXP = "mistakes/bare-exp.py"


@pytest.fixture(scope="module")
def causal():
    lesson = catalog().lesson("causal-mask")
    if lesson is None:
        pytest.fail("the built-in lesson causal-mask does not load")
    return lesson


def test_a_case_that_catches_nothing_more_is_a_warning_with_its_name(softmax_lesson):
    lesson = with_grading(softmax_lesson, variants=SOFTMAX_VARIANTS + (VISIBLE_AGAIN,))
    warned = [p for p in prove(lesson) if p.code == "grading.W010"]
    assert [p.message for p in warned if "visible scores again" in p.message] == [
        "the hidden case “the visible scores again” refuses no mistake, mutant or corpus "
        "program that the visible case lets through"
    ]
    assert all(p.warning for p in warned)


def test_a_hidden_test_that_catches_nothing_more_is_a_warning():
    # A hidden twin of the visible test: the same call, so it refuses nothing more.
    lesson = make_lesson("causal-softmax", lesson_id="causal-softmax-earning")
    suite = lesson.exercise.tests
    source = suite.source + (
        '\n\n@test("the task\'s scores, hidden", hidden=True)\ndef twin():\n'
        "    return causal_softmax(np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 1.0, 1.0]]))\n"
    )
    twin = FunctionTest("the task's scores, hidden", hidden=True)
    tests = FunctionTests(source, (*suite.tests, twin))
    lesson = dataclasses.replace(
        lesson, exercise=dataclasses.replace(lesson.exercise, tests=tests), version=""
    )
    found = [p.message for p in prove(lesson) if p.code == "grading.W010"]
    assert any("“the task's scores, hidden”" in m for m in found), found


def test_the_overflow_case_proves_its_promise(causal, proved):
    problems = proved(causal)
    assert [str(p) for p in problems if not p.warning] == []
    assert not [p for p in problems if OVERFLOW in p.message]


def test_a_case_that_does_not_overflow_breaks_its_promise(causal):
    # The case as it was: scale 30, so no unmasked score exceeds 409 and nothing overflows.
    weak = tuple(
        dataclasses.replace(
            v,
            values={n: e.replace("scale=50.0", "scale=30.0") for n, e in v.values.items()},
        )
        if v.name == OVERFLOW
        else v
        for v in causal.exercise.grading.variants
    )
    assert weak != causal.exercise.grading.variants
    problems = [p for p in prove(with_grading(causal, variants=weak)) if not p.warning]
    assert [(p.code, p.path.name, p.message) for p in problems] == [
        ("grading.E003", "bare-exp.py", "this anticipated mistake is judged correct"),
        (
            "grading.E020",
            "bare-exp.py",
            f"this mistake must fail the hidden case “{OVERFLOW}”, but it passes that case",
        ),
    ]


def test_a_promise_the_visible_case_already_keeps_proves_nothing(softmax_lesson):
    (axis_0,) = softmax_lesson.exercise.grading.mistakes
    promised = dataclasses.replace(axis_0, must_fail=(SOFTMAX_VARIANTS[0].name,))
    problems = [
        p for p in prove(with_grading(softmax_lesson, mistakes=(promised,))) if not p.warning
    ]
    assert [p.code for p in problems] == ["grading.E020"]
    assert "the visible case already refuses it" in problems[0].message


def test_the_bare_exp_softmax_is_refused_on_the_overflow_case(causal, sandbox):
    solution = causal.exercise.solution
    line = "A = softmax(scores, axis=1)"
    assert line in solution
    bare = solution.replace(line, "A = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)")
    g = grade(causal, bare, sandbox)
    assert not g.correct and g.case == OVERFLOW
    assert g.mistake == BARE_EXP
    assert g.feedback[0] == "What is np.exp(1000)? Try it in a cell of your own."


@pytest.mark.parametrize(
    ("returned", "said"),
    [
        ("np.zeros(600_000)", "a value too large to hand back from the sandbox (over 4 MB)"),
        ('type("Box", (), {})()', "an object that prints as its address (<tests.Box object at 0x"),
    ],
)
def test_a_test_returning_what_cannot_be_compared_says_what_to_return(returned, said):
    lesson = make_lesson("causal-softmax", lesson_id=f"causal-softmax-returns-{len(returned)}")
    source = (
        "import numpy as np\nfrom lessontest import test\n\n\n"
        f'@test("odd")\ndef odd():\n    return {returned}\n'
    )
    tests = FunctionTests(source, (FunctionTest("odd"),))
    odd = dataclasses.replace(
        lesson, exercise=dataclasses.replace(lesson.exercise, tests=tests), version=""
    )
    (found,) = [p for p in prove(odd) if p.code == "grading.E001"]
    assert found.path.name == "tests.py"
    assert found.message.startswith(f"the test “odd” returns {said}")
    assert found.fix.startswith("return a number or a NumPy array of numbers")


def test_what_a_function_exercise_prints_without_expected_txt_decides_nothing():
    # py-files-and-with has no expected.txt: its tests grade it, and prints are shown, never
    # compared. An example call printed at the bottom of every program must not make the
    # visible case "refuse" each mistake (the solution's output was compared with an empty
    # expected.txt): the hidden tests earn their places, and the must_fail promises hold.
    lesson = catalog().lesson("py-files-and-with")
    assert not lesson.exercise.output_graded
    example = '\n\nsave_list("shopping.txt", ["milk", "eggs"])\nprint(load_list("shopping.txt"))\n'
    ex = lesson.exercise
    mistakes = tuple(dataclasses.replace(m, code=m.code + example) for m in ex.grading.mistakes)
    assert any(m.must_fail for m in mistakes)
    printing = dataclasses.replace(
        lesson,
        exercise=dataclasses.replace(
            ex,
            solution=ex.solution + example,
            grading=dataclasses.replace(ex.grading, mistakes=mistakes),
        ),
        version="",
    )
    assert [str(p) for p in prove(printing)] == []


def test_prints_of_a_function_exercise_without_expected_output_are_not_judged():
    # py-functions has no expected.txt, and its programs print two example calls: a mistake
    # that prints them too (only its tests fail) is refused by a hidden test, not by the
    # visible case's output, which nobody grades.
    lesson = catalog().lesson("py-functions")
    if lesson is None:
        pytest.fail("the built-in lesson py-functions does not load")
    assert not lesson.exercise.output_graded
    problems = [p for p in prove(lesson) if p.code in ("grading.E020", "grading.W010")]
    assert [str(p) for p in problems] == []
