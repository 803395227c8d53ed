"""Feedback that is true (issue 26, item 5), graded through the real sandbox: error lines are the
learner's own on every case, ratios and the transposed hint only where the values show them,
float32 round-off named as such, values of every kind described in words that fit them, and a
mistake's nudge only for a program that behaves as that mistake does."""

from __future__ import annotations

import pytest

from codeblanks.content import catalog
from codeblanks.grading import grade


def _text(g) -> str:
    return "\n".join(g.feedback)


@pytest.fixture(scope="module")
def einsum():
    """A real lesson whose inputs `X` and `W` are each written over six lines."""
    return catalog().lesson("batches-and-einsum")


def test_an_error_on_a_hidden_case_names_the_learners_own_line(einsum):
    sol = einsum.exercise.solution
    wrong = "S = X.reshape(2, 3, 4) @ X.reshape(2, 3, 4).swapaxes(1, 2)"
    code = sol.replace("S = X @ X.swapaxes(1, 2)", wrong)
    assert code != sol
    line = code.splitlines().index(next(s for s in code.splitlines() if s.startswith(wrong))) + 1
    g = grade(einsum, code)
    assert g.verdict == "error" and g.case != "visible"  # the visible data has that shape
    assert g.line == line
    assert f"Error at batch.py, line {line}: `{wrong}" in _text(g)


def test_an_error_after_a_multi_line_input_on_the_visible_case_too(einsum):
    code = einsum.exercise.solution.replace("print(S.shape, Y.shape)", "print(S.shape, Y.shpe)")
    line = next(i for i, s in enumerate(code.splitlines(), 1) if "Y.shpe" in s)
    g = grade(einsum, code)
    assert g.verdict == "error" and g.case == "visible" and g.line == line
