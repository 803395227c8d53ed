"""Function exercises through the real sandbox: tests.py runs after the learner's code, its
values are judged in the grader's process, and feedback names the test and its input."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from codeblanks.content import load_courses
from codeblanks.grading import grade, prove
from codeblanks.grading.functests import outcomes, with_tests

from .grading_helpers import make_lesson

NO_MASK = "Mask the later tokens: row i may only weigh tokens 0..i."


@pytest.fixture(scope="module")
def lesson():
    return make_lesson("causal-softmax", messages={"no-mask.py": NO_MASK, "in-place.py": "Copy."})


@pytest.fixture(scope="module")
def bare():
    """The same exercise with no anticipated mistakes: the tests' own feedback shows."""
    return make_lesson("causal-softmax", lesson_id="causal-softmax-bare")


def _with_body(lesson, body: str) -> str:
    start = lesson.exercise.solution.index("    scores = np.asarray")
    end = lesson.exercise.solution.index("\n\n\nS = ")
    return lesson.exercise.solution[:start] + body + lesson.exercise.solution[end:]


def test_the_solution_passes_every_test(lesson, sandbox):
    g = grade(lesson, lesson.exercise.solution, sandbox)
    assert g.correct, g.feedback
    run = sandbox.run(with_tests(lesson, lesson.exercise.solution), capture=("__tests__",))
    assert [(o.name, o.status) for o in outcomes(run)] == [
        ("the scores of the task", "passed"),
        ("one token", "passed"),
        ("leaves its argument unchanged", "passed"),
        ("a batch of two sequences", "passed"),
        ("large scores", "passed"),
        ("refuses scores that are not square", "passed"),
    ]
    assert run.stdout == lesson.exercise.expected_output  # the tests print nothing


def test_another_correct_program_passes(bare, sandbox):
    code = _with_body(
        bare,
        "    scores = np.array(scores, dtype=float)\n"
        "    if scores.ndim < 2 or scores.shape[-2] != scores.shape[-1]:\n"
        "        raise ValueError('square scores, please')\n"
        "    n = scores.shape[-1]\n"
        "    out = np.zeros_like(scores)\n"
        "    for i in range(n):\n"
        "        row = scores[..., i, : i + 1]\n"
        "        e = np.exp(row - row.max(axis=-1, keepdims=True))\n"
        "        out[..., i, : i + 1] = e / e.sum(axis=-1, keepdims=True)\n"
        "    return out",
    )
    g = grade(bare, code, sandbox)
    assert g.correct, g.feedback


def test_a_hidden_test_is_named_with_its_input_never_its_code(bare, sandbox):
    # Right on one sequence, wrong on a batch: the mask is built from the first axis.
    code = _with_body(
        bare,
        "    scores = np.asarray(scores, dtype=float)\n"
        "    if scores.ndim < 2 or scores.shape[-1] != scores.shape[-2]:\n"
        "        raise ValueError('not square')\n"
        "    n = scores.shape[0]\n"
        "    masked = np.where(np.triu(np.ones((n, n), dtype=bool), k=1), -np.inf, scores)\n"
        "    w = np.exp(masked - masked.max(axis=-1, keepdims=True))\n"
        "    return w / w.sum(axis=-1, keepdims=True)",
    )
    g = grade(bare, code, sandbox)
    assert g.verdict == "incorrect" and g.case == "visible"
    count, message = g.feedback
    assert count == "1 of 6 tests fails:"
    assert message.startswith("The hidden test “a batch of two sequences” ")
    assert "`causal_softmax(np.array([[[0.0, 0.25, 0.5], [0.75," in message  # its input
    assert "np.arange" not in message and "def batch" not in message  # never the test's code


def test_a_property_test_says_what_does_not_hold(bare, sandbox):
    code = (bare.path / "mistakes" / "in-place.py").read_text()
    g = grade(bare, code, sandbox)
    assert g.verdict == "incorrect"
    assert g.feedback == (
        "1 of 6 tests fails:",
        "The test “leaves its argument unchanged” fails: the function changed its argument in "
        "place; compute a new value instead. It called `causal_softmax(np.array([[0.0, 1.0, 2.0], "
        "[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]))`.",
    )


def test_raises_fails_when_nothing_is_raised(bare, sandbox):
    code = _with_body(
        bare,
        "    later = np.triu(np.ones(scores.shape[-2:], dtype=bool), k=1)\n"
        "    masked = np.where(later, -np.inf, scores)\n"
        "    w = np.exp(masked - masked.max(axis=-1, keepdims=True))\n"
        "    return w / w.sum(axis=-1, keepdims=True)",
    )
    g = grade(bare, code, sandbox)
    assert g.feedback == (
        "1 of 6 tests fails:",
        "The hidden test “refuses scores that are not square” fails: expected ValueError, but "
        "nothing was raised. It called "
        "`causal_softmax(np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]))`.",
    )


def test_an_error_in_the_learners_function_names_the_test_and_the_line(bare, sandbox):
    # Right on every test but the one-token case, where it fails on line 6.
    body = _with_body(bare, "    if scores.shape == (1, 1):\n        return scores.nope\n")
    body = body.replace(
        "        return scores.nope\n",
        "        return scores.nope\n"
        + (bare.exercise.solution.split('    """Row i')[1].split("\n", 1)[1].split("\n\n\nS =")[0]),
    )
    g = grade(bare, body, sandbox)
    _count, message = g.feedback
    assert message == (
        "The test “one token” stopped with AttributeError: 'numpy.ndarray' object has no "
        "attribute 'nope' (line 7 of your file). It called `causal_softmax(np.array([[5.0]]))`."
    )


def test_a_function_that_returns_nothing_is_told_so(bare, sandbox):
    code = _with_body(bare, "    print('working on it')")
    code = code.replace("print(np.round(causal_softmax(S), 3))", "print(np.round(S * 0, 3))")
    g = grade(bare, code, sandbox)
    assert "The test “the scores of the task” gets a wrong result: it returned nothing" in (
        " ".join(g.feedback)
    )


def test_an_anticipated_mistake_is_matched_on_the_tests_too(lesson, sandbox):
    code = (lesson.path / "mistakes" / "no-mask.py").read_text().replace("weights", "w")
    g = grade(lesson, code, sandbox)
    assert g.verdict == "incorrect" and g.feedback[0] == NO_MASK


def test_a_program_that_stops_the_tests_is_not_correct(bare, sandbox):
    code = bare.exercise.solution + "import lessontest\nlessontest.run = lambda *a: None\n"
    g = grade(bare, code, sandbox)
    assert g.verdict == "incorrect"
    assert g.feedback[0].startswith("The tests could not run after your program")


FUNCTION_COURSE = Path(__file__).parents[1] / "content" / "fixtures" / "function"


def test_the_documented_function_exercise_is_proven(sandbox):
    (course,), problems = load_courses([FUNCTION_COURSE])
    assert problems == []
    (lesson,) = course.lessons
    assert [t.name for t in lesson.exercise.tests.tests if t.hidden] == [
        "integers",
        "many rows",
        "a row of zeros is refused",
    ]
    # its hidden tests catch no declared mistake the visible tests miss: warnings (W010) only
    problems = prove(lesson, sandbox)
    assert [str(p) for p in problems if not p.warning] == []
    assert {p.code for p in problems} <= {"grading.W010"}


def test_a_test_the_solution_fails_is_a_problem(lesson, sandbox):
    suite = lesson.exercise.tests
    broken = suite.source.replace("np.ones((2, 3))", "np.ones((3, 3))")
    changed = dataclasses.replace(suite, source=broken)
    lesson = dataclasses.replace(
        lesson, exercise=dataclasses.replace(lesson.exercise, tests=changed), version=""
    )
    found = [p for p in prove(lesson, sandbox) if p.code == "grading.E011"]
    assert [p.message for p in found] == [
        "the test “refuses scores that are not square” fails against the solution: expected "
        "ValueError, but nothing was raised"
    ]
