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


@pytest.fixture(scope="module")
def layer_norm():
    return catalog().lesson("layer-norm-residual")


def _mistake(lesson, name: str):
    return next(m for m in lesson.exercise.grading.mistakes if m.path.name == name)


# Five bugs that all stop the visible run with a ValueError, as the mistake `no-keepdims` does,
# each in another operation or with other shapes: its nudge ("What shape does your mean have?")
# is true of none of them.
FIVE_OTHER_BUGS = {
    "keepdims lost by the variance only": (
        "var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)",
        "var = ((x - mean) ** 2).mean(axis=-1)",
    ),
    "the mean transposed": (
        "mean = x.mean(axis=-1, keepdims=True)",
        "mean = x.mean(axis=-1, keepdims=True).T",
    ),
    "the variance flattened": (
        "var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)",
        "var = ((x - mean) ** 2).mean(axis=-1, keepdims=True).ravel()",
    ),
    "beta cut short": ("return gamma * x_hat + beta", "return gamma * x_hat + beta[:3]"),
    "its own check": (
        "mean = x.mean(axis=-1, keepdims=True)",
        'mean = x.mean(axis=-1, keepdims=True)\n    if x.ndim > 1:\n        raise ValueError("1-D")',
    ),
}


@pytest.mark.parametrize("bug", FIVE_OTHER_BUGS)
def test_a_mistakes_nudge_is_not_given_to_another_bug_that_fails_alike(layer_norm, bug):
    old, new = FIVE_OTHER_BUGS[bug]
    sol = layer_norm.exercise.solution
    assert old in sol
    g = grade(layer_norm, sol.replace(old, new, 1))
    assert g.verdict == "error" and g.case == "visible"
    assert g.mistake is None
    assert _mistake(layer_norm, "no-keepdims.py").nudge not in g.feedback


def test_the_mistake_and_a_program_that_behaves_as_it_does_get_its_nudge(layer_norm):
    mistake = _mistake(layer_norm, "no-keepdims.py")
    # the same bug written another way: another spelling of the mean, another layout, a comment
    same = mistake.code.replace(
        "mean = x.mean(axis=-1)", "mean = np.sum(x, axis=-1) / x.shape[-1]  # per token"
    ).replace("var = ((x - mean) ** 2).mean(axis=-1)", "var = ((x-mean)**2).mean(axis=-1)")
    assert same != mistake.code
    for code in (mistake.code, same):
        g = grade(layer_norm, code)
        assert g.verdict == "error"
        assert g.mistake == "mistakes/no-keepdims.py"
        assert g.feedback[0] == mistake.nudge
