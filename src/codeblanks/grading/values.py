"""How a NumPy array (or number) a program leaves behind differs from the solution's.

The sandbox hands numbers and arrays over as .npy data (every other value as JSON, which
``pyvalues`` compares, calling here for the arrays inside); everything here happens in the
grader's process, so the learner's code cannot take part in the comparison. Feedback names
what is right before what is wrong and, for the common slips of array code, says what probably
happened. Every message is one whole sentence in the current language (``codeblanks.i18n``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from codeblanks.i18n import gettext as _

# Floating-point values computed in a different but correct order (einsum instead of @, a sum
# written out) differ in the last bits; comparisons of values never demand more than this.
VALUE_RTOL = 1e-7
VALUE_ATOL = 1e-9
# ...and a computation in a narrower float (float32 keeps about 7 digits, float16 about 3) is
# judged by what that type can hold, unless the lesson asks for the exact dtype.
NARROW_FLOATS = {4: (1e-5, 1e-6), 2: (1e-2, 1e-3)}


def tolerance_for(rtol: float, atol: float, *arrays: np.ndarray) -> tuple[float, float]:
    """The tolerance values are judged by: never below ``VALUE_RTOL``/``VALUE_ATOL``, nor
    stricter than the narrowest float among ``arrays`` holds (the one rule for arrays, numbers
    and the floats inside Python values)."""
    rtol, atol = max(rtol, VALUE_RTOL), max(atol, VALUE_ATOL)
    for array in arrays:
        if array.dtype.kind == "f" and array.dtype.itemsize in NARROW_FLOATS:
            floor_r, floor_a = NARROW_FLOATS[array.dtype.itemsize]
            rtol, atol = max(rtol, floor_r), max(atol, floor_a)
    return rtol, atol


def same_value(got: Any, expected: Any, rtol: float = 0.0, atol: float = 0.0) -> bool:
    return not describe_difference("value", got, expected, rtol, atol, missing_ok=False)


def _shape(shape: tuple[int, ...]) -> str:
    return str(tuple(shape))


def describe_difference(
    name: str,
    got: Any,
    expected: Any,
    rtol: float = 0.0,
    atol: float = 0.0,
    *,
    missing_ok: bool = False,
    axis: int | None = None,
    exact_dtype: bool = False,
    hints: bool = True,
    label: str | None = None,
) -> list[str]:
    """Messages saying how ``got`` differs from ``expected``; empty when they are the same.

    ``axis``: the value is declared a probability distribution along it, so rows (or columns)
    that do not sum to 1 are pointed out. ``hints`` False: only facts, no guess at the cause
    (used when the printed output is right: then a guess would mislead). ``label``: how the
    sentences name the value (default: the variable's name in backticks; e.g. "the result").
    Each message is one whole sentence in the current language."""
    who = f"`{name}`" if label is None else label
    if got is None:
        if missing_ok:
            return []
        return [_("{name} is not defined when your program ends.").format(name=who)]
    got, expected = np.asarray(got), np.asarray(expected)
    if got.shape != expected.shape:
        return [_shape_difference(who, got, expected)]
    kind = _kind_difference(who, got, expected, exact_dtype)
    if kind is not None:
        return [kind]
    gk, ek = got.dtype.kind, expected.dtype.kind
    rtol, atol = tolerance_for(rtol, atol, *(() if exact_dtype else (got, expected)))
    shape = _shape(got.shape)
    if ek == "b" or gk == "b":
        if np.array_equal(got, expected):
            return []
        if got.ndim == 0:
            return [
                _("{name} is {got}, but {expected} is expected.").format(
                    name=who, got=_num(got), expected=_num(expected)
                )
            ]
        return [_first_difference(who, got, expected)]
    if _allclose(got, expected, rtol, atol):
        return []
    narrow = _narrow_precision(who, got, expected)
    if narrow:
        return [narrow]
    if got.ndim == 0:
        mine, theirs = _apart(got, expected)
        return [
            _("{name} is {got}, but {expected} is expected.").format(
                name=who, got=mine, expected=theirs
            )
        ]
    differ = _("{name} has shape {shape}, good; but its values differ.")
    if np.iscomplexobj(got) or np.iscomplexobj(expected):
        return [differ.format(name=who, shape=shape)]
    try:
        return [_hint(who, got, expected, rtol, atol, axis if hints else None, hints)]
    except (ValueError, TypeError, IndexError, ArithmeticError):
        return [differ.format(name=who, shape=shape)]


def _shape_difference(who: str, got: np.ndarray, expected: np.ndarray) -> str:
    """The sentence for a value of the wrong shape, with a guess at why when the shapes hint."""
    shapes = {"name": who, "got": _shape(got.shape), "expected": _shape(expected.shape)}
    if got.ndim == expected.ndim and got.shape[::-1] == expected.shape:
        msg = _(
            "{name} has shape {got}, but shape {expected} is expected — the same axes in "
            "reverse order: is it transposed?"
        )
    elif got.ndim == expected.ndim - 1 and 1 in expected.shape:
        msg = _(
            "{name} has shape {got}, but shape {expected} is expected — an axis went "
            "missing: did a sum or max lose `keepdims=True`?"
        )
    elif got.ndim == 0:
        msg = _(
            "{name} is a single number ({value}), but an array of shape {expected} is expected."
        )
        shapes["value"] = _brief(got)
    elif expected.ndim == 0:
        msg = _("{name} is an array of shape {got}, but a single number ({value}) is expected.")
        shapes["value"] = _brief(expected)
    elif got.size == expected.size:
        msg = _(
            "{name} has shape {got}, but shape {expected} is expected — the right number "
            "of elements in another arrangement."
        )
    else:
        msg = _("{name} has shape {got}, but shape {expected} is expected.")
    return msg.format(**shapes)


def _kind_difference(
    who: str, got: np.ndarray, expected: np.ndarray, exact_dtype: bool
) -> str | None:
    """The sentence for values of the wrong kind (or, when the task asks, precision)."""
    gk, ek = got.dtype.kind, expected.dtype.kind
    numeric = "iuf"
    wrong_kind = gk != ek and not (gk in numeric and ek in numeric)
    wrong_precision = exact_dtype and gk == ek == "f" and got.dtype != expected.dtype
    if not (wrong_kind or wrong_precision):
        return None  # the usual answer: no dtype named (NumPy's ``str(dtype)`` is slow Python)
    kinds = {"name": who, "got": str(got.dtype), "expected": str(expected.dtype)}
    if wrong_kind:
        return _("{name} holds {got} values, but {expected} values are expected.").format(**kinds)
    if wrong_precision:
        return _(
            "{name} holds {got} values, but {expected} values are expected: "
            "this task asks for that precision."
        ).format(**kinds)
    return None


def _allclose(got: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> bool:
    """``np.allclose(..., equal_nan=True)``, with a fast path for the common exact match."""
    if np.array_equal(got, expected):
        return True
    if np.iscomplexobj(got) or np.iscomplexobj(expected):
        return bool(np.allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True))
    return bool(close_cells(got, expected, rtol, atol).all())


def close_cells(got: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    """Element by element, whether ``got`` is close to ``expected`` (real arrays of one shape):
    NaN matches NaN, and an infinity only the same infinity (``rtol * inf`` would pass any
    number). The verdict's heatmaps mark the cells where this is False."""
    with np.errstate(all="ignore"):
        g, e = got.astype(np.float64, copy=False), expected.astype(np.float64, copy=False)
        ok = np.abs(g - e) <= atol + rtol * np.abs(e)
        ok |= np.isnan(g) & np.isnan(e)
        infinite = np.isinf(g) | np.isinf(e)
        return np.where(infinite, g == e, ok)


def _hint(
    who: str,
    got: np.ndarray,
    expected: np.ndarray,
    rtol: float,
    atol: float,
    axis: int | None,
    hints: bool,
) -> str:
    """The sentence for values of the right shape that differ: what differs, with a guess at why
    only where the data shows it (a distribution the lesson declared that does not sum to 1,
    values that are the expected ones transposed or scaled)."""

    def close(a: np.ndarray, b: np.ndarray) -> bool:
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))

    shape = _shape(got.shape)
    with np.errstate(all="ignore"):
        if axis is not None and -got.ndim <= axis < got.ndim and not np.iscomplexobj(got):
            message = _distribution_hint(who, got, expected, axis, close)
            if message:
                return message
        square = got.ndim >= 2 and got.shape[-1] == got.shape[-2]
        transposed = hints and square and close(np.swapaxes(got, -1, -2), expected)
        # A softmax over the other axis: of scores that happen to be symmetric it is also the
        # transpose, and the values alone cannot tell which of the two happened.
        columns = hints and got.ndim >= 2 and _normalised_columns(got, expected, close)
        if transposed and columns:
            return _(
                "{name} has shape {shape}, good; but its values are those expected, transposed, "
                "so its columns sum to 1 where the expected rows do: is it normalised along the "
                "wrong axis, or transposed (the order of `@`, a `.T`)?"
            ).format(name=who, shape=shape)
        if columns:
            return _(
                "{name} has shape {shape}, good; but in the expected result each row sums to 1 "
                "and in yours each column does: is it normalised along the wrong axis?"
            ).format(name=who, shape=shape)
        if transposed:
            return _(
                "{name} has shape {shape}, good; but its values are those expected, transposed: "
                "check the order of `@` or a `.T`."
            ).format(name=who, shape=shape)
        ids = got.ndim == 1 and got.dtype.kind in "iu" and len(np.unique(got)) == len(got) >= 3
        if hints and ids and close(got[::-1], expected):
            return _(
                "{name} has shape {shape}, good; it holds the right items, in the opposite "
                "order: check which way it is sorted (`[::-1]` reverses it)."
            ).format(name=who, shape=shape)
        ratio = _constant_ratio(got, expected, rtol) if hints else None
        if ratio is not None:
            return _(
                "{name} has shape {shape}, good; but every value is {ratio} times the expected "
                "one: is a scaling factor missing or applied twice?"
            ).format(name=who, shape=shape, ratio=_ratio_text(ratio))
        diff = np.abs(got.astype(float) - expected.astype(float))
        diff[np.isnan(got) != np.isnan(expected)] = np.inf  # one NaN where the other has none
        diff[np.isnan(diff)] = 0.0
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(diff)), diff.shape))
        return _at_index(who, got, expected, where)


def _at_index(who: str, got: np.ndarray, expected: np.ndarray, where: tuple[int, ...]) -> str:
    mine, theirs = _apart(got[where], expected[where])
    return _(
        "{name} has shape {shape}, good; but its values differ: at index {index} it holds "
        "{got} where {expected} is expected."
    ).format(name=who, shape=_shape(got.shape), index=where, got=mine, expected=theirs)


def _first_difference(who: str, got: np.ndarray, expected: np.ndarray) -> str:
    """For values compared exactly (booleans): the first index where they differ."""
    where = tuple(int(i) for i in np.argwhere(got != expected)[0])
    return _at_index(who, got, expected, where)


def _normalised_columns(
    got: np.ndarray, expected: np.ndarray, close: Callable[[np.ndarray, np.ndarray], bool]
) -> bool:
    """Whether every row of ``expected`` sums to 1, every column of ``got`` does and not every
    row of ``got``: a softmax taken over the other of the last two axes."""
    if got.shape[-2] < 2 or got.shape[-1] < 2 or np.iscomplexobj(got):
        return False
    if not (np.isfinite(got).all() and np.isfinite(expected).all()):
        return False
    rows, columns = expected.sum(axis=-1), got.sum(axis=-2)
    if not (close(rows, np.ones_like(rows)) and close(columns, np.ones_like(columns))):
        return False
    mine = got.sum(axis=-1)
    return not close(mine, np.ones_like(mine))


def _narrow_precision(who: str, got: np.ndarray, expected: np.ndarray) -> str:
    """For values computed in a narrower float than the expected ones that agree to what that
    float can hold, but not to the tolerance the task asks for: say so, not just "differ"."""
    if got.dtype.kind != "f" or expected.dtype.kind != "f":
        return ""
    if got.dtype.itemsize >= expected.dtype.itemsize or got.dtype.itemsize not in NARROW_FLOATS:
        return ""
    rtol, _atol = NARROW_FLOATS[got.dtype.itemsize]
    g, e = got.astype(float), expected.astype(float)
    with np.errstate(all="ignore"):
        if not (np.isfinite(g).all() and np.isfinite(e).all()):
            return ""
        # Round-off of the narrow type, accumulated over a computation: relative to each value
        # and to the size of the values around it.
        scale = float(np.abs(e).max()) if e.size else 0.0
        if not bool(np.all(np.abs(g - e) <= 10 * rtol * (np.abs(e) + scale))):
            return ""
    return _(
        "{name} is right to {got} precision, but the task expects {expected} precision: "
        "compute in {expected} (NumPy's default; leave out `dtype=np.{got}` and "
        "`.astype(np.{got})`)."
    ).format(name=who, got=str(got.dtype), expected=str(expected.dtype))


def _distribution_hint(
    who: str,
    got: np.ndarray,
    expected: np.ndarray,
    axis: int,
    close: Callable[[np.ndarray, np.ndarray], bool],
) -> str:
    """For a value declared to sum to 1 along ``axis``: where it does not (the expected value
    must itself sum to 1 there, or the declaration is not trusted)."""
    wanted = expected.sum(axis=axis)
    if not close(wanted, np.ones_like(wanted)):
        return ""
    sums = got.sum(axis=axis)
    # A nan or inf sum is an overflow, not a wrong axis: other messages say so.
    if not np.isfinite(sums).all() or close(sums, np.ones_like(sums)):
        return ""
    bad = tuple(np.argwhere(~np.isclose(sums, 1.0, rtol=1e-6, atol=1e-6))[0])
    rows = axis in (-1, got.ndim - 1)
    mine, _theirs = _apart(sums[bad], 1.0)
    facts = {
        "name": who,
        "shape": _shape(got.shape),
        "index": ", ".join(str(int(i)) for i in bad),
        "sum": mine,
        "axis": axis,
    }
    if rows:
        text = _(
            "{name} has shape {shape}, good; but its rows should sum to 1 and row {index} sums "
            "to {sum} — which axis did softmax normalise?"
        ).format(**facts)
    else:
        text = _(
            "{name} has shape {shape}, good; but its slices along axis {axis} should sum to 1 "
            "and slice {index} sums to {sum} — which axis did softmax normalise?"
        ).format(**facts)
    if got.ndim == 2 and rows and close(got.sum(axis=0), np.ones(got.shape[1])):
        text += " " + _("Its columns sum to 1 instead.")
    return text


def _apart(got: Any, expected: Any) -> tuple[str, str]:
    """Both numbers written with just enough digits to show that they differ."""
    g, e = np.asarray(got), np.asarray(expected)
    if g.dtype.kind not in "f" and e.dtype.kind not in "f":
        return _num(g), _num(e)
    for digits in range(4, 18):
        mine, theirs = f"{float(g):.{digits}g}", f"{float(e):.{digits}g}"
        if mine != theirs:
            return _padded(mine, theirs), _padded(theirs, mine)
    return _num(g), _num(e)


def _padded(text: str, other: str) -> str:
    """``text`` with the trailing zeros ``g`` formatting dropped put back where ``other`` shows
    more digits after the same ones: 1.7320 beside 1.7321, not 1.732 (which reads as a larger
    difference than there is)."""
    if "e" in text + other or "." not in text or not other.startswith(text):
        return text  # a whole number (0 beside 0.787) reads right as it is
    rest = other[len(text) :]
    return text + "0" * len(rest) if rest.isdigit() else text


def _constant_ratio(got: np.ndarray, expected: np.ndarray, rtol: float) -> float | None:
    """The factor ``r`` with ``got == r * expected`` everywhere, when one such factor explains
    the values: the elementwise ratios agree with each other far more closely than ``r`` differs
    from 1 (a factor 1.0000017 that varies in its 7th digit is no scaling factor)."""
    g, e = got.astype(float).ravel(), expected.astype(float).ravel()
    mask = np.abs(e) > 1e-12
    if mask.sum() < 2 or not np.all(np.isfinite(g)) or not np.all(np.isfinite(e)):
        return None
    ratios = g[mask] / e[mask]
    r = float(np.median(ratios))
    off = abs(r - 1)
    if off <= 10 * max(rtol, VALUE_RTOL) or abs(r) < 1e-12:
        return None
    spread = float(np.max(np.abs(ratios - r)))
    if spread <= min(1e-6 * abs(r), 0.01 * off) and np.allclose(g[~mask], 0, atol=1e-9):
        return r
    return None


def _ratio_text(ratio: float) -> str:
    """``ratio`` with enough digits to be true: 4, 0.5, 1.155, 1.0001 (never 1 for 1.0001)."""
    off = abs(ratio - 1)
    for digits in range(4, 18):
        text = f"{ratio:.{digits}g}"
        if abs(float(text) - ratio) <= 0.01 * off:
            return text
    return repr(ratio)


def _num(x: Any) -> str:
    x = np.asarray(x)
    if x.dtype.kind in "iub":
        return str(x.item())
    return f"{float(x):.4g}" if x.dtype.kind == "f" else str(x.item())


def _brief(value: Any) -> str:
    value = np.asarray(value)
    if value.ndim == 0:
        return _num(value)
    return _("an array of shape {shape}").format(shape=_shape(value.shape))
