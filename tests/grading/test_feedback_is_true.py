"""Feedback that is true where it fires: every misjudgement once reported, graded
through the real sandbox, and for each heuristic a case where it fires and one where it must stay
silent."""

from __future__ import annotations

import dataclasses

import pytest

from codeblanks.content import catalog
from codeblanks.content.model import Mistake
from codeblanks.content.pysource import blank_lines
from codeblanks.grading import grade

from .grading_helpers import AXIS_0, make_lesson, with_grading

PRINTED_RIGHT = "Your printed output is right, but it does not show everything the task checks"


@pytest.fixture(scope="module")
def qkv():
    return catalog().lesson("query-key-value")


def _sol(lesson, old: str, new: str) -> str:
    assert old in lesson.exercise.solution
    return lesson.exercise.solution.replace(old, new)


def _text(g) -> str:
    return "\n".join(g.feedback)


def test_swapped_projections_get_no_softmax_hint_for_keys(qkv):
    code = _sol(qkv, "Q = X @ W_q", "Q = X @ W_k").replace("K = X @ W_k", "K = X @ W_q")
    g = grade(qkv, code)
    assert g.verdict == "incorrect"
    assert "should sum to 1" not in _text(g) and "softmax" not in _text(g)
    assert any(
        f.startswith("`K` has shape (3, 2), good; but its values differ") for f in g.feedback
    )


def test_a_debug_label_is_not_taken_for_hard_coding(qkv):
    g = grade(qkv, _sol(qkv, "print(Q.shape", 'print("scores:")\nprint(Q.shape'))
    assert g.verdict == "incorrect"
    assert "stays the same whatever the data" not in _text(g)
    assert g.feedback == ("The output differs from the expected output.",)


def test_a_copied_line_of_the_expected_output_is_still_named(qkv):
    # silent for a label, but it fires for a line of the expected output printed as text
    first = qkv.exercise.expected_output.splitlines()[0]
    g = grade(qkv, _sol(qkv, "print(Q.shape, A.shape, Y.shape)", f"print({first!r})"))
    assert g.verdict == "incorrect" and g.case != "visible"
    assert g.feedback[0].startswith(f"Line 1 of your output (`{first}`) stays the same")


def test_a_value_rounded_early_gets_facts_not_a_softmax_guess(qkv):
    declared = with_grading(qkv, distributions={"A": 1})  # even where A is declared
    g = grade(declared, _sol(qkv, "Y = A @ V", "A = np.round(A, 3)\nY = A @ V"))
    assert g.verdict == "incorrect" and g.stdout == qkv.exercise.expected_output
    assert g.feedback[0].startswith(PRINTED_RIGHT)
    assert "which axis" not in _text(g)
    assert "it holds 0.1550 where 0.1554 is expected" in _text(g)


def test_the_row_sum_hint_fires_for_a_declared_distribution_when_the_output_differs(qkv):
    declared = with_grading(qkv, distributions={"A": 1}, mistakes=())
    code = _sol(qkv, "A = softmax(scores, axis=1)", "A = softmax(scores, axis=0)")
    code = code.replace("print(np.round(A[0], 3))", "print(np.round(A, 3))")
    g = grade(declared, code)
    assert g.verdict == "incorrect"
    assert any("its rows should sum to 1 and row" in f and "which axis" in f for f in g.feedback)
    undeclared = with_grading(qkv, mistakes=())
    told = _text(grade(undeclared, code))
    assert "which axis" not in told and "should sum to 1" not in told
    assert "in the expected result each row sums to 1 and in yours each column does" in told


def test_float32_arithmetic_of_the_right_values_passes(qkv):
    code = _sol(
        qkv,
        "Q = X @ W_q",
        "X, W_q, W_k, W_v = (m.astype(np.float32) for m in (X, W_q, W_k, W_v))\nQ = X @ W_q",
    )
    g = grade(qkv, code)
    assert g.correct, g.feedback
    strict = with_grading(qkv, exact_dtype=True)
    g = grade(strict, code)
    assert g.verdict == "incorrect"
    assert "holds float32 values, but float64 values are expected" in _text(g)
    assert "0.3629 where 0.3629" not in _text(g)


def test_the_same_numbers_in_another_format_are_named_so_or_accepted(qkv):
    code = _sol(qkv, "print(np.round(A[0], 3))", "print(np.round(A[0], 3).tolist())")
    g = grade(qkv, code)
    assert g.verdict == "incorrect"
    assert g.feedback[0].startswith("Your output has the right numbers, but printed in another")
    g = grade(with_grading(qkv, output="numbers"), code)
    assert g.correct, g.feedback


def test_a_float_printed_as_2_dot_passes_in_numbers_mode(softmax_lesson):
    lesson = with_grading(softmax_lesson, output="numbers")
    # a float loop printing `[2. 3.]` where the solution's integers print `[2 3]`
    code = softmax_lesson.exercise.solution.replace(
        "print(np.round(P, 3))", "print(np.round(P, 3))\nprint(np.array([2.0, 3.0]))"
    )
    expected = softmax_lesson.exercise.expected_output + "[2 3]\n"
    solution = code.replace("[2.0, 3.0]", "[2, 3]")
    lesson = dataclasses.replace(
        lesson,
        exercise=dataclasses.replace(lesson.exercise, expected_output=expected, solution=solution),
    )
    assert grade(lesson, code).correct
    exact = with_grading(lesson, output="exact")
    assert grade(exact, code).feedback[0].startswith("Your output has the right numbers")


def test_the_unchanged_starter_is_told_to_fill_in_the_blank(sandbox):
    lesson = catalog().lesson("stable-softmax")
    starter = lesson.exercise.starter
    line = blank_lines(starter, "____")[0]  # the first blank is the one named
    g = grade(lesson, starter, sandbox)
    assert g.verdict == "error" and g.line == line
    assert g.feedback == (f"Fill in the blank (`____`) on line {line}: replace it with your code.",)
    assert "__doc__" not in _text(g)


def test_a_blank_in_a_comment_or_string_is_not_a_blank(softmax_lesson):
    code = softmax_lesson.exercise.solution + "# ____ was here\nprint('____'[:0], end='')\n"
    assert grade(softmax_lesson, code).correct


def test_a_nudge_comes_first_and_the_explanation_is_held_back():
    nudge = "Add up one row of P: what do you get?"
    base = make_lesson("softmax-rows", lesson_id="softmax-nudge", values=("P",))
    path = base.path / "mistakes" / "axis-0.py"
    lesson = with_grading(base, mistakes=(Mistake(path, path.read_text(), AXIS_0, nudge),))
    g = grade(lesson, path.read_text().replace("P =", "P  ="))
    assert g.verdict == "incorrect"
    assert g.feedback[0] == nudge and AXIS_0 not in g.feedback
    assert (g.mistake, g.more) == ("mistakes/axis-0.py", AXIS_0)
    plain = with_grading(base, mistakes=(Mistake(path, path.read_text(), AXIS_0),))
    g = grade(plain, path.read_text())
    assert g.feedback[0] == AXIS_0 and g.more == ""
