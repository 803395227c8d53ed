"""A Python value as a run hands it back, read as data and written as Python writes it.

Inside the sandbox ``lessontest`` writes each captured value that is not a number or a NumPy
array out as JSON data (arrays travel as .npy); here it is read back (``read``) into plain data --
numbers, strings, lists, arrays and ``Thing`` for the kinds JSON has no word for -- never run
nor unpickled. ``show`` writes such data as Python would, cut to a sentence's room; ``literal``
gives back the Python value of the kinds a literal can write.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

ITEMS = 100_000  # kept in step with lessontest.ITEMS: values taken from a returned iterator
SHOWN = 80  # characters of a value shown in a sentence


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


def captured(raw: Any) -> Any:
    """A captured variable as data: an array as it came, lessontest's JSON text read back (a
    str); raises ``Unreadable``."""
    return read(raw, isinstance(raw, str))


def read(raw: Any, encoded: bool) -> Any:
    """The value a run captured: an array as it came (``encoded`` False), else the JSON text
    read back. Raises ``Unreadable``. The text is the learner's to forge: what comes
    back is one of the kinds the module docstring names (Python's numbers, str, lists, ``Thing``,
    arrays of numbers), nested at most ``DEPTH`` deep, or ``Unreadable``."""
    if not encoded:
        if isinstance(raw, np.ndarray | np.generic):
            return np.asarray(raw)
        raise Unreadable
    if not isinstance(raw, str):
        raise Unreadable
    try:
        return _node(json.loads(raw), 0)
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


def type_name(value: Any) -> str:
    if isinstance(value, Thing):
        return value.type
    if isinstance(value, np.ndarray):
        return "ndarray" if value.ndim else str(value.dtype)
    return type(value).__name__


def python_number(array: np.ndarray) -> bool | int | float | complex:
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


# -- what a value is -------------------------------------------------------------------------


def family(value: Any) -> str:
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


def sequence(value: Any) -> tuple[Any, ...] | None:
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, Thing) and value.kind in ("list", "tuple", "iter"):
        return value.items
    return None


def plain(value: Any) -> Any:
    """A str or number subclass as its plain value."""
    if isinstance(value, Thing) and value.kind in ("str", "number"):
        return value.items[0]
    return value


COLLECTIONS = ("list", "tuple", "iter", "set")


def key(value: Any, exact: bool = False) -> Any:
    """A hashable stand-in equal for values Python finds equal (``1``, ``1.0`` and ``True``
    alike), which pairs the items of sets, dicts and unordered lists; ``exact``: types too."""
    found = _key(value, exact)
    return (type_name(value), found) if exact else found


def _key(value: Any, exact: bool) -> Any:
    value = plain(value)
    if value is None:
        return ("none",)
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return _key(python_number(value), exact)
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


_BUILT_IN = {"tuple": tuple, "set": set}  # the kinds a literal writes, but JSON has no word for


def literal(value: Any) -> Any:
    """The Python value of data a literal writes: numbers, str, bytes, None, and lists, tuples,
    sets and dicts of them, of the built-in types. ValueError for anything else (an object, an
    iterator, an array, a subclass: no literal gives them back)."""
    if value is None or isinstance(value, bool | int | float | complex | str):
        return value
    if isinstance(value, list):
        return [literal(v) for v in value]
    if not isinstance(value, Thing) or value.type != _PLAIN[value.kind]:
        raise ValueError("not a literal's value")
    try:
        if value.kind == "bytes":
            return bytes.fromhex(value.text)
        if value.kind == "dict":
            return {literal(k): literal(v) for k, v in value.items}
        return _BUILT_IN[value.kind](literal(v) for v in value.items)
    except (TypeError, KeyError) as error:  # an unhashable key, a kind no literal writes
        raise ValueError("not a literal's value") from error


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


def quoted(text: str, other: str) -> str:
    """``text`` quoted and escaped as Python writes it; a long one cut to the part around the
    first character where it differs from ``other``."""
    if len(repr(text)) <= SHOWN:
        return repr(text)
    at = next(
        (i for i, (a, b) in enumerate(zip(text, other, strict=False)) if a != b),
        min(len(text), len(other)),
    )
    start = max(0, at - SHOWN // 3)
    part = text[start : start + SHOWN // 2]
    return ("…" if start else "") + repr(part) + ("…" if start + len(part) < len(text) else "")
