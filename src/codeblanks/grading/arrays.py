"""The 2-D arrays a wrong answer got wrong, kept for the verdict to draw as pictures.

A table of attention weights or a mask is easier seen than read: when a value the lesson checks
is a 2-D real array (in the learner's run or the solution's) and differs, the grade keeps both
sides, cut to ``CAP`` x ``CAP`` cells, with their full shapes and which cells differ. Plain
Python numbers only, so a grade stays cheap to keep and to send (``to_json``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from codeblanks.grading.values import close_cells, tolerance_for

CAP = 16  # rows and columns kept of each array
MOST = 2  # arrays kept per grade, in the lesson's order of values

Number = bool | int | float
Grid = tuple[tuple[Number, ...], ...]


@dataclass(frozen=True)
class ArraySide:
    shape: tuple[int, int]  # the whole array's
    cells: Grid  # its first CAP rows and columns

    def to_json(self) -> dict[str, Any]:
        return {
            "shape": list(self.shape),
            "cells": [[json_number(v) for v in r] for r in self.cells],
        }


@dataclass(frozen=True)
class ArrayPair:
    name: str
    got: ArraySide | None  # None: the learner's value is not a 2-D real array
    expected: ArraySide | None
    differ: tuple[tuple[bool, ...], ...] | None = None  # per kept cell; None: shapes differ

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "got": self.got.to_json() if self.got else None,
            "expected": self.expected.to_json() if self.expected else None,
            "differ": [list(r) for r in self.differ] if self.differ is not None else None,
        }


def json_number(value: object) -> Number | str:
    """JSON has no NaN or infinity: those travel as the strings "nan", "inf" and "-inf". Any
    other number (a NumPy scalar, a longdouble) as Python's own, so ``json.dumps`` takes it."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return str(value)
    if not math.isfinite(number):
        return "nan" if math.isnan(number) else ("inf" if number > 0 else "-inf")
    return number


def _grid(value: Any) -> np.ndarray | None:
    if not isinstance(value, np.ndarray) or value.ndim != 2 or value.dtype.kind not in "biuf":
        return None
    return value


def _side(array: np.ndarray | None) -> ArraySide | None:
    if array is None:
        return None
    part = array[:CAP, :CAP]
    if part.dtype.kind == "f" and part.dtype.itemsize > 8:  # longdouble: its tolist() keeps it
        with np.errstate(all="ignore"):
            part = part.astype(np.float64)
    cells = part.tolist()  # Python bools, ints and floats
    return ArraySide((int(array.shape[0]), int(array.shape[1])), tuple(map(tuple, cells)))


def _differ(got: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    rtol, atol = tolerance_for(rtol, atol, got, expected)
    return ~close_cells(got, expected, rtol, atol)


def array_pairs(
    got: dict[str, Any],
    expected: dict[str, Any],
    names: tuple[str, ...],
    rtol: float = 0.0,
    atol: float = 0.0,
    tolerance: dict[str, tuple[float, float]] | None = None,
) -> tuple[ArrayPair, ...]:
    """The checked values (``names``) that differ and are 2-D real arrays on at least one side,
    at most ``MOST`` of them."""
    pairs = []
    for name in names:
        mine, theirs = _grid(got.get(name)), _grid(expected.get(name))
        if mine is None and theirs is None or got.get(name) is None:
            continue
        differ = None
        if mine is not None and theirs is not None and mine.shape == theirs.shape:
            r, a = (tolerance or {}).get(name, (rtol, atol))
            cells = _differ(mine, theirs, r, a)
            if not cells.any():
                continue
            differ = tuple(map(tuple, cells[:CAP, :CAP].tolist()))
        pairs.append(ArrayPair(name, _side(mine), _side(theirs), differ))
        if len(pairs) == MOST:
            break
    return tuple(pairs)
