"""Friendly errors from real failed runs: the learner's file and line, no platform frames, and
the common errors of array code in plain words."""

from __future__ import annotations

from codeblanks.grading import grade

SETUP = "import numpy as np\n\nS = np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])\n"


def test_name_error_points_at_the_line_and_suggests_the_name(softmax_lesson):
    code = SETUP + (
        "def softmax(z):\n"
        "    e = np.exp(z - z.max(axis=1, keepdims=True))\n"
        "    return e / e.sum(axis=1, keepdims=True)\n"
        "P = sofmax(S)\n"
        "print(np.round(P, 3))\n"
    )
    g = grade(softmax_lesson, code)
    assert g.verdict == "error" and g.case == "visible" and g.line == 7
    assert "Error at model.py, line 7: `P = sofmax(S)`." in g.feedback
    assert any("Did you mean `softmax`?" in f for f in g.feedback)
    # Only the learner's frames: none of the platform's or NumPy's.
    assert 'File "model.py", line 7' in g.stderr
    assert "<string>" not in g.stderr and "site-packages" not in g.stderr
    assert g.stderr.rstrip().endswith("NameError: name 'sofmax' is not defined")


def test_matmul_shapes_are_both_shown(qkv):
    code = qkv.exercise.solution.replace("scores = Q @ K.T", "scores = Q @ K")
    line = 1 + code.splitlines().index(next(x for x in code.splitlines() if "Q @ K " in x))
    g = grade(qkv, code)
    assert g.verdict == "error" and g.line == line
    assert any(
        "`Q @ K` cannot be computed: `Q` has shape (3, 2) and `K` has shape (3, 2)" in f
        and "transposed" in f
        for f in g.feedback
    ), g.feedback


def test_wrong_axis_is_explained(softmax_lesson):
    code = SETUP + "P = np.exp(S) / np.exp(S).sum(axis=2, keepdims=True)\nprint(np.round(P, 3))\n"
    g = grade(softmax_lesson, code)
    assert g.verdict == "error" and g.line == 4
    assert any("There is no axis 2: the array has 2 axes, numbered 0 to 1" in f for f in g.feedback)


def test_errors_inside_the_learners_function_keep_both_frames(softmax_lesson):
    code = SETUP + (
        "def softmax(z):\n"
        "    return np.exp(z) / np.exp(z).sum(axis=1).reshape(3, 1)\n"
        "P = softmax(S)\n"
        "print(np.round(P, 3))\n"
    )
    g = grade(softmax_lesson, code)
    # Right on the visible 3x3 data; the hidden 4-row case exposes the hard-coded shape.
    assert g.verdict == "error" and g.case == "four random rows"
    assert g.line == 5
    assert any("not on the hidden case “four random rows”" in f for f in g.feedback)
    assert any(f.startswith("ValueError: cannot reshape array of size 4") for f in g.feedback)
    assert g.stderr == ""  # stdout/stderr shown are those of the visible case, which passed


def test_syntax_error(softmax_lesson):
    g = grade(softmax_lesson, SETUP + "P = (S\nprint(P)\n")
    assert g.verdict == "error" and g.case == "visible"
    assert g.cases == ("visible",)  # no variant can be made of a program that does not parse
    assert "SyntaxError" in g.stderr and "<string>" not in g.stderr
    assert any("Python cannot read this line" in f for f in g.feedback)


def test_matmul_shapes_on_a_hidden_case(qkv):
    # A hard-coded 3 passes the visible three tokens, not the hidden five.
    code = qkv.exercise.solution.replace("Y = A @ V", "Y = A @ V[:3]")
    assert code != qkv.exercise.solution
    g = grade(qkv, code)
    assert g.verdict == "error" and g.case == "five random tokens"
    assert any(
        "the left array's last axis has 5 entries but the right array's first axis has 3" in f
        for f in g.feedback
    ), g.feedback


def test_matmul_shapes_of_named_operands_on_a_hidden_case(qkv):
    code = qkv.exercise.solution.replace("Y = A @ V", "V3 = V[:3]\nY = A @ V3")
    g = grade(qkv, code)
    assert g.verdict == "error" and g.case == "five random tokens"
    assert any(
        "`A @ V3` cannot be computed: `A` has shape (5, 5) and `V3` has shape (3, 4)" in f
        for f in g.feedback
    ), g.feedback


# ---- bounded parsing: whatever a run writes to stderr gives a verdict, never a crash ----------


def test_a_5000_digit_line_number_is_read_as_no_line():
    from codeblanks.grading.tracebacks import friendly

    stderr = (
        "Traceback (most recent call last):\n"
        f'  File "model.py", line {"9" * 5000}, in <module>\n'
        "ValueError: boom\n"
    )
    err = friendly(stderr, "x = 1\n", "model.py")
    assert err.error_type == "ValueError" and err.message == "boom"
    assert err.line is None


def test_huge_numbers_in_axis_and_index_errors_are_not_explained_but_do_not_crash():
    from codeblanks.grading.tracebacks import friendly

    big = "7" * 5000
    for last in (
        f"numpy.exceptions.AxisError: axis {big} is out of bounds for array of dimension {big}",
        f"IndexError: index {big} is out of bounds for axis {big} with size {big}",
    ):
        stderr = f'Traceback (most recent call last):\n  File "model.py", line 1\n{last}\n'
        err = friendly(stderr, "x = 1\n", "model.py")
        assert err.error_type in ("AxisError", "IndexError")
        assert not any(big in e for e in err.explanation)


def test_did_you_mean_is_not_tried_on_a_20000_character_name():
    """difflib's ratio is quadratic in the lengths: on names this long (and a program of such
    near-misses) one guess takes seconds of CPU, so names past the bound get no guess."""
    import random
    import string

    from codeblanks.grading.tracebacks import MAX_GUESS_CHARS, friendly

    rng = random.Random(9)
    name = "".join(rng.choice(string.ascii_letters) for _ in range(20_000))
    near = [name[:i] + "x" + name[i + 1 :] for i in range(0, 20_000, 2_500)]
    code = "".join(f"{n} = 1\n" for n in near) + f"print({name})\n"
    line = len(near) + 1
    stderr = (
        f'Traceback (most recent call last):\n  File "model.py", line {line}, in <module>\n'
        f"NameError: name '{name}' is not defined\n"
    )
    err = friendly(stderr, code, "model.py")
    assert err.error_type == "NameError" and err.line == line
    assert len(name) > MAX_GUESS_CHARS and not any("Did you mean" in e for e in err.explanation)
    # a short near-miss among those long names is still found
    short = friendly(stderr.replace(name, "totl"), code + "total = 2\n", "model.py").explanation
    assert any("Did you mean `total`?" in e for e in short)


def test_a_run_that_forges_a_traceback_with_a_huge_line_gets_a_verdict(softmax_lesson):
    """The real sandbox, a program that prints its own traceback and exits: graded, not a crash
    (this was a 500 on a blank question's answer)."""
    fake = 'Traceback (most recent call last):\\n  File "model.py", line ' + "9" * 5000
    code = (
        "import os, sys\n"
        f"sys.stderr.write({fake!r} + ', in <module>\\nValueError: forged\\n')\n"
        "sys.stderr.flush()\n"
        "os._exit(1)\n"
    )
    g = grade(softmax_lesson, code)
    assert g.verdict == "error" and g.line is None
    assert "ValueError: forged" in g.stderr
