"""Comparing a program's printed output with the expected output.

Exact by default, after normalising line endings and trailing whitespace. With a numeric tolerance
(``rtol``/``atol`` > 0), numbers are read out of the text -- including those inside NumPy's printed
arrays -- and compared one by one with ``|got - expected| <= atol + rtol * |expected|``; the text
around them must match with whitespace ignored, because NumPy pads and wraps its columns according
to the width of the numbers it prints.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass

from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext

# A number as Python and NumPy print them: 3, -0.5, 1., .25, 1e-05, 2.5E+3, nan, inf, -inf.
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf)(?![\w.])")
_WHITESPACE = re.compile(r"\s+")


def other_format() -> str:
    """The reason for the right numbers printed another way (in the current language)."""
    return _(
        "Your output has the right numbers, but printed in another format than the expected "
        "output (brackets, commas, spacing or digits): print them the way the task shows."
    )


_FORMATTING = re.compile(r"[\s\[\](),]+")


def normalise(text: str) -> str:
    """Unify line endings, drop trailing whitespace on each line and blank lines at either end."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def tokenise(text: str) -> tuple[list[str], list[float]]:
    """Split ``text`` into the text between numbers (whitespace removed) and the numbers."""
    skeleton: list[str] = []
    numbers: list[float] = []
    last = 0
    for m in NUMBER.finditer(text):
        skeleton.append(_WHITESPACE.sub("", text[last : m.start()]))
        numbers.append(float(m.group()))
        last = m.end()
    skeleton.append(_WHITESPACE.sub("", text[last:]))
    return skeleton, numbers


def close(got: float, expected: float, rtol: float, atol: float) -> bool:
    if math.isnan(got) or math.isnan(expected):
        return math.isnan(got) and math.isnan(expected)
    if math.isinf(got) or math.isinf(expected):
        return got == expected
    return abs(got - expected) <= atol + rtol * abs(expected)


@dataclass(frozen=True)
class OutputMatch:
    equal: bool
    reason: str = ""  # when not equal: one sentence for the learner


def compare_output(
    got: str, expected: str, rtol: float = 0.0, atol: float = 0.0, *, numbers: bool = False
) -> OutputMatch:
    """Judge ``got`` against ``expected`` by the lesson's rule. ``numbers`` (the lesson's
    ``output = "numbers"``): the same numbers in another print format pass (brackets, commas,
    spacing, ``2.`` for ``2``); without it, that case is refused with exactly that reason."""
    g, e = normalise(got), normalise(expected)
    if g == e:
        return OutputMatch(True)
    if not g:
        return OutputMatch(False, _("Your program printed nothing."))
    g_text, g_nums = tokenise(g)
    e_text, e_nums = tokenise(e)
    tolerant = rtol > 0 or atol > 0
    alike = g_text == e_text  # the same text around the numbers, spacing aside
    if len(g_nums) == len(e_nums) and (alike or _words(g_text) == _words(e_text)):
        within = _numbers_within(g_nums, e_nums, rtol, atol)
        judged_by_numbers = numbers or (alike and tolerant)
        if within.equal and not judged_by_numbers:
            return OutputMatch(False, other_format())
        if judged_by_numbers:
            return within
    if tolerant:
        return OutputMatch(
            False, _("The output differs from the expected output (not only in its numbers).")
        )
    return OutputMatch(False, _("The output differs from the expected output."))


def _words(skeleton: list[str]) -> str:
    """The text between numbers without what only formats them: brackets, commas, spaces."""
    return _FORMATTING.sub("", "".join(skeleton))


def _numbers_within(
    got: list[float], expected: list[float], rtol: float, atol: float
) -> OutputMatch:
    for i, (a, b) in enumerate(zip(got, expected, strict=True)):
        if not close(a, b, rtol, atol):
            return OutputMatch(
                False,
                _(
                    "Number {number} of the output is {got} where {expected} is expected; this "
                    "lesson allows a difference of at most atol + rtol·|expected| "
                    "(rtol={rtol}, atol={atol})."
                ).format(
                    number=i + 1, got=_fmt(a), expected=_fmt(b), rtol=f"{rtol:g}", atol=f"{atol:g}"
                ),
            )
    return OutputMatch(True)


def _fmt(x: float) -> str:
    return repr(int(x)) if x.is_integer() and abs(x) < 1e15 else f"{x:g}"


def line_diff(got: str, expected: str, context: int = 2, limit: int = 40) -> list[str]:
    """A unified diff from the expected output to the learner's, as lines (no file header)."""
    lines = list(
        difflib.unified_diff(
            normalise(expected).split("\n"),
            normalise(got).split("\n"),
            fromfile=_("expected"),
            tofile=_("your output"),
            n=context,
            lineterm="",
        )
    )
    if len(lines) > limit:
        more = len(lines) - limit
        lines = lines[:limit] + [
            ngettext("... ({count} more diff line)", "... ({count} more diff lines)", more).format(
                count=more
            )
        ]
    return lines
