"""Value checks: shape, dtype and values compared in the grader's process, with hints."""

from __future__ import annotations

import numpy as np

from codeblanks.grading.pyvalues import compare_values
from codeblanks.grading.values import describe_difference, same_value

rng = np.random.default_rng(0)
S = rng.normal(size=(3, 3))
ROWS = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
COLS = np.exp(S) / np.exp(S).sum(axis=0, keepdims=True)


def test_equal_values_pass_despite_rounding_noise():
    einsum = np.einsum("ij,jk->ik", S, S)
    assert same_value(einsum, S @ S)
    assert describe_difference("A", ROWS, ROWS) == []
    assert compare_values({"A": ROWS}, {"A": ROWS}, ("A",)) == []


def test_softmax_along_the_wrong_axis_gets_the_row_sum_hint():
    (msg,) = describe_difference("A", COLS, ROWS, axis=1)
    assert msg.startswith("`A` has shape (3, 3), good; but its rows should sum to 1 and row ")
    assert "which axis did softmax normalise?" in msg
    assert "Its columns sum to 1 instead." in msg
    row = int(msg.split("row ")[1].split(" ")[0])
    assert f"sums to {COLS[row].sum():.4g}" in msg


def test_the_row_sum_hint_needs_a_declared_distribution():
    # Keys whose rows happen to sum to 1 (the W_q/W_k swap of the issue): no softmax hint.
    keys = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    (msg,) = describe_difference("K", keys[:, ::-1] * 2, keys)
    assert "should sum to 1" not in msg and "softmax" not in msg
    # undeclared: no "should sum to 1", only what the sums show (the columns sum to 1 instead)
    (msg,) = describe_difference("A", COLS, ROWS)
    assert msg == (
        "`A` has shape (3, 3), good; but in the expected result each row sums to 1 and in yours "
        "each column does: is it normalised along the wrong axis?"
    )
    # declared, but the expected value does not sum to 1 either: the declaration is not trusted
    (msg,) = describe_difference("A", COLS * 2, ROWS * 2, axis=1)
    assert "should sum to 1" not in msg


def test_without_hints_only_facts_are_said():
    (msg,) = describe_difference("A", COLS, ROWS, axis=1, hints=False)
    assert "softmax" not in msg and "its values differ: at index" in msg
    (msg,) = describe_difference("scores", S.T, S, hints=False)
    assert "transposed" not in msg
    (msg,) = describe_difference("scores", S / 2.0, S, hints=False)
    assert "times the expected" not in msg


def test_float32_results_of_the_right_values_pass_unless_the_lesson_asks_for_the_dtype():
    exact = ROWS @ S
    narrow = (ROWS.astype(np.float32) @ S.astype(np.float32)).astype(np.float32)
    assert not np.array_equal(narrow.astype(float), exact)
    assert describe_difference("Y", narrow, exact) == []
    (msg,) = describe_difference("Y", narrow, exact, exact_dtype=True)
    assert msg == (
        "`Y` holds float32 values, but float64 values are expected: this task asks for that "
        "precision."
    )
    # wrong values in float32 are still wrong, and the numbers shown differ where they differ
    (msg,) = describe_difference("Y", narrow + np.float32(1e-3), exact)
    mine, theirs = msg.split("it holds ")[1].split(" is expected")[0].split(" where ")
    assert mine != theirs


def test_shape_hints():
    (msg,) = describe_difference("K", np.ones((4, 3)), np.ones((3, 4)))
    assert "shape (4, 3), but shape (3, 4)" in msg and "transposed" in msg
    (msg,) = describe_difference("s", np.ones(3), np.ones((3, 1)))
    assert "keepdims=True" in msg


def test_transposed_and_scaled_values_are_named():
    (msg,) = describe_difference("scores", S.T, S)
    assert msg == (
        "`scores` has shape (3, 3), good; but its values are those expected, transposed: check "
        "the order of `@` or a `.T`."
    )
    # a distribution transposed: its columns sum to 1, and the sentence says so
    (msg,) = describe_difference("A", ROWS.T, ROWS)
    assert "transposed, so its columns sum to 1 where the expected rows do" in msg
    (msg,) = describe_difference("scores", S / 2.0, S)
    assert "0.5 times" in msg


def test_missing_and_dtype():
    msgs = compare_values({}, {"Q": S, "K": S}, ("Q", "K"))
    assert msgs == [
        "`Q` and `K` are not defined when your program ends: the task asks for them as "
        "variables at the top level."
    ]
    (msg,) = describe_difference("mask", S, S > 0)
    assert "bool" in msg
    assert describe_difference("n", np.array(3), np.array(3.0)) == []
    assert compare_values({"name": '"abc"'}, {"name": '"abd"'}, ("name",)) == [
        "`name` is 'abc', but 'abd' is expected."
    ]


def test_tolerance_is_the_lessons_or_a_tiny_floor():
    assert not same_value(S + 1e-4, S)
    assert same_value(S + 1e-4, S, atol=1e-3)


def test_nan_inf_and_complex_values_never_raise():
    nan = np.array([[np.nan, 1.0], [2.0, np.inf]])
    assert describe_difference("a", nan, nan.copy()) == []
    (msg,) = describe_difference("a", np.full((2, 2), np.nan), np.ones((2, 2)))
    assert msg.startswith("`a` has shape (2, 2), good; but")
    assert same_value(np.array([1 + 1j]), np.array([1 + 1j]))
    assert not same_value(np.array([1 + 1j]), np.array([1 - 1j]))


def test_a_value_can_have_its_own_tolerance():
    got, expected = {"A": ROWS + 1e-4, "B": S + 1e-4}, {"A": ROWS, "B": S}
    assert len(compare_values(got, expected, ("A", "B"))) == 2
    loose = compare_values(got, expected, ("A", "B"), tolerance={"A": (0.0, 1e-3)})
    assert len(loose) == 1 and loose[0].startswith("`B` ")


def test_a_scale_is_named_only_when_one_factor_explains_the_values_and_truly():
    base = np.array([[1.0, -2.0], [3.0, 4.0]])
    (msg,) = describe_difference("H", base * 1.0001, base)
    assert "every value is 1.0001 times the expected one" in msg
    (msg,) = describe_difference("H", base * 1.155, base)
    assert "every value is 1.155 times" in msg
    # ratios 1.0000014 and 1.0000017: close to each other, but not a factor, and not 1
    rows = base * np.array([[1 + 1.4e-6], [1 + 1.7e-6]])
    (msg,) = describe_difference("H", rows, base)
    assert "times the expected" not in msg and "its values differ: at index" in msg


def test_numbers_apart_show_the_same_digits_and_no_larger_difference_than_there_is():
    (msg,) = describe_difference("H", np.array([1.7320508]), np.array([1.7320458]))
    assert "it holds 1.7321 where 1.7320 is expected" in msg
    (msg,) = describe_difference("H", np.array([-0.5]), np.array([-2.0]))
    assert "it holds -0.5 where -2 is expected" in msg


def test_an_expected_infinity_accepts_only_the_same_infinity():
    """``rtol * |inf|`` is inf, so any finite number passed for an expected inf."""
    expected = np.array([np.inf, -np.inf, 1.0])
    assert describe_difference("A", np.array([1e300, -np.inf, 1.0]), expected, 1e-6, 1e-9)
    assert describe_difference("A", np.array([np.inf, 5.0, 1.0]), expected, 1e-6, 1e-9)
    assert describe_difference("A", np.array([-np.inf, -np.inf, 1.0]), expected, 1e-6, 1e-9)
    assert describe_difference("A", np.array([np.inf, -np.inf, 1.0]), expected, 1e-6, 1e-9) == []
    assert describe_difference("x", np.float64(3.0), np.float64(np.inf), 1e-3, 1e-3)
