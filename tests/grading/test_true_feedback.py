"""Feedback that is true, graded through the real sandbox: error lines are the
learner's own on every case, ratios and the transposed hint only where the values show them,
float32 round-off named as such, values of every kind described in words that fit them, and a
mistake's nudge only for a program that behaves as that mistake does."""

from __future__ import annotations

import pytest

from codeblanks import i18n
from codeblanks.content import catalog
from codeblanks.grading import grade

from .grading_helpers import make_lesson, with_grading


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
        "mean = x.mean(axis=-1, keepdims=True)\n"
        '    if x.ndim > 1:\n        raise ValueError("1-D")',
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


def _without_mistakes(lesson):
    """The lesson with no anticipated mistakes: what the grader itself says of a program."""
    return with_grading(lesson, mistakes=())


def test_a_layer_norm_without_eps_is_not_told_of_a_scaling_factor(layer_norm):
    # its values are 1.0000017 times the expected ones, by a factor that varies from row to row;
    # only a single token (one row, the 1-D test) is truly scaled by one factor, and is told so
    g = grade(_without_mistakes(layer_norm), _mistake(layer_norm, "no-eps.py").code)
    assert g.verdict == "incorrect"
    several_rows = [s for s in g.feedback if "1-D vector" not in s]
    assert several_rows and not any("times the expected" in s for s in several_rows)
    assert "its values differ: at index" in _text(g)
    (one_row,) = [s for s in g.feedback if "1-D vector" in s]
    assert "1.0000033 times the expected one" in one_row


def test_a_constant_factor_is_named_with_digits_that_are_true(layer_norm):
    # the sample variance (ddof=1) makes every value sqrt(3/4) = 0.8660 times the expected one
    g = grade(_without_mistakes(layer_norm), _mistake(layer_norm, "sample-variance.py").code)
    assert "every value is 0.866 times the expected one" in _text(g)


def test_a_softmax_over_the_queries_is_not_blamed_on_the_order_of_matmul_alone():
    # the lesson's scores are symmetric, so the wrong axis gives exactly the transpose: the
    # values cannot tell the two apart, and the sentence names both
    lesson = catalog().lesson("multi-head-attention")
    code = _mistake(lesson, "softmax-over-queries.py").code
    g = grade(_without_mistakes(lesson), code)
    assert g.verdict == "incorrect"
    assert "check the order of `@`" not in _text(g)
    assert (
        "`A` has shape (2, 3, 3), good; but its values are those expected, transposed, so its "
        "columns sum to 1 where the expected rows do: is it normalised along the wrong axis, or "
        "transposed (the order of `@`, a `.T`)?"
    ) in g.feedback


def test_float32_round_off_beyond_the_tolerance_is_named_so():
    lesson = make_lesson("centre-rows", values=("C",))
    code = lesson.exercise.solution.replace(
        "C = X - X.mean(axis=1, keepdims=True)",
        "X32 = X.astype(np.float32)\nC = X32 - X32.mean(axis=1, keepdims=True)",
    )
    g = grade(lesson, code)
    assert g.verdict == "incorrect" and g.stdout == lesson.exercise.expected_output
    assert (
        "`C` is right to float32 precision, but the task expects float64 precision: compute in "
        "float64 (NumPy's default; leave out `dtype=np.float32` and `.astype(np.float32)`)."
    ) in g.feedback
    # a float32 result that is wrong beyond float32's round-off is not told it is right
    wrong = code.replace("keepdims=True)", "keepdims=True) + 0.01")
    assert "float32 precision" not in _text(grade(lesson, wrong))


KINDS = ("positive", "top", "order", "label", "counts", "signs")


@pytest.fixture(scope="module")
def kinds():
    return make_lesson("kinds-of-values", values=KINDS)


@pytest.mark.parametrize(
    ("old", "new", "told"),
    [
        (
            "positive = bool((X > 0).all())",
            "positive = bool((X > 0).any())",
            "`positive` is True, but False is expected.",
        ),
        ("top = float(X.max())", "top = float(X.min())", "`top` is -1, but 5 is expected."),
        (
            "top = float(X.max())",
            "top = X[X.argmax():]",
            "`top` is an array of shape (1,), but a single number (5) is expected.",
        ),
        (
            "order = [int(i) for i in np.argsort(X)]",
            "order = [int(i) for i in np.argsort(-X)]",
            "`order` holds the right items, in the opposite order: check which way it is sorted "
            "(`reverse=True`, `[::-1]`).",
        ),
        (
            "order = [int(i) for i in np.argsort(X)]",
            "order = [int(i) for i in np.argsort(X)][1:]",
            "`order` has 3 items, but 4 are expected. The first difference: `order[0]` is 2, but 1 "
            "is expected.",
        ),
        (
            "order = [int(i) for i in np.argsort(X)]",
            "order = tuple(int(i) for i in np.argsort(X))",
            "`order` is (1, 2, 0, 3) (of type `tuple`), but [1, 2, 0, 3] (of type `list`) is "
            "expected.",
        ),
        (
            '"largest at index "',
            '"largest at\\tindex "',
            "`label` is 'largest at\\tindex 3', but 'largest at index 3' is expected.",
        ),
        (
            '"negative": int((X < 0).sum())',
            '"negative": int((X <= 0).sum()) + 1',
            "`counts['negative']` is 2, but 1 is expected.",
        ),
        (
            '"negative": int((X < 0).sum())',
            '"zero": 0',
            "`counts` lacks the key 'negative'.",
        ),
        (
            "signs = X > 0",
            "signs = X >= 3",
            "`signs` has shape (4,), good; but its values differ: at index (2,) it holds False "
            "where True is expected.",
        ),
    ],
)
def test_values_of_every_kind_are_described_in_words_that_fit(kinds, old, new, told):
    assert old in kinds.exercise.solution
    g = grade(kinds, kinds.exercise.solution.replace(old, new))
    assert g.verdict == "incorrect"
    assert told in g.feedback, g.feedback
    assert "right shape" not in _text(g)


def test_a_function_exercise_keeps_the_learners_lines_on_a_hidden_case(layer_norm):
    sol = layer_norm.exercise.solution
    one_line = "X = np.array([[1.0, 2.0, 3.0, 6.0], [10.0, 10.0, 10.0, 14.0]])"
    assert one_line in sol
    # the input written over four lines, then a size that only the visible data has
    spread = "X = np.array(\n    [[1.0, 2.0, 3.0, 6.0],\n     [10.0, 10.0, 10.0, 14.0]]\n)"
    code = sol.replace(one_line, spread + "\nX = X.reshape(2, 4)")
    line = code.splitlines().index("X = X.reshape(2, 4)") + 1
    g = grade(layer_norm, code)
    assert g.verdict == "error" and g.case != "visible"
    assert g.line == line
    assert f"Error at layer_norm.py, line {line}: `X = X.reshape(2, 4)`." in g.feedback


def test_failing_the_same_tests_for_another_reason_is_another_mistake(layer_norm):
    mistake = _mistake(layer_norm, "axis-1.py")  # its 1-D test stops with an AxisError
    assert grade(layer_norm, mistake.code).mistake == "mistakes/axis-1.py"
    first = "    mean = x.mean(axis=1, keepdims=True)"
    assert first in mistake.code
    own = '    if x.ndim == 1:\n        raise ValueError("a 2-D array, please")\n' + first
    g = grade(layer_norm, mistake.code.replace(first, own))
    assert g.verdict == "incorrect"
    assert g.mistake is None and mistake.nudge not in g.feedback


def test_the_new_sentences_reach_a_turkish_learner(kinds):
    solution = kinds.exercise.solution
    with i18n.language("tr"):
        g = grade(kinds, solution.replace("top = float(X.max())", "top = X[X.argmax():]"))
        h = grade(kinds, solution.replace('"negative": int((X < 0).sum())', '"zero": 0'))
    assert "`top`: (1,) şeklinde bir dizi, oysa tek bir sayı (5) bekleniyor." in g.feedback
    assert "`counts`: 'negative' anahtarı eksik." in h.feedback
