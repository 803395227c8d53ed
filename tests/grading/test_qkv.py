"""The built-in QKV exercise, graded with all its variants through the real sandbox."""

from __future__ import annotations

import re

from codeblanks.grading import grade

EINSUM = """import numpy as np

X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
W_q = np.eye(4)[:, :2]
W_k = np.eye(4)[:, 1:3]
W_v = np.eye(4)

Q = np.einsum("nf,fd->nd", X, W_q)
K = np.einsum("nf,fd->nd", X, W_k)
V = np.einsum("nf,fd->nd", X, W_v)
scores = np.einsum("id,jd->ij", Q, K)
weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
A = weights / weights.sum(axis=-1, keepdims=True)
Y = np.einsum("ij,jd->id", A, V)

print(Q.shape, A.shape, Y.shape)
print(np.round(A[0], 3))
"""


def _mistake(qkv, stem: str) -> str:
    """What the learner reads first for this mistake: its nudge, else its message."""
    (m,) = [m for m in qkv.exercise.grading.mistakes if m.path.stem == stem]
    return m.nudge or m.message


def test_the_sample_solution_passes_every_case(qkv):
    g = grade(qkv, qkv.exercise.solution)
    assert g.correct, g.feedback
    assert len(g.cases) == 1 + len(qkv.exercise.grading.variants) >= 3


def test_a_differently_written_correct_program_passes(qkv):
    g = grade(qkv, EINSUM)
    assert g.correct, g.feedback


def test_the_starter_fails_and_says_where(qkv):
    g = grade(qkv, qkv.exercise.starter)
    assert not g.correct
    assert g.case == "visible" and g.line is not None
    assert any(re.match(r"Error at model\.py, line \d+", f) for f in g.feedback)
    assert any("is not defined at that point" in f for f in g.feedback)


def test_printing_the_expected_output_fails(qkv):
    expected = qkv.exercise.expected_output
    g = grade(qkv, f"print({expected!r}, end='')\n")
    assert g.verdict == "incorrect"
    assert g.stdout == expected  # it does print the visible output...
    assert any("not defined when your program ends" in f for f in g.feedback)
    # ... and keeping the given data and the variables does not help either.
    sneaky = qkv.exercise.solution.replace(
        "print(np.round(A[0], 3))", f"print({expected.splitlines()[1]!r})"
    )
    assert sneaky != qkv.exercise.solution
    g = grade(qkv, sneaky)
    assert g.verdict == "incorrect" and g.case != "visible"
    assert g.feedback[0].startswith(
        "Line 2 of your output (`[0.155 0.422 0.422]`) stays the same whatever the data: it has "
        "to be computed from the given inputs (`X`, `W_q`, `W_k`, `W_v`)"
    )


def test_softmax_along_axis_0_fails_with_its_message(qkv):
    own_softmax = EINSUM.replace("axis=-1", "axis=0")
    for code in (qkv.exercise.solution.replace("axis=1)", "axis=0)"), own_softmax):
        assert code != qkv.exercise.solution
        g = grade(qkv, code)
        assert g.verdict == "incorrect"
        assert g.stdout == qkv.exercise.expected_output  # the visible printout hides it
        assert g.feedback[0] == _mistake(qkv, "softmax-axis-0")
        # the printout is right, so no guess at the cause: only the facts
        assert not any("which axis" in f for f in g.feedback), g.feedback
        assert any(f.startswith("Your printed output is right") for f in g.feedback)


def test_keys_against_queries_gets_its_message(qkv):
    code = EINSUM.replace('"id,jd->ij", Q, K', '"id,jd->ij", K, Q')
    g = grade(qkv, code)
    assert g.verdict == "incorrect"
    assert g.feedback[0] == _mistake(qkv, "keys-against-queries")
