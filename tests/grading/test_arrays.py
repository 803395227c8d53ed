"""A wrong 2-D value's grade keeps both arrays for the verdict's pictures (grading/arrays.py),
graded through the real sandbox against the built-in causal-mask and QKV lessons."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from codeblanks.cli.main import main
from codeblanks.content import catalog
from codeblanks.grading import grade
from codeblanks.grading.arrays import MOST, array_pairs
from codeblanks.grading.pyvalues import compare_values

from .test_forged_values import SLOW, arrays


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


def longdouble_q(lesson) -> str:
    """The QKV solution with ``Q`` in the platform's widest float (float128 here) and one value
    changed (security review S4)."""
    q = "Q = X @ W_q"
    return lesson.exercise.solution.replace(q, f"{q}\nQ = Q.astype(np.longdouble)\nQ[0, 0] += 1", 1)


def test_a_wrong_longdouble_value_gets_a_verdict_as_plain_json(tmp_path, capsys):
    lesson = catalog().lesson("query-key-value")
    code = longdouble_q(lesson)
    g = grade(lesson, code)
    assert g.verdict == "incorrect" and any("`Q`" in line for line in g.feedback)
    data = json.loads(json.dumps(g.to_json(), allow_nan=False))
    (q,) = [pair for pair in data["arrays"] if pair["name"] == "Q"]
    assert q["got"]["cells"][0][0] == 2.0 and q["expected"]["cells"][0][0] == 1.0
    program = tmp_path / "model.py"
    program.write_text(code)
    assert main(["grade", lesson.id, str(program), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["verdict"] == "incorrect"


# What a run hands over for a variable: an array of numbers, else lessontest's JSON (any text: it
# may be forged), or none.
reported = st.one_of(
    arrays(),
    st.none(),
    st.text(max_size=10),
    st.sampled_from(
        ("[1,2]", '{"$":"dict","v":[["a",[1]]]}', '{"$":"tuple","v":[1]}', '"x"', "1" * 5000)
        + ('{"$":"set","v":[1,2]}', "[" * 300, "[" * 70 + "]" * 70)
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=SLOW)
@given(reported, reported, st.booleans())
def test_values_of_any_dtype_compare_and_keep_as_plain_json(got, expected, exact):
    """Any two values a run reports (arrays of every numeric dtype: longdouble, clongdouble,
    uint64 ...; JSON texts; none): the sentences and the kept pictures, never an exception, and the
    pictures plain JSON."""
    values = {"x": got}, {"x": expected}
    assert isinstance(compare_values(*values, ("x",), exact_dtype=exact), list)
    kept = [pair.to_json() for pair in array_pairs(*values, ("x",))]
    json.dumps(kept, allow_nan=False)
