"""Comparing the variables a program leaves behind with the solution's.

The sandbox reads the named variables after the run and hands them over as data (NumPy arrays,
else ``repr()`` strings); everything here happens in the grader's process, so the learner's code
cannot take part in the comparison. Feedback names what is right before what is wrong and, for
the common slips of array code, says what probably happened. Every message is one whole sentence
in the current language (``codeblanks.i18n``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from codeblanks.content.model import GradingSpec
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext

# Floating-point values computed in a different but correct order (einsum instead of @, a sum
# written out) differ in the last bits; comparisons of values never demand more than this.
VALUE_RTOL = 1e-7
VALUE_ATOL = 1e-9
# ...and a computation in a narrower float (float32 keeps about 7 digits, float16 about 3) is
# judged by what that type can hold, unless the lesson asks for the exact dtype.
NARROW_FLOATS = {4: (1e-5, 1e-6), 2: (1e-2, 1e-3)}


def _tolerance(
    rtol: float, atol: float, got: np.ndarray | None = None, expected: np.ndarray | None = None
) -> tuple[float, float]:
    rtol, atol = max(rtol, VALUE_RTOL), max(atol, VALUE_ATOL)
    for array in (got, expected):
        if array is not None and array.dtype.kind == "f" and array.dtype.itemsize in NARROW_FLOATS:
            floor_r, floor_a = NARROW_FLOATS[array.dtype.itemsize]
            rtol, atol = max(rtol, floor_r), max(atol, floor_a)
    return rtol, atol


def value_rules(spec: GradingSpec) -> dict[str, Any]:
    """``compare_values``'s keywords for a lesson's ``[grading]``."""
    return {
        "rtol": spec.rtol,
        "atol": spec.atol,
        "tolerance": spec.tolerance,
        "distributions": spec.distributions,
        "exact_dtype": spec.exact_dtype,
    }


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
    if isinstance(expected, str) or isinstance(got, str):
        if isinstance(expected, str) and isinstance(got, str) and got == expected:
            return []
        return [
            _("{name} is {got}, but {expected} is expected.").format(
                name=who, got=_brief(got), expected=_brief(expected)
            )
        ]
    got, expected = np.asarray(got), np.asarray(expected)
    if got.shape != expected.shape:
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
        elif got.size == expected.size:
            msg = _(
                "{name} has shape {got}, but shape {expected} is expected — the right number "
                "of elements in another arrangement."
            )
        else:
            msg = _("{name} has shape {got}, but shape {expected} is expected.")
        return [msg.format(**shapes)]
    gk, ek = got.dtype.kind, expected.dtype.kind
    numeric = "iuf"
    kinds = {"name": who, "got": str(got.dtype), "expected": str(expected.dtype)}
    if gk != ek and not (gk in numeric and ek in numeric):
        return [_("{name} holds {got} values, but {expected} values are expected.").format(**kinds)]
    if exact_dtype and gk == ek == "f" and got.dtype != expected.dtype:
        return [
            _(
                "{name} holds {got} values, but {expected} values are expected: "
                "this task asks for that precision."
            ).format(**kinds)
        ]
    rtol, atol = _tolerance(rtol, atol, *(() if exact_dtype else (got, expected)))
    shape = _shape(got.shape)
    if ek == "b" or gk == "b":
        if np.array_equal(got, expected):
            return []
        return [
            _("{name} has the right shape {shape}, but different values.").format(
                name=who, shape=shape
            )
        ]
    if _allclose(got, expected, rtol, atol):
        return []
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


def _allclose(got: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> bool:
    """``np.allclose(..., equal_nan=True)``, with a fast path for the common exact match."""
    if np.array_equal(got, expected):
        return True
    if np.iscomplexobj(got) or np.iscomplexobj(expected):
        return bool(np.allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True))
    with np.errstate(all="ignore"):
        g, e = got.astype(float, copy=False), expected.astype(float, copy=False)
        ok = np.abs(g - e) <= atol + rtol * np.abs(e)
        ok |= np.isnan(g) & np.isnan(e)
        # An infinity is close only to the same infinity (``rtol * inf`` would pass any number).
        infinite = np.isinf(g) | np.isinf(e)
        ok = np.where(infinite, g == e, ok)
    return bool(ok.all())


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

    def close(a, b) -> bool:
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))

    shape = _shape(got.shape)
    with np.errstate(all="ignore"):
        if axis is not None and -got.ndim <= axis < got.ndim and not np.iscomplexobj(got):
            message = _distribution_hint(who, got, expected, axis, close)
            if message:
                return message
        square = got.ndim >= 2 and got.shape[-1] == got.shape[-2]
        if hints and square and close(np.swapaxes(got, -1, -2), expected):
            return _(
                "{name} has shape {shape}, good; but its values are those expected, transposed: "
                "check the order of `@` or a `.T`."
            ).format(name=who, shape=shape)
        ratio = _constant_ratio(got, expected) if hints else None
        if ratio is not None:
            return _(
                "{name} has shape {shape}, good; but every value is {ratio} times the expected "
                "one: is a scaling factor missing or applied twice?"
            ).format(name=who, shape=shape, ratio=_num(ratio))
        diff = np.abs(got.astype(float) - expected.astype(float))
        diff[np.isnan(got) != np.isnan(expected)] = np.inf  # one NaN where the other has none
        diff[np.isnan(diff)] = 0.0
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(diff)), diff.shape))
        mine, theirs = _apart(got[where], expected[where])
        return _(
            "{name} has shape {shape}, good; but its values differ: at index {index} it holds "
            "{got} where {expected} is expected."
        ).format(name=who, shape=shape, index=where, got=mine, expected=theirs)


def _distribution_hint(who: str, got: np.ndarray, expected: np.ndarray, axis: int, close) -> str:
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
            return mine, theirs
    return _num(g), _num(e)


def _constant_ratio(got: np.ndarray, expected: np.ndarray) -> float | None:
    g, e = got.astype(float).ravel(), expected.astype(float).ravel()
    mask = np.abs(e) > 1e-12
    if mask.sum() < 2 or not np.all(np.isfinite(g)) or not np.all(np.isfinite(e)):
        return None
    ratios = g[mask] / e[mask]
    r = float(np.median(ratios))
    if abs(r - 1) < 1e-6 or abs(r) < 1e-12:
        return None
    if np.allclose(ratios, r, rtol=1e-6) and np.allclose(g[~mask], 0, atol=1e-9):
        return r
    return None


def _num(x: Any) -> str:
    x = np.asarray(x)
    if x.dtype.kind in "iub":
        return str(x.item())
    return f"{float(x):.4g}" if x.dtype.kind == "f" else str(x.item())


def _brief(value: Any) -> str:
    if isinstance(value, str):
        return value if len(value) <= 60 else value[:57] + "..."
    value = np.asarray(value)
    if value.ndim == 0:
        return _num(value)
    return _("an array of shape {shape}").format(shape=_shape(value.shape))


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
    to sum to 1 along an axis (see ``describe_difference``)."""
    tolerance, distributions = tolerance or {}, distributions or {}
    messages: list[str] = []
    undefined = [n for n in names if n in expected and got.get(n) is None]
    if undefined:
        quoted = [f"`{n}`" for n in undefined]
        listed = (
            _("{names} and {last}").format(names=", ".join(quoted[:-1]), last=quoted[-1])
            if len(quoted) > 1
            else quoted[0]
        )
        messages.append(
            ngettext(
                "{names} is not defined when your program ends: the task asks for it as "
                "variables at the top level.",
                "{names} are not defined when your program ends: the task asks for them as "
                "variables at the top level.",
                len(undefined),
            ).format(names=listed)
        )
    for name in names:
        if name not in expected or name in undefined:
            continue  # the solution does not define it on this case: nothing to compare with
        r, a = tolerance.get(name, (rtol, atol))
        messages += describe_difference(
            name,
            got.get(name),
            expected[name],
            r,
            a,
            axis=distributions.get(name),
            exact_dtype=exact_dtype,
            hints=hints,
        )
    return messages
