"""Case substitution: the inputs' top-level assignments get the variant's expressions, nothing
else changes; a deleted or renamed input is reported, not crashed on."""

from __future__ import annotations

import ast
import keyword

from hypothesis import assume, given
from hypothesis import strategies as st

from codeblanks.grading.cases import MissingInputs, _offsets, substitute

names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n) and n != "np"
)
literals = st.integers(-1000, 1000).map(str) | st.floats(-1e3, 1e3, allow_nan=False).map(repr)


@given(
    st.lists(names, min_size=1, max_size=4, unique=True),
    st.lists(literals, min_size=4, max_size=4),
    st.lists(literals, min_size=4, max_size=4),
    st.sampled_from(["", "# note\n", "\n\n", "import numpy as np\n", 'S = "é ☃"\n']),
)
def test_substitution_replaces_exactly_the_inputs(inputs, old, new, prefix):
    assume("S" not in inputs)
    body = "".join(f"{n} = {old[i]}  # given\n" for i, n in enumerate(inputs))
    tail = "total = " + " + ".join(inputs) + "\nprint(total)\n"
    code = prefix + body + tail
    made = substitute(code, {n: new[i] for i, n in enumerate(inputs)})
    assert isinstance(made, str)
    # Same number of lines, untouched lines identical: errors point at the learner's lines.
    assert len(made.splitlines()) == len(code.splitlines())
    for before, after in zip(code.splitlines(), made.splitlines(), strict=True):
        if not any(before.startswith(f"{n} = ") for n in inputs):
            assert before == after
    env: dict = {}
    exec(compile(made.replace("print(total)", ""), "<case>", "exec"), env)  # trusted test code
    assert env["total"] == sum(eval(new[i]) for i in range(len(inputs)))  # noqa: S307


@given(names, names)
def test_a_renamed_input_is_reported(kept, renamed):
    assume(kept != renamed)
    made = substitute(f"{renamed} = 1\nprint({renamed})\n", {kept: "2"})
    assert made == MissingInputs((kept,))
    assert f"`{kept} = …`" in made.message()


def test_only_the_first_top_level_assignment_changes():
    code = (
        "import numpy as np\n"
        "def f():\n    X = 0\n    return X\n"
        "X: np.ndarray = np.ones((2, 2))\n"
        "X = X * 2\n"
        "Y = X\n"
    )
    made = substitute(code, {"X": "np.zeros((3, 3))"})
    assert isinstance(made, str)
    lines = made.splitlines()
    assert lines[2] == "    X = 0"
    assert "np.zeros((3, 3))" in lines[4] and lines[4].startswith("X: np.ndarray = ")
    assert lines[5] == "X = X * 2"
    ast.parse(made)


def test_variant_expressions_see_numpy_as_np_even_if_imported_otherwise():
    code = "import numpy as numpy_\nX = numpy_.ones(2)\nprint(X.sum())\n"
    made = substitute(code, {"X": "np.arange(4.0)"})
    env: dict = {}
    exec(compile(made, "<case>", "exec"), env)  # trusted test code
    assert env["X"].tolist() == [0.0, 1.0, 2.0, 3.0]


def test_syntax_errors_and_tuple_assignments():
    assert isinstance(substitute("X = (\n", {"X": "1"}), SyntaxError)
    assert substitute("X, Y = 1, 2\n", {"X": "3"}) == MissingInputs(("X",))
    assert (
        substitute("A = X = 1\n", {"X": "3"}) == 'A = X = (lambda np: (3))(__import__("numpy"))\n'
    )


def test_a_value_written_over_several_lines_keeps_the_lines_after_it_in_place():
    code = "X = np.array(\n    [1.0,\n     2.0]\n)  # given\nY = X.sum()\nprint(Y)\n"
    made = substitute(code, {"X": "np.arange(3.0)"})
    assert isinstance(made, str)
    assert len(made.splitlines()) == len(code.splitlines())
    assert made.splitlines()[4:] == code.splitlines()[4:]
    assert made.splitlines()[3] == ")  # given"


@given(
    st.lists(names, min_size=1, max_size=3, unique=True),
    st.lists(literals, min_size=3, max_size=3),
    st.lists(st.integers(0, 3), min_size=3, max_size=3),
)
def test_values_over_any_number_of_lines_keep_every_other_line_in_place(inputs, new, spans):
    body = "".join(
        f"{n} = (\n    0\n" + "    + 0\n" * spans[i] + ")  # given\n" if spans[i] else f"{n} = 0\n"
        for i, n in enumerate(inputs)
    )
    code = body + "total = " + " + ".join(inputs) + "\n"
    made = substitute(code, {n: new[i] for i, n in enumerate(inputs)})
    assert isinstance(made, str)
    assert len(made.splitlines()) == len(code.splitlines())
    assert made.splitlines()[-1] == code.splitlines()[-1]
    env: dict = {}
    exec(compile(made, "<case>", "exec"), env)  # trusted test code
    assert env["total"] == sum(eval(new[i]) for i in range(len(inputs)))  # noqa: S307


@given(st.text(alphabet=st.sampled_from(["a", "ı", "\r", "\n", " ", "€"]), max_size=60))
def test_line_offsets_are_where_the_parser_starts_each_line(code):
    """Byte offsets of line starts, with CR, LF and CRLF ending lines as the parser ends them,
    and no start after text that does not end in a break (the one pass that replaced a
    per-line pattern, which scanned a long last line quadratically)."""
    expected, total, line = [0], 0, ""
    i = 0
    while i < len(code):
        ch = code[i]
        line += ch
        if ch == "\r" and code[i + 1 : i + 2] == "\n":
            line += "\n"
            i += 1
        if ch in "\r\n":
            total += len(line.encode())
            expected.append(total)
            line = ""
        i += 1
    assert _offsets(code) == expected


def test_a_long_last_line_with_no_break_is_one_line():
    code = "x = 1\n" + "y = [" + "1," * 30_000 + "]"
    assert _offsets(code) == [0, 6]
