"""Whatever a learner submits, grading answers with a verdict value and never raises."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codeblanks.grading import grade
from codeblanks.sandbox import VERDICTS

ALLOWED = {"correct", "incorrect"} | (set(VERDICTS) - {"ok"})

fragments = st.sampled_from(
    [
        "import numpy as np\n",
        "S = np.ones((2, 2))\n",
        "S = 'text'\n",
        "P = S / S.sum(axis=1, keepdims=True)\n",
        "P = S @ S.T\n",
        "print(P)\n",
        "print(np.round(P, 3))\n",
        "raise SystemExit(3)\n",
        "import os\nos._exit(0)\n",
        "P = S[5]\n",
        "def f(:\n",
        "print('x' * 100)\n",
        "del S\n",
        "P = np.full((3, 3), np.nan)\n",
        "S = np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])\n",
        "E = np.exp(S - S.max(axis=1, keepdims=True))\nP = E / E.sum(axis=1, keepdims=True)\n",
    ]
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(fragments, max_size=6), st.text(max_size=30))
def test_any_program_gets_a_verdict(softmax_lesson, parts, noise):
    for code in ("".join(parts), noise):
        g = grade(softmax_lesson, code)
        assert g.verdict in ALLOWED
        assert g.correct == (g.verdict == "correct")
        if not g.correct:
            assert g.feedback, (code, g)
        data = g.to_json()
        assert data["case"] in (None, *g.cases)


def test_hostile_texts_get_a_verdict(softmax_lesson, qkv):
    from codeblanks.grading import check_blank

    texts = ["x = 1\0", "(" * 300 + ")" * 300, "x = " + "-" * 100000 + "1", "\udcff", "\ufeffS = 1"]
    for code in texts:
        assert grade(softmax_lesson, code).verdict in ALLOWED
    (q,) = [q for q in qkv.questions if q.id == "scores-line"]
    for answer in texts:
        assert not check_blank(qkv, q, answer).correct
