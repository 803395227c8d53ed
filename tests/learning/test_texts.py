"""What text the database can keep (``learning/texts.py``): the first NUL or lone surrogate and
its line, found with C-speed string methods rather than a regular expression's walk."""

from __future__ import annotations

import pytest

from codeblanks.learning.texts import Unkeepable, unkeepable


@pytest.mark.parametrize(
    "text",
    ["", "print(1)\n", "x = 'ğüşıöç'\n", "emoji = '😀'\n", "a\r\nb\n" * 1000, "\ue000\uffff"],
)
def test_keepable_text_has_nothing_to_say(text):
    assert unkeepable(text) is None


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("a\x00b", Unkeepable(1, "\\x00")),
        ("x = 1\ny = 2\x00\n", Unkeepable(2, "\\x00")),
        ("\ud800", Unkeepable(1, "U+D800")),
        ("x = 'ş'\n\n# \udfff\n", Unkeepable(3, "U+DFFF")),
        ("😀\n\udc00", Unkeepable(2, "U+DC00")),  # an astral character before it is kept
        ("a\n\x00\n\ud800", Unkeepable(2, "\\x00")),  # the first of the two
        ("a\n\ud800\n\x00", Unkeepable(2, "U+D800")),
        ("p = 1\n" * 10_000 + "\udbff", Unkeepable(10_001, "U+DBFF")),
    ],
)
def test_the_first_unkeepable_character_and_its_line(text, found):
    assert unkeepable(text) == found
    assert unkeepable(text).is_nul == (found.char == "\\x00")
