"""Clues read in a wrong printout, each only where the output shows it for sure: a method
printed instead of called (``<built-in method upper of str object at 0x…>``), and a line holding
the expected items in the opposite order (``np.argsort(z)[-k:]`` where the largest come first).
"""

from __future__ import annotations

import re

from codeblanks.i18n import gettext as _

# what Python prints for a method that was named but not called
_UNCALLED = re.compile(r"<(?:built-in method|bound method) (?:\w+\.)*(?P<name>\w+)")
_ITEMS = re.compile(r"[^\s,\[\]()]+")
_ID = re.compile(r"-?\d+")
MAX_LINE_CHARS = 2000  # a longer line is not split into items (bounded work per grade)


def uncalled_method(stdout: str) -> str | None:
    """A nudge when the output shows a method itself: it was named without ``()``."""
    m = _UNCALLED.search(stdout[:100_000])
    if m is None:
        return None
    return _(
        "Your output shows a method itself (`{shown}…>`), not its result: a method named "
        "without `()` is not called. Write `.{name}()` to call it."
    ).format(shown=m.group(0), name=m.group("name"))


def reversed_line(got: str, expected: str) -> str | None:
    """A sentence when a line of the output holds the expected items in the opposite order."""
    for number, (mine, theirs) in enumerate(
        zip(got.splitlines(), expected.splitlines(), strict=False), 1
    ):
        if mine == theirs or len(mine) > MAX_LINE_CHARS or len(theirs) > MAX_LINE_CHARS:
            continue
        a, b = _ITEMS.findall(mine), _ITEMS.findall(theirs)
        if _ids(b) and a != b and a == b[::-1]:
            return _(
                "Line {number} of your output has the right items, in the opposite order: "
                "check which way it is sorted (`[::-1]` reverses it)."
            ).format(number=number)
    return None


def _ids(items: list[str]) -> bool:
    """Items that read as an order: three or more distinct whole numbers (ids, positions). A
    row of measures reversed (a sign flipped, sin and cos swapped) is another mistake."""
    return len(items) >= 3 and len(set(items)) == len(items) and all(map(_ID.fullmatch, items))
