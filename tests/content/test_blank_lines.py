"""``blank_lines``: the lines where the starter's blank is still a name, and none (without
tokenising) when its text is nowhere in the program."""

from __future__ import annotations

import pytest

from codeblanks.content.pysource import blank_lines


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        ("x = ____\ny = 1\nz = ____ + ____\n", [1, 3, 3]),
        ("s = '____'  # ____\nt = ____\n", [2]),  # in a string or a comment: not a blank
        ("x____ = 1\n____y = 2\n", []),  # part of a longer name
        ("p = 1\n" * 5000 + "q = ____\n", [5001]),
        ("p = 1\n" * 5000, []),
        ("def f(:\n    ____\n", [2]),  # tokens before the parse error still count
        ("", []),
    ],
)
def test_blank_lines(source, lines):
    assert blank_lines(source, "____") == lines
