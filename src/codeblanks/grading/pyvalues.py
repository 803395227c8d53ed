"""How two Python values differ: a function test's result, a variable a program leaves behind.

The one engine for values a run hands back (read as data by ``pydata``, never run), compared
with the solution's as Python compares them (``difference``; ``compare_values`` for a program's
variables, whose NumPy arrays ``values`` describes): ``1 == 1.0``, a ``Counter`` equals the same
``dict``, a namedtuple the same tuple, a set is unordered, ``None`` is a value like any other,
an iterator is compared by what it yielded. On top of that, floats agree within the tolerance
(NumPy's ``atol + rtol·|expected|``, never stricter than the type holds: float32 is judged by
float32's precision). A test's ``exact=True`` demands the same types as well; ``unordered=True``
compares the result's items in any order (as unittest's ``assertCountEqual`` does). Whole values
are compared, however long; the sentence says where they first differ (`x[1]['a']` for a
variable, "the result at" a path for a test's result) and how many items do.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from codeblanks.content.model import GradingSpec
from codeblanks.grading.compare import close
from codeblanks.grading.pydata import (
    COLLECTIONS,
    ITEMS,
    SHOWN,
    Thing,
    Unreadable,
    captured,
    family,
    key,
    plain,
    python_number,
    quoted,
    sequence,
    show,
    type_name,
)
from codeblanks.grading.values import describe_difference, tolerance_for
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext

PAIRED = 300  # unordered items left after exact matching, paired within the tolerance


# -- comparing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    rtol: float = 0.0
    atol: float = 0.0
    exact: bool = False  # the same types as well
    unordered: bool = False  # the result's items in any order (only the result's own)
    name: str | None = None  # a variable's name (None: a function test's result)


def _name(path: str, rules: Rules) -> str:
    """How a sentence names the value at ``path``: `x[1]` for a variable, the result at `[1]`."""
    if rules.name is not None:
        return f"`{rules.name}{path}`"
    return _("the result") if not path else _("the result at `{path}`").format(path=path)


def difference(got: Any, expected: Any, rules: Rules) -> str | None:
    """The sentence saying how ``got`` differs from ``expected`` (None: they are equal).
    ``rules.unordered`` applies to the result itself, as unittest's ``assertCountEqual`` does:
    any two collections (lists, tuples, sets, iterators) with the same items in any order."""
    if rules.unordered:
        inner = replace(rules, unordered=False)
        both = family(got) in COLLECTIONS and family(expected) in COLLECTIONS
        if both and not (rules.exact and type_name(got) != type_name(expected)):
            mine, theirs = _items(got), _items(expected)
            return _endless(got, expected, "", inner) or _collection(mine, theirs, "", inner)
        return _diff(got, expected, "", inner)
    return _diff(got, expected, "", rules)


def _items(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, list) else value.items


def _typed(got: Any, expected: Any, name: str) -> dict[str, str]:
    return {
        "name": name,
        "got": show(got),
        "expected": show(expected),
        "got_type": type_name(got),
        "expected_type": type_name(expected),
    }


def _diff(got: Any, expected: Any, path: str, rules: Rules) -> str | None:
    name = _name(path, rules)
    if rules.exact and type_name(got) != type_name(expected):
        return _(
            "{name} is {got} (of type `{got_type}`), but {expected} (of type `{expected_type}`) "
            "is expected: this test asks for the exact type."
        ).format(**_typed(got, expected, name))
    if family(got) != family(expected):
        return _(
            "{name} is {got} (of type `{got_type}`), but {expected} (of type `{expected_type}`) "
            "is expected."
        ).format(**_typed(got, expected, name))
    kind = family(expected)
    if kind == "none":
        return None
    if kind == "number":
        return _numbers(got, expected, name, rules)
    if kind == "str":
        mine, theirs = plain(got), plain(expected)
        if mine == theirs:
            return None
        return _("{name} is {got}, but {expected} is expected.").format(
            name=name, got=quoted(mine, theirs), expected=quoted(theirs, mine)
        )
    if kind == "array":
        problems = describe_difference(
            "", got, expected, rules.rtol, rules.atol, exact_dtype=rules.exact, label=name
        )
        return problems[0] if problems else None
    if kind == "bytes":
        return None if got.text == expected.text else _is_not(name, got, expected)
    if kind == "dict":
        return _mapping(got, expected, path, rules)
    if kind == "set":
        return _collection(got.items, expected.items, path, rules)
    if kind == "object":
        return _object(got, expected, path, rules)
    mine, theirs = sequence(got), sequence(expected)
    assert mine is not None and theirs is not None  # compatible: lists, tuples or iterators
    found = _sequences(got, expected, mine, theirs, path, rules)
    if found is not None and _reversed(mine, theirs, path, rules):
        return _(
            "{name} holds the right items, in the opposite order: check which way it is sorted "
            "(`reverse=True`, `[::-1]`)."
        ).format(name=_name(path, rules))
    return found


def _reversed(mine: tuple[Any, ...], theirs: tuple[Any, ...], path: str, rules: Rules) -> bool:
    """Whether a sequence of three or more items is the expected one backwards."""
    if len(mine) < 3 or len(mine) != len(theirs):
        return False
    backwards = theirs[::-1]
    return _sequences(list(mine), list(backwards), mine, backwards, path, rules) is None


def _is_not(name: str, got: Any, expected: Any) -> str:
    return _("{name} is {got}, but {expected} is expected.").format(
        name=name, got=show(got), expected=show(expected)
    )


def _numbers(got: Any, expected: Any, name: str, rules: Rules) -> str | None:
    g, e = plain(got), plain(expected)
    narrow = [v for v in (g, e) if isinstance(v, np.ndarray)]
    g = python_number(g) if isinstance(g, np.ndarray) else g
    e = python_number(e) if isinstance(e, np.ndarray) else e
    if isinstance(g, int) and isinstance(e, int):  # bools and ints: exactly
        return None if g == e else _is_not(name, got, expected)
    rtol, atol = tolerance_for(rules.rtol, rules.atol, *([] if rules.exact else narrow))
    return None if _close_numbers(g, e, rtol, atol) else _is_not(name, got, expected)


def _close_numbers(got: complex, expected: complex, rtol: float, atol: float) -> bool:
    """Whether two Python numbers (one not an int) agree within the tolerance. An int past a
    float's range equals no float nor complex, as in Python (``10**400 == math.inf`` is False)."""
    if type(got) is float and type(expected) is float:  # the common case, quickly
        return close(got, expected, rtol, atol)
    try:
        g, e = complex(got), complex(expected)
    except OverflowError:
        return False
    if g.imag == 0 and e.imag == 0:
        return close(g.real, e.real, rtol, atol)
    # |g - e| without ``abs()``, which raises OverflowError past a float's range
    apart = math.hypot(g.real - e.real, g.imag - e.imag)
    return g == e or apart <= atol + rtol * math.hypot(e.real, e.imag)


def _sequences(
    got: Any,
    expected: Any,
    mine: tuple[Any, ...],
    theirs: tuple[Any, ...],
    path: str,
    rules: Rules,
) -> str | None:
    name = _name(path, rules)
    if endless := _endless(got, expected, path, rules):
        return endless
    if not rules.exact and len(mine) == len(theirs):
        try:
            if mine == theirs:  # the common case, at C speed
                return None
        except (ValueError, TypeError):  # arrays inside
            pass
    first, differ = _item_differences(mine, theirs, path, rules)
    if len(mine) != len(theirs):
        return _lengths_differ(name, mine, theirs, first)
    if first is None:
        return None
    if differ == 1:
        return first
    return ngettext(
        "{name} has {count} items, as expected, but {differ} of them differs; the first: {detail}",
        "{name} has {count} items, as expected, but {differ} of them differ; the first: {detail}",
        differ,
    ).format(name=name, differ=_count(differ), count=_count(len(theirs)), detail=first)


def _item_differences(
    mine: tuple[Any, ...], theirs: tuple[Any, ...], path: str, rules: Rules
) -> tuple[str | None, int]:
    """The sentence for the first item that differs (None: none does) and how many differ, of
    the items both sequences have."""
    first, differ = None, 0
    simple = (int, str, bool)
    # Equal simple values of one type are equal under any rules: only the others are looked at.
    suspects = [
        i
        for i, (a, b) in enumerate(zip(mine, theirs, strict=False))
        if not (a is b or (type(a) is type(b) and type(a) in simple and a == b))
    ]
    tolerance = tolerance_for(rules.rtol, rules.atol)  # floats of Python's own (float64)
    for index in suspects:
        a, b = mine[index], theirs[index]
        if type(a) in (int, float) and type(b) in (int, float):  # the common case, quickly
            if type(a) is int and type(b) is int:
                same = False  # two unequal ints
            else:
                same = (not rules.exact or type(a) is type(b)) and _close_numbers(a, b, *tolerance)
            if not same and first is None:
                first = _diff(a, b, f"{path}[{index}]", rules)
        elif first is None:  # one comparison per item, however deep (not one per sentence)
            first = _diff(a, b, f"{path}[{index}]", rules)
            same = first is None
        else:
            same = _diff(a, b, "", rules) is None
        if not same:
            differ += 1
    return first, differ


def _lengths_differ(
    name: str, mine: tuple[Any, ...], theirs: tuple[Any, ...], first: str | None
) -> str:
    """The sentence for a sequence of the wrong length: the lengths, then the first item that
    differs (``first``) or how many items are right."""
    text = ngettext(
        "{name} has {got} item, but {expected} are expected.",
        "{name} has {got} items, but {expected} are expected.",
        len(mine),
    ).format(name=name, got=_count(len(mine)), expected=_count(len(theirs)))
    if len(theirs) == 1:
        text = ngettext(
            "{name} has {got} item, but 1 is expected.",
            "{name} has {got} items, but 1 is expected.",
            len(mine),
        ).format(name=name, got=_count(len(mine)))
    if first is not None:
        return text + " " + _("The first difference: {detail}").format(detail=first)
    shorter = min(len(mine), len(theirs))
    if shorter:
        text += " " + ngettext(
            "The first item is right.", "The first {count} items are right.", shorter
        ).format(count=_count(shorter))
    return text


def _endless(got: Any, expected: Any, path: str, rules: Rules) -> str | None:
    """The sentence for an iterator that went on past ``ITEMS`` values where the solution's
    stops (both going on: their first ``ITEMS`` values are compared)."""
    if not (isinstance(got, Thing) and got.more) or (isinstance(expected, Thing) and expected.more):
        return None
    return _(
        "{name} is an iterator that yields more than {limit} values, but {count} are "
        "expected: does it ever stop?"
    ).format(name=_name(path, rules), limit=_count(ITEMS), count=_count(len(_items(expected))))


def _count(n: int) -> str:
    return f"{n:,}"


def _collection(
    mine: tuple[Any, ...], theirs: tuple[Any, ...], path: str, rules: Rules
) -> str | None:
    """Two collections compared in any order: every expected item paired with one of ``mine``
    (equal keys first, then within the tolerance)."""
    name = _name(path, rules)
    got_keys = [key(v, rules.exact) for v in mine]
    want_keys = [key(v, rules.exact) for v in theirs]
    missing = Counter(want_keys) - Counter(got_keys)
    extra = Counter(got_keys) - Counter(want_keys)
    if not missing and not extra:
        return None
    lacking = _pick(theirs, want_keys, missing)
    surplus = _pick(mine, got_keys, extra)
    if len(lacking) <= PAIRED and len(surplus) <= PAIRED:
        for want in list(lacking):
            for i, have in enumerate(surplus):
                if _diff(have, want, "", rules) is None:
                    lacking.remove(want)
                    del surplus[i]
                    break
    if not lacking and not surplus:
        return None
    facts = {"name": name}
    if lacking and surplus:
        facts.update(got=show(surplus[0]), expected=show(lacking[0]))
        text = _("{name} holds {got} where {expected} is expected (in any order).")
    elif lacking:
        facts.update(expected=show(lacking[0]))
        text = _("{name} lacks {expected}.")
    else:
        facts.update(got=show(surplus[0]))
        text = _("{name} holds {got}, which is not expected.")
    text = text.format(**facts)
    wrong = max(len(lacking), len(surplus))
    if wrong > 1:
        text += " " + ngettext(
            "In all, {count} item is wrong.", "In all, {count} items are wrong.", wrong
        ).format(count=_count(wrong))
    return text


def _pick(values: tuple[Any, ...], keys: list[Any], wanted: Counter[Any]) -> list[Any]:
    left = Counter(wanted)
    picked: list[Any] = []
    for value, k in zip(values, keys, strict=True):
        if left[k] > 0:
            left[k] -= 1
            picked.append(value)
    return picked


def _mapping(got: Thing, expected: Thing, path: str, rules: Rules) -> str | None:
    name = _name(path, rules)
    mine = {key(k, rules.exact): (k, v) for k, v in got.items}
    theirs = {key(k, rules.exact): (k, v) for k, v in expected.items}
    for k, (shown, _value) in theirs.items():
        if k not in mine:
            return _("{name} lacks the key {key}.").format(name=name, key=show(shown))
    for k, (shown, _value) in mine.items():
        if k not in theirs:
            return _("{name} has the key {key}, which is not expected.").format(
                name=name, key=show(shown)
            )
    for k, (shown, value) in theirs.items():
        found = _diff(mine[k][1], value, f"{path}[{show(shown)}]", rules)
        if found is not None:
            return found
    return None


def _object(got: Thing, expected: Thing, path: str, rules: Rules) -> str | None:
    if got.type != expected.type:
        return _(
            "{name} is {got} (of type `{got_type}`), but {expected} (of type `{expected_type}`) "
            "is expected."
        ).format(**_typed(got, expected, _name(path, rules)))
    if not got.items and not expected.items:
        return None if got.text == expected.text else _is_not(_name(path, rules), got, expected)
    mine, theirs = dict(got.items), dict(expected.items)
    for attribute, value in theirs.items():
        if attribute not in mine:
            return _("{name} has no attribute `{attribute}`.").format(
                name=_name(path, rules), attribute=attribute
            )
        found = _diff(mine[attribute], value, f"{path}.{attribute}", rules)
        if found is not None:
            return found
    return None


# -- a program's variables -------------------------------------------------------------------


def value_rules(spec: GradingSpec) -> dict[str, Any]:
    """``compare_values``'s keywords for a lesson's ``[grading]``."""
    return {
        "rtol": spec.rtol,
        "atol": spec.atol,
        "tolerance": spec.tolerance,
        "distributions": spec.distributions,
        "exact_dtype": spec.exact_dtype,
    }


def compare_values(
    got: dict[str, Any],
    expected: dict[str, Any],
    names: tuple[str, ...],
    rtol: float = 0.0,
    atol: float = 0.0,
    *,
    tolerance: dict[str, tuple[float, float]] | None = None,
    distributions: dict[str, int] | None = None,
    exact_dtype: bool = False,
    hints: bool = True,
) -> list[str]:
    """Messages for every named variable that differs (one each); empty when all agree.
    ``tolerance`` overrides ``rtol``/``atol`` per name; ``distributions`` are the names declared
    to sum to 1 along an axis; ``exact_dtype`` and ``hints`` apply to arrays (see
    ``values.describe_difference``)."""
    tolerance, distributions = tolerance or {}, distributions or {}
    undefined = [n for n in names if n in expected and got.get(n) is None]
    messages = [_undefined(undefined)] if undefined else []
    for name in names:
        if name not in expected or name in undefined:
            continue  # the solution does not define it on this case: nothing to compare with
        mine, theirs = got[name], expected[name]
        r, a = tolerance.get(name, (rtol, atol))
        if isinstance(mine, np.ndarray) and isinstance(theirs, np.ndarray):  # numbers, arrays
            axis = distributions.get(name)
            messages += describe_difference(
                name, mine, theirs, r, a, axis=axis, exact_dtype=exact_dtype, hints=hints
            )
        elif not (type(mine) is str and type(theirs) is str and mine == theirs):  # same JSON
            messages += _variable(name, mine, theirs, Rules(r, a, name=name))
    return messages


def _undefined(names: list[str]) -> str:
    quoted_names = [f"`{n}`" for n in names]
    listed = (
        _("{names} and {last}").format(names=", ".join(quoted_names[:-1]), last=quoted_names[-1])
        if len(quoted_names) > 1
        else quoted_names[0]
    )
    return ngettext(
        "{names} is not defined when your program ends: the task asks for it as "
        "variables at the top level.",
        "{names} are not defined when your program ends: the task asks for them as "
        "variables at the top level.",
        len(names),
    ).format(names=listed)


def _variable(name: str, got: Any, expected: Any, rules: Rules) -> list[str]:
    """The sentence for a variable that is not a number nor an array on both sides."""
    try:
        found = difference(captured(got), captured(expected), rules)
    except Unreadable:  # a forged text, or an array the sandbox could not decode
        found = _("{name} is {got}, but {expected} is expected.").format(
            name=f"`{name}`", got=_raw(got), expected=_raw(expected)
        )
    return [] if found is None else [found]


def _raw(value: Any) -> str:
    """A captured value as the sentence shows it, read or not."""
    try:
        return show(captured(value))
    except Unreadable:
        text = str(value)
        return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."
