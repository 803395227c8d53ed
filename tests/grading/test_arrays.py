"""A wrong 2-D value's grade keeps both arrays for the verdict's pictures (grading/arrays.py),
graded through the real sandbox against the built-in causal-mask and QKV lessons."""

from __future__ import annotations

import json

import numpy as np

from codeblanks.content import catalog
from codeblanks.grading import grade
from codeblanks.grading.arrays import MOST, array_pairs


def mistake(lesson, name: str) -> str:
    return (lesson.path / "mistakes" / name).read_text()


def test_a_wrong_mask_keeps_both_masks_and_marks_the_differing_cells():
    lesson = catalog().lesson("causal-mask")
    g = grade(lesson, mistake(lesson, "past-masked.py"))
    assert g.verdict == "incorrect"
    names = [pair.name for pair in g.arrays]
    assert names[0] == "mask" and len(names) <= MOST
    pair = g.arrays[0]
    n = pair.got.shape[0]
    expected = np.triu(np.ones((n, n), dtype=bool), k=1)
    assert np.array_equal(np.array(pair.expected.cells), expected)
    # the learner masked below the diagonal instead of above: every off-diagonal cell differs
    assert np.array_equal(np.array(pair.differ), ~np.eye(n, dtype=bool))
    data = json.loads(json.dumps(g.to_json(), allow_nan=False))  # plain JSON, no NaN
    assert data["arrays"][0]["name"] == "mask" and data["arrays"][0]["got"]["shape"] == [n, n]


def test_a_wrong_qkv_answer_keeps_the_weights_and_a_right_one_keeps_nothing():
    lesson = catalog().lesson("query-key-value")
    g = grade(lesson, mistake(lesson, "softmax-axis-0.py"))
    assert g.verdict == "incorrect" and [p.name for p in g.arrays][0] == "A"
    assert grade(lesson, lesson.exercise.solution).arrays == ()


def test_an_error_keeps_no_arrays():
    lesson = catalog().lesson("query-key-value")
    g = grade(lesson, lesson.exercise.solution + "\nraise ValueError('no')\n")
    assert g.verdict == "error" and g.arrays == ()


def test_at_most_a_few_arrays_in_the_lessons_order():
    got = {k: np.zeros((2, 2)) for k in "abcd"}
    expected = {k: np.ones((2, 2)) for k in "abcd"}
    assert [p.name for p in array_pairs(got, expected, ("d", "c", "b", "a"))] == ["d", "c"][:MOST]
