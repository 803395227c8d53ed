"""Fill-in-the-blank answers judged by running them in the sandbox (value mode), or by text."""

from __future__ import annotations

import asyncio

import pytest

from codeblanks.content.model import BlankQuestion
from codeblanks.grading import acheck_blank, check_blank

from .grading_helpers import blank


def _question(lesson, qid: str) -> BlankQuestion:
    (q,) = [q for q in lesson.questions if q.id == qid]
    return q


@pytest.mark.parametrize(
    "answer", ["K.T", "K.transpose()", "np.transpose(K)", "K.swapaxes(0, 1)", " K.T "]
)
def test_every_answer_with_the_same_value_passes(qkv, answer):
    v = check_blank(qkv, _question(qkv, "scores-line"), answer)
    assert v.correct, v.message
    assert v.verdict == "correct" and v.error == ""


@pytest.mark.parametrize(
    ("answer", "message", "error"),
    [
        ("K", "That answer fails when it runs.", "ValueError: matmul"),
        ("Q.T", "That gives a different value:", ""),
        ("scores", "That answer fails when it runs.", "NameError"),  # not the setup's value
        ("K.T)", "That is not valid Python in this line.", "SyntaxError"),
        ("", "Fill in the blank first.", ""),
    ],
)
def test_wrong_answers_get_the_explanation(qkv, answer, message, error):
    q = _question(qkv, "scores-line")
    v = check_blank(qkv, q, answer)
    assert not v.correct and v.verdict == "incorrect"
    assert v.message.startswith(message), v.message
    assert v.error.startswith(error)
    assert v.explanation == q.explanation


def test_matmul_answer_shows_shapes_and_different_value_says_how(qkv):
    q = _question(qkv, "scores-line")
    v = check_blank(qkv, q, "K")
    assert "The shapes in `@` do not align" in v.message
    v = check_blank(qkv, _question(qkv, "mix-values"), "A @ X")
    assert not v.correct
    v = check_blank(qkv, _question(qkv, "mix-values"), "np.einsum('ij,jd->id', A, V)")
    assert v.correct, v.message


def test_expression_lines_and_own_setup(softmax_lesson):
    q = blank("____ * 2", "np.ones(3)", setup="import numpy as np")
    assert check_blank(softmax_lesson, q, "np.full(3, 1.0)").correct
    v = check_blank(softmax_lesson, q, "np.ones(4)")
    assert not v.correct and "shape (4,), but shape (3,)" in v.message


def test_printed_lines_are_compared_too(softmax_lesson):
    q = blank("print(____)", "'ok'", setup="")
    assert check_blank(softmax_lesson, q, '"ok"').correct
    assert not check_blank(softmax_lesson, q, "'no'").correct


def test_exact_and_regex_modes(softmax_lesson):
    q = blank("____ = 3", "answer", check="exact", accept=("reply",))
    assert check_blank(softmax_lesson, q, " answer ").correct
    assert check_blank(softmax_lesson, q, "reply").correct
    assert not check_blank(softmax_lesson, q, "Answer").correct
    r = blank("x.sum(axis=____)", r"1|-1", check="regex")
    assert check_blank(softmax_lesson, r, "-1").correct
    assert not check_blank(softmax_lesson, r, "0").correct
    assert not check_blank(softmax_lesson, r, "1 or 0").correct  # the whole text must match


def test_async(qkv):
    v = asyncio.run(acheck_blank(qkv, _question(qkv, "scores-line"), "np.transpose(K)"))
    assert v.correct and v.to_json()["correct"] is True
