"""Fill-in-the-blank answers judged by running them in the sandbox (value mode), or by text."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from codeblanks.content.model import BlankQuestion, BlankVariant
from codeblanks.grading import acheck_blank, check_blank

from .grading_helpers import blank


def _question(lesson, qid: str) -> BlankQuestion:
    (q,) = [q for q in lesson.questions if q.id == qid]
    return q


def _undefended(lesson, qid: str) -> BlankQuestion:
    """The question as the issue found it: no `forbid`, no variants (the course has both now)."""
    return dataclasses.replace(_question(lesson, qid), forbid=(), variants=())


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


# Blanks that cannot be gamed: the misjudgements of the built-in scaled-dot-product
# questions, closed with `forbid` and blank variants, through the real sandbox.
WIDER = BlankVariant(
    "keys of width 9",
    "import numpy as np\nQ = np.ones((2, 9))\nK = np.arange(27.0).reshape(3, 9)\n"
    "d_k = K.shape[1]\n",
)


@pytest.fixture(scope="module")
def scaled():
    from codeblanks.content import catalog

    lesson = catalog().lesson("scaled-dot-product")
    assert lesson is not None
    return lesson


def test_key_width_accepts_the_width_typed_in_without_a_defence(scaled):
    q = _undefended(scaled, "key-width")
    assert check_blank(scaled, q, "4").correct  # the misjudgement the issue reports


@pytest.mark.parametrize("typed", ["4", "4.0", "0x4", "(4)"])
def test_forbid_refuses_the_literal_however_it_is_written(scaled, typed):
    q = dataclasses.replace(_undefended(scaled, "key-width"), forbid=("4",))
    v = check_blank(scaled, q, typed)
    assert not v.correct
    assert v.message.startswith("Your answer uses `4`, which this question rules out")


@pytest.mark.parametrize("answer", ["K.shape[1]", "K.shape[-1]", "Q.shape[1]", "len(K[0])"])
def test_forbid_keeps_every_computed_answer(scaled, answer):
    q = dataclasses.replace(_undefended(scaled, "key-width"), forbid=("4",))
    assert check_blank(scaled, q, answer).correct


@pytest.mark.parametrize("answer", ["2", "2.0", "d_k**1/2", "d_k / 2"])
def test_a_blank_variant_fails_the_hard_coded_and_the_near_miss(scaled, answer):
    q = dataclasses.replace(_undefended(scaled, "scale-line"), variants=(WIDER,))
    v = check_blank(scaled, q, answer)
    assert not v.correct, answer
    assert v.message.startswith("With other values (“keys of width 9”), that gives a different")


@pytest.mark.parametrize("answer", ["np.sqrt(d_k)", "d_k ** 0.5", "np.sqrt(K.shape[1])"])
def test_a_blank_variant_keeps_every_right_answer(scaled, answer):
    q = dataclasses.replace(_undefended(scaled, "scale-line"), variants=(WIDER,))
    v = check_blank(scaled, q, answer)
    assert v.correct, v.message


def test_check_warns_when_a_value_blank_accepts_its_literal(scaled, sandbox):
    from codeblanks.grading.blanks import literal_that_passes
    from codeblanks.grading.grade import run_sync

    def literal(q):
        return run_sync(literal_that_passes(scaled, q, sandbox))

    key_width, scale = _undefended(scaled, "key-width"), _undefended(scaled, "scale-line")
    assert literal(key_width) == "4"
    assert literal(scale) == "2.0"
    assert literal(dataclasses.replace(key_width, forbid=("4",))) is None
    assert literal(dataclasses.replace(scale, variants=(WIDER,))) is None
    assert literal(blank("total = ____", "-1")) is None  # the answer is a literal itself
