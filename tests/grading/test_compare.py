"""Output comparison: normalisation, numeric tolerance inside NumPy's printed arrays, line diff."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from codeblanks.grading.compare import compare_output, line_diff, normalise, tokenise

printable = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"), max_size=80
)


@given(st.lists(printable.filter(lambda s: "\n" not in s), max_size=6), st.data())
def test_line_endings_and_trailing_whitespace_do_not_matter(lines, data):
    text = "\n".join(lines)
    ending = data.draw(st.sampled_from(["\n", "\r\n"]))
    padded = ending.join(line + data.draw(st.sampled_from(["", " ", "\t", "  "])) for line in lines)
    assert normalise(padded + ending) == normalise(text)
    assert compare_output(padded, text).equal


@given(printable)
def test_normalise_is_idempotent(text):
    assert normalise(normalise(text)) == normalise(text)


def test_exact_by_default():
    assert compare_output("[0.155 0.422]\n", "[0.155 0.422]").equal
    assert not compare_output("[0.1553 0.4223]", "[0.155 0.422]").equal
    assert not compare_output("[0.155  0.422]", "[0.155 0.422]").equal  # inner spacing counts
    assert compare_output("", "x").reason == "Your program printed nothing."


def test_tolerance_is_judged_by_the_lessons_rule():
    got, expected = "[0.1553 0.4223]", "[0.155 0.422]"
    assert compare_output(got, expected, atol=1e-3).equal
    # rtol=1e-3 allows |0.1553-0.155| <= 0.000155: too strict for this difference.
    verdict = compare_output(got, expected, rtol=1e-3)
    assert not verdict.equal
    assert "0.1553" in verdict.reason and "0.155" in verdict.reason


def test_tolerance_reads_numpy_arrays_whatever_their_padding_and_wrapping():
    a = np.random.default_rng(0).normal(size=(3, 9))
    wide = np.array2string(a, precision=6, max_line_width=200)
    narrow = np.array2string(a, precision=3, max_line_width=40)
    assert wide.count("\n") != narrow.count("\n")
    assert compare_output(narrow, wide, atol=1e-3).equal
    assert not compare_output(narrow, wide).equal
    assert not compare_output(narrow, np.array2string(a.T, precision=3), atol=1e-3).equal


def test_tolerance_does_not_forgive_other_text_or_count():
    assert not compare_output("shape (3, 3)", "shape (3, 4)", atol=0.5).equal
    assert not compare_output("rows: [1. 2.]", "cols: [1. 2.]", atol=1).equal
    assert not compare_output("[1. 2. 3.]", "[1. 2.]", atol=1).equal
    assert compare_output("[nan 1.]", "[nan 1.]", atol=0.1).equal
    assert not compare_output("[nan 1.]", "[0. 1.]", atol=0.1).equal
    assert not compare_output("[inf]", "[1e308]", rtol=0.5).equal


@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=12),
    st.floats(0, 1e-2),
    st.floats(0, 1e-2),
)
def test_numbers_within_tolerance_pass_and_numbers_outside_fail(values, rtol, atol):
    expected = np.array(values)
    shown = np.array2string(expected, precision=8, floatmode="maxprec", max_line_width=60)
    assert compare_output(shown, shown, rtol, atol).equal
    # Moving one number by well over the allowed amount must fail.
    moved = expected.copy()
    moved[0] += 2 * (atol + rtol * abs(expected[0])) + 1.0
    moved_text = np.array2string(moved, precision=8, floatmode="maxprec", max_line_width=60)
    assert not compare_output(moved_text, shown, rtol, atol).equal


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), max_size=8))
def test_tokenise_finds_every_printed_number(values):
    # "unique": each number printed with the digits that give back exactly that float (the
    # default 8 decimals would round 0.001953125 to 0.00195312, which is not the tokeniser's fault).
    shown = np.array2string(np.array(values, dtype=float), max_line_width=50, floatmode="unique")
    skeleton, numbers = tokenise("result: " + shown)
    assert len(numbers) == len(values)
    assert len(skeleton) == len(numbers) + 1
    assert list(numbers) == [float(v) for v in values]


def test_line_diff_shows_expected_and_learner_lines():
    diff = line_diff("(3, 2)\n[0.1 0.9]\n", "(3, 2)\n[0.155 0.422 0.422]\n")
    assert diff[0] == "--- expected" and diff[1] == "+++ your output"
    assert "-[0.155 0.422 0.422]" in diff and "+[0.1 0.9]" in diff
    assert line_diff("same", "same\n") == []
