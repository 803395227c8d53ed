"""The value a function test returned, compared with the solution's as Python compares them.

Inside the sandbox ``lessontest`` writes each result out as JSON data (NumPy arrays travel as
.npy); here it is read back (``read``) into plain data -- numbers, strings, lists, arrays and
``Thing`` for the kinds JSON has no word for -- and compared (``difference``), never run:
``1 == 1.0``, a ``Counter`` equals the same ``dict``, a namedtuple the same tuple, a set is
unordered, ``None`` is a value like any other, an iterator is compared by what it yielded. On top
of that, floats agree within the tolerance (NumPy's ``atol + rtol·|expected|``, never stricter
than the type holds: float32 is judged by float32's precision). A test's ``exact=True`` demands
the same types as well; ``unordered=True`` compares the result's items in any order (as
unittest's ``assertCountEqual`` does). Whole results are compared, however long; the sentence
says where they first differ and how many items do.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from codeblanks.content.pysource import literal_value
from codeblanks.grading.compare import close
from codeblanks.grading.values import NARROW_FLOATS, VALUE_ATOL, VALUE_RTOL, describe_difference
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext

ITEMS = 100_000  # kept in step with lessontest.ITEMS: values taken from a returned iterator
SHOWN = 80  # characters of a value shown in a sentence
PAIRED = 300  # unordered items left after exact matching, paired within the tolerance


@dataclass(frozen=True)
class Thing:
    """A value of a kind JSON has no word for: ``kind`` is tuple, list, str, number, dict, set,
    bytes, iter or object; ``type`` its Python type's name. ``items``: the values (a dict's and
    an object's: key-value pairs); ``text``: bytes in hex, an object's repr."""

    kind: str
    type: str
    items: tuple[Any, ...] = ()
    more: bool = False  # an iterator that yielded more than ITEMS values
    text: str = ""


class Unreadable(Exception):
    """The captured text is not what lessontest writes (the program tampered with it)."""


_PLAIN = {
    "tuple": "tuple",
    "list": "list",
    "dict": "dict",
    "set": "set",
    "bytes": "bytes",
    "str": "str",
    "number": "number",
    "iter": "iterator",
    "object": "object",
}


def read(raw: Any, encoded: bool) -> Any:
    """The value a run captured for a test: an array as it came (``encoded`` False), else the
    JSON text read back. Raises ``Unreadable``. The text is the learner's to forge: what comes
    back is one of the kinds the module docstring names (Python's numbers, str, lists, ``Thing``,
    arrays of numbers), nested at most ``DEPTH`` deep, or ``Unreadable``."""
    if not encoded:
        if isinstance(raw, np.ndarray | np.generic):
            return np.asarray(raw)
        raise Unreadable
    if not isinstance(raw, str):
        raise Unreadable
    try:
        return _node(json.loads(json_text(literal_value(raw))), 0)
    except (
        ValueError,
        SyntaxError,
        TypeError,
        KeyError,
        ArithmeticError,  # an int too large for a float or an array's dtype
        MemoryError,
        RecursionError,
    ) as error:
        raise Unreadable from error


def json_text(value: object) -> str | bytes | bytearray:
    """The text ``json.loads`` reads; TypeError for any other value, as ``json.loads`` does."""
    if not isinstance(value, str | bytes | bytearray):
        raise TypeError("not JSON text")
    return value


_SCALARS = {int, float, str, bool, type(None)}
DEPTH = 60  # containers inside containers read back (lessontest writes at most 50)


def _node(data: Any, depth: int) -> Any:
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if depth >= DEPTH:  # deeper than lessontest writes: comparing it would recurse as deep
        raise ValueError("nested too deep")
    if isinstance(data, list):
        if set(map(type, data)) <= _SCALARS:  # a long list of numbers or strings: as it is
            return data
        return [_node(d, depth + 1) for d in data]
    if not isinstance(data, dict):
        raise TypeError("not JSON data")
    kind: Any = data["$"]
    value: Any = data.get("v")
    name = data.get("t")
    if not isinstance(kind, str) or not (name is None or isinstance(name, str)):
        raise TypeError("a kind and a type's name are text")
    if kind == "int":
        return int(_text(value), 16)
    if kind == "complex":
        re, im = value
        return complex(_real(re), _real(im))
    if kind == "array":
        return _array(value, data["dtype"], data["shape"])
    if kind not in _PLAIN:
        raise TypeError(f"unknown kind {kind!r}")
    return _thing(kind, name or _PLAIN[kind], value, data, depth + 1)


def _thing(kind: str, name: str, value: Any, data: dict[str, Any], depth: int) -> Thing:
    """A node of one of the ``_PLAIN`` kinds, its parts checked to be what lessontest writes."""
    if kind == "bytes":
        return Thing(kind, name, text=bytes.fromhex(_text(value)).hex())
    if kind == "str":
        return Thing(kind, name, (_text(value),))
    if kind == "number":
        return Thing(kind, name, (_real_node(value, depth),))
    if kind == "object":
        if data.get("why"):  # a value inside itself, or nested too deep: told by that alone
            return Thing(kind, name, text=f"<{data['why']}>")
        pairs = tuple((str(k), v) for k, v in _pairs(value or [], depth))
        return Thing(kind, name, pairs, text=str(data.get("r", "")))
    if kind == "dict":
        return Thing(kind, name, _pairs(value, depth))
    if not isinstance(value, list):
        raise TypeError("items are a list")
    items = tuple(_node(v, depth) for v in value)
    return Thing(kind, name, items, more=data.get("more") is True)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("text expected")
    return value


def _real(value: Any) -> float:
    """A part of a complex number: a JSON number (OverflowError for an int past a float's)."""
    if not isinstance(value, int | float):
        raise TypeError("a number expected")
    return float(value)


def _real_node(value: Any, depth: int) -> bool | int | float:
    """The plain value of an int or float subclass: a number, however large."""
    number = _node(value, depth)
    if not isinstance(number, bool | int | float):
        raise TypeError("a number expected")
    return number


def _pairs(value: Any, depth: int) -> tuple[tuple[Any, Any], ...]:
    """Key-value pairs, each written as a list of two."""
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        raise TypeError("pairs are lists of two")
    return tuple((_node(k, depth), _node(v, depth)) for k, v in value)


MAX_DIMS = 32  # as NumPy's own limit: more axes are no array's


def _array(values: Any, dtype: Any, shape: Any) -> np.ndarray:
    kind = np.dtype(_text(dtype))
    if kind.kind not in "biufc" or kind.fields is not None or kind.subdtype is not None:
        raise TypeError("an array of numbers")
    if not isinstance(shape, list) or len(shape) > MAX_DIMS:
        raise TypeError("a shape is a list of sizes")
    if not all(type(n) is int and 0 <= n <= ITEMS for n in shape):
        raise ValueError("a size is a small whole number")
    if kind.kind == "c":
        if not isinstance(values, list):
            raise TypeError("a complex array's items are a list")
        flat = [complex(_real(re), _real(im)) for re, im in values]
        return np.array(flat, dtype=kind).reshape(shape)
    with np.errstate(all="ignore"):  # 1e300 as float16: inf, as NumPy casts it
        array = np.array(values, dtype=kind)
    if array.shape != tuple(shape):
        raise ValueError("the shape does not hold")
    return array


# -- what a value is -------------------------------------------------------------------------


def type_name(value: Any) -> str:
    if isinstance(value, Thing):
        return value.type
    if isinstance(value, np.ndarray):
        return "ndarray" if value.ndim else str(value.dtype)
    return type(value).__name__


def _family(value: Any) -> str:
    """Which values can equal which, as in Python: numbers with numbers, a Mapping with a
    dict, a set with a frozenset, a namedtuple with a tuple."""
    if value is None:
        return "none"
    if isinstance(value, bool | int | float | complex):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, np.ndarray):
        return "number" if value.ndim == 0 else "array"
    kind: str = value.kind
    return kind


def _sequence(value: Any) -> tuple[Any, ...] | None:
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, Thing) and value.kind in ("list", "tuple", "iter"):
        return value.items
    return None


def _plain(value: Any) -> Any:
    """A str or number subclass as its plain value."""
    if isinstance(value, Thing) and value.kind in ("str", "number"):
        return value.items[0]
    return value


def _compatible(got: Any, expected: Any) -> bool:
    return _family(got) == _family(expected)


_COLLECTIONS = ("list", "tuple", "iter", "set")


def key(value: Any, exact: bool = False) -> Any:
    """A hashable stand-in equal for values Python finds equal (``1``, ``1.0`` and ``True``
    alike), which pairs the items of sets, dicts and unordered lists; ``exact``: types too."""
    found = _key(value, exact)
    return (type_name(value), found) if exact else found


def _key(value: Any, exact: bool) -> Any:
    value = _plain(value)
    if value is None:
        return ("none",)
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return _key(_python(value), exact)
        return ("array", value.shape, tuple(value.ravel().tolist()))
    if isinstance(value, bool | int):
        return ("n", int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return ("nan",)
        return ("n", int(value)) if value.is_integer() else ("n", value)
    if isinstance(value, complex):
        return _key(value.real, exact) if value.imag == 0 else ("c", value.real, value.imag)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list):
        return ("l", tuple(key(v, exact) for v in value))
    kind = "l" if value.kind == "iter" else value.kind
    if value.kind in ("dict", "object"):
        pairs = frozenset((key(k, exact), key(v, exact)) for k, v in value.items)
        # an object with attributes is known by them, as ``_object`` compares it: its repr may
        # hold an address that differs on every run
        return (
            kind,
            value.type if value.kind == "object" else "",
            pairs,
            "" if pairs else value.text,
        )
    if value.kind == "set":
        return (kind, frozenset(key(v, exact) for v in value.items))
    return (kind, tuple(key(v, exact) for v in value.items), value.text)


# -- how a value is shown --------------------------------------------------------------------


def show(value: Any, limit: int = SHOWN) -> str:
    """``value`` written as Python writes it, cut at about ``limit`` characters."""
    parts: list[str] = []
    _write(value, parts, [limit])
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _write(value: Any, out: list[str], left: list[int]) -> None:
    """Append ``value``'s text to ``out``, counting it off ``left[0]`` (the room still left)."""
    if isinstance(value, list):
        _many(value, "[", "]", out, left)
    elif isinstance(value, np.ndarray):
        _put(repr(value.item()) if value.ndim == 0 else f"array({show(value.tolist())})", out, left)
    elif isinstance(value, int) and value.bit_length() > 10_000:  # repr() refuses past 4,300 digits
        _put(("-" if value < 0 else "") + hex(abs(value))[:20] + "...", out, left)
    elif not isinstance(value, Thing):
        text = repr(value)
        _put(text if len(text) <= SHOWN else text[: SHOWN - 3] + "...", out, left)
    elif value.kind in ("str", "number"):
        _write(value.items[0], out, left)
    elif value.kind == "bytes":
        _put(repr(bytes.fromhex(value.text)), out, left)
    elif value.kind == "object":
        _put(value.text, out, left)
    else:
        _write_collection(value, out, left)


def _write_collection(value: Thing, out: list[str], left: list[int]) -> None:
    """A tuple, dict, set, list subclass or iterator: its items in its brackets, inside its
    type's name when that is not the built-in one (``OrderedDict({...})``)."""
    builtin = value.type == _PLAIN[value.kind]
    prefix = "" if builtin else f"{value.type}("
    suffix = "" if builtin else ")"
    if value.kind == "tuple":
        closing = ("," if len(value.items) == 1 else "") + ")" + suffix
        _many(value.items, prefix + "(", closing, out, left)
    elif value.kind == "dict":
        _many(value.items, prefix + "{", "}" + suffix, out, left, pairs=True)
    elif value.kind == "set" and not value.items:
        _put(f"{value.type}()", out, left)
    elif value.kind == "set":
        _many(value.items, prefix + "{", "}" + suffix, out, left)
    else:  # a list subclass or an iterator: its items
        _many(value.items, prefix + "[", ("..." if value.more else "") + "]" + suffix, out, left)


def _put(text: str, out: list[str], left: list[int]) -> None:
    out.append(text)
    left[0] -= len(text)


def _many(
    items: Iterable[Any],
    opening: str,
    closing: str,
    out: list[str],
    left: list[int],
    pairs: bool = False,
) -> None:
    """Items between brackets, comma-separated (``pairs``: key-value pairs), until the room
    runs out, where ``...`` stands for the rest."""
    _put(opening, out, left)
    for i, item in enumerate(items):
        if left[0] <= 0:
            _put("...", out, left)
            break
        if i:
            _put(", ", out, left)
        if pairs:
            _write(item[0], out, left)
            _put(": ", out, left)
            _write(item[1], out, left)
        else:
            _write(item, out, left)
    _put(closing, out, left)


# -- comparing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    rtol: float = 0.0
    atol: float = 0.0
    exact: bool = False  # the same types as well
    unordered: bool = False  # the result's items in any order (only the result's own)


def _name(path: str) -> str:
    return _("the result") if not path else _("the result at `{path}`").format(path=path)


def difference(got: Any, expected: Any, rules: Rules) -> str | None:
    """The sentence saying how ``got`` differs from ``expected`` (None: they are equal).
    ``rules.unordered`` applies to the result itself, as unittest's ``assertCountEqual`` does:
    any two collections (lists, tuples, sets, iterators) with the same items in any order."""
    if rules.unordered:
        inner = Rules(rules.rtol, rules.atol, exact=rules.exact)
        both = _family(got) in _COLLECTIONS and _family(expected) in _COLLECTIONS
        if both and not (rules.exact and type_name(got) != type_name(expected)):
            mine, theirs = _items(got), _items(expected)
            return _endless(got, expected, "") or _collection(mine, theirs, "", inner)
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
    name = _name(path)
    if rules.exact and type_name(got) != type_name(expected):
        return _(
            "{name} is {got} (of type `{got_type}`), but {expected} (of type `{expected_type}`) "
            "is expected: this test asks for the exact type."
        ).format(**_typed(got, expected, name))
    if not _compatible(got, expected):
        return _(
            "{name} is {got} (of type `{got_type}`), but {expected} (of type `{expected_type}`) "
            "is expected."
        ).format(**_typed(got, expected, name))
    family = _family(expected)
    if family == "none":
        return None
    if family == "number":
        return _numbers(got, expected, name, rules)
    if family == "str":
        if _plain(got) == _plain(expected):
            return None
        return _is_not(name, got, expected)
    if family == "array":
        problems = describe_difference(
            "result", got, expected, rules.rtol, rules.atol, exact_dtype=rules.exact, label=name
        )
        return problems[0] if problems else None
    if family == "bytes":
        return None if got.text == expected.text else _is_not(name, got, expected)
    if family == "dict":
        return _mapping(got, expected, path, rules)
    if family == "set":
        return _collection(got.items, expected.items, path, rules)
    if family == "object":
        return _object(got, expected, path, rules)
    mine, theirs = _sequence(got), _sequence(expected)
    assert mine is not None and theirs is not None  # compatible: lists, tuples or iterators
    found = _sequences(got, expected, mine, theirs, path, rules)
    if found is not None and _reversed(mine, theirs, path, rules):
        return _(
            "{name} holds the right items, in the opposite order: check which way it is sorted "
            "(`reverse=True`, `[::-1]`)."
        ).format(name=_name(path))
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
    g, e = _plain(got), _plain(expected)
    narrow = [v for v in (g, e) if isinstance(v, np.ndarray)]
    g = _python(g) if isinstance(g, np.ndarray) else g
    e = _python(e) if isinstance(e, np.ndarray) else e
    if isinstance(g, int) and isinstance(e, int):  # bools and ints: exactly
        return None if g == e else _is_not(name, got, expected)
    rtol, atol = _float_tolerance(rules)
    if not rules.exact:
        for array in narrow:
            floor = NARROW_FLOATS.get(array.dtype.itemsize) if array.dtype.kind in "fc" else None
            if floor:
                rtol, atol = max(rtol, floor[0]), max(atol, floor[1])
    return None if _close_numbers(g, e, rtol, atol) else _is_not(name, got, expected)


def _python(array: np.ndarray) -> bool | int | float | complex:
    """A 0-d array as Python's number. ``item()`` keeps a longdouble (float128) or clongdouble
    a NumPy scalar, which ``float()`` would strip of its imaginary part: those are narrowed to
    float and complex (within any tolerance a grade asks for)."""
    kind = array.dtype.kind
    with np.errstate(all="ignore"):
        if kind == "c":
            return complex(array.astype(np.complex128).item())
        if kind == "f":
            return float(array.astype(np.float64).item())
    number: bool | int = array.item()
    return number


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
    name = _name(path)
    if endless := _endless(got, expected, path):
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
    plain = (int, str, bool)
    # Equal plain values of one type are equal under any rules: only the others are looked at.
    suspects = [
        i
        for i, (a, b) in enumerate(zip(mine, theirs, strict=False))
        if not (a is b or (type(a) is type(b) and type(a) in plain and a == b))
    ]
    tolerance = _float_tolerance(rules)
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


def _endless(got: Any, expected: Any, path: str) -> str | None:
    """The sentence for an iterator that went on past ``ITEMS`` values where the solution's
    stops (both going on: their first ``ITEMS`` values are compared)."""
    if not (isinstance(got, Thing) and got.more) or (isinstance(expected, Thing) and expected.more):
        return None
    return _(
        "{name} is an iterator that yields more than {limit} values, but {count} are "
        "expected: does it ever stop?"
    ).format(name=_name(path), limit=_count(ITEMS), count=_count(len(_items(expected))))


def _float_tolerance(rules: Rules) -> tuple[float, float]:
    """``rtol`` and ``atol`` for two floats of Python's own (float64)."""
    return max(rules.rtol, VALUE_RTOL), max(rules.atol, VALUE_ATOL)


def _count(n: int) -> str:
    return f"{n:,}"


def _collection(
    mine: tuple[Any, ...], theirs: tuple[Any, ...], path: str, rules: Rules
) -> str | None:
    """Two collections compared in any order: every expected item paired with one of ``mine``
    (equal keys first, then within the tolerance)."""
    name = _name(path)
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
    name = _name(path)
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
        ).format(**_typed(got, expected, _name(path)))
    if not got.items and not expected.items:
        return None if got.text == expected.text else _is_not(_name(path), got, expected)
    mine, theirs = dict(got.items), dict(expected.items)
    for attribute, value in theirs.items():
        if attribute not in mine:
            return _("{name} has no attribute `{attribute}`.").format(
                name=_name(path), attribute=attribute
            )
        found = _diff(mine[attribute], value, f"{path}.{attribute}", rules)
        if found is not None:
            return found
    return None
