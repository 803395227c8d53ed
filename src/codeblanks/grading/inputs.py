"""A hidden case's inputs in words ("`E`: a 10×4 array of whole numbers"), for the learner whose
program fails it; the case's set-up code is kept apart, shown only on request (the learner
trial's F7: a beginner read `np.random.default_rng(21).integers(...)` and learnt nothing).

The words come from the values the case really builds, not from its code: the reference runs
the sample solution, cut after its last input assignment, once per variant (``setup_cases``)
and keeps what those names hold (``Reference.inputs``). Cut there, a later line of the solution
that changes an input (a loop counting ``n`` down) does not change what the case gave it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from codeblanks.content.model import Lesson, Variant
from codeblanks.content.pysource import parse_tree
from codeblanks.grading.cases import PARSE_ERRORS, Case, _offsets, find_assignments, substitute
from codeblanks.grading.pydata import Unreadable, captured, literal
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext

SHORT = 12  # a number written in at most this many characters is quoted, else only its kind


def setup_code(variant: Variant) -> str:
    """``X = np.ones((5, 4))``, one input a line: how a hidden case is built, as the lesson
    declares it (shown on request, never in the verdict's words)."""
    return "\n".join(f"{name} = {expr}" for name, expr in variant.values.items())


def setup_cases(lesson: Lesson) -> list[Case]:
    """One case per variant: the solution with the variant's inputs, up to the line of its last
    input assignment (the rest of the program is not needed to know what the inputs hold)."""
    ex = lesson.exercise
    try:
        tree = parse_tree(ex.solution)
    except PARSE_ERRORS:
        return []
    found = find_assignments(tree, ex.grading.inputs)
    if not found:
        return []
    last = max(node.end_lineno or node.lineno for node in found.values())
    starts = _offsets(ex.solution)
    cases = []
    for variant in ex.grading.variants:
        made = substitute(ex.solution, variant.values, tree, starts)
        if isinstance(made, str):  # substitution keeps every line where it was
            ends = _offsets(made)
            cut = made.encode()[: ends[last]].decode() if last < len(ends) else made
            cases.append(Case(variant.name, cut))
    return cases


def in_words(variant: Variant, values: dict[str, Any]) -> str:
    """``"`E`: a 10×4 array of whole numbers; `ids`: an array of 7 whole numbers"``: each input
    the variant gives, as its run left it (``values``); an input that could not be read, or
    is of a kind without words here, is left out. "" when none is left."""
    said = []
    for name in variant.values:
        what = describe_value(values[name]) if name in values else None
        if what:
            said.append(f"`{name}`: {what}")
    if variant.stdin is not None:  # the text it types in is data, not set-up code
        said.append(_("input {text}").format(text=repr(variant.stdin)))
    return "; ".join(said)


def describe_value(value: Any) -> str | None:
    """What one captured value is, in a few words of the current language: an array's shape
    and the kind of its numbers, a container's length, a short number itself."""
    if isinstance(value, np.ndarray):
        return _array(value)
    if not isinstance(value, str):
        return None
    try:  # not a number or an array: lessontest's JSON text
        read = literal(captured(value))
    except (Unreadable, ValueError):
        return None
    return _python(read)


def _array(arr: np.ndarray) -> str | None:
    kind = arr.dtype.kind
    if kind not in "biufc":
        return None
    if arr.ndim == 0:
        return _number(arr.item())
    size = int(arr.size)
    if arr.ndim == 1:
        return _("an array of {count} {kind}").format(count=size, kind=_kind(kind, size))
    shape = "×".join(str(n) for n in arr.shape)
    if _vowel_sound(int(arr.shape[0])):  # "an 8×8 array", "an 11×2 array"
        return _("an {shape} array of {kind}").format(shape=shape, kind=_kind(kind, 2))
    return _("a {shape} array of {kind}").format(shape=shape, kind=_kind(kind, 2))


def _vowel_sound(n: int) -> bool:
    """Whether ``n`` read aloud in English starts with a vowel: eight, eleven, eighteen, and
    those in the thousands (eleven thousand...)."""
    digits = str(n)
    return digits.startswith("8") or (digits[:2] in ("11", "18") and len(digits) % 3 == 2)


def _kind(kind: str, count: int) -> str:
    """The numbers an array holds, as a plural noun after ``count`` of them."""
    if kind == "b":
        return ngettext("true/false value", "true/false values", count)
    if kind in "iu":
        return ngettext("whole number", "whole numbers", count)
    if kind == "f":
        return ngettext("decimal number", "decimal numbers", count)
    return ngettext("complex number", "complex numbers", count)


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return _("the value {value}").format(value=value)
    text = repr(value)
    if len(text) <= SHORT:
        return _("the number {value}").format(value=text)
    if isinstance(value, int):
        return _("a whole number")
    if isinstance(value, float):
        return _("a decimal number")
    return _("a complex number")


def _python(value: Any) -> str | None:
    if value is None or isinstance(value, bool):
        return _("the value {value}").format(value=value)
    if isinstance(value, (int, float, complex)):
        return _number(value)
    if isinstance(value, str):
        n = len(value)
        if not n:
            return _("an empty string")
        return ngettext(
            "a string of {count} character", "a string of {count} characters", n
        ).format(count=n)
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        n = len(value)
        if isinstance(value, list) and not n:
            return _("an empty list")
        if isinstance(value, list):
            words = ngettext("a list of {count} item", "a list of {count} items", n)
        elif isinstance(value, tuple):
            words = ngettext("a tuple of {count} item", "a tuple of {count} items", n)
        elif isinstance(value, dict):
            words = ngettext("a dictionary of {count} entry", "a dictionary of {count} entries", n)
        else:
            words = ngettext("a set of {count} item", "a set of {count} items", n)
        return words.format(count=n)
    return None
