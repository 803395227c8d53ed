"""Counting what a program computes with an input, for a task rule that bounds its work (a KV
cache projects each key once: ``count = ["W_k"]``).

The grader gives a counted input to the program wrapped in an array that counts the rows it is
multiplied with (``x @ W_k``, ``np.dot``, ``np.einsum``...) and behaves as the array otherwise.
The total is left in a variable the run hands back (``count_name``), for the solution and the
learner alike, so the two can be compared case by case (``rules.py``). The wrapping replaces
only the input's assignment, on its own lines: every other line keeps its number.
"""

from __future__ import annotations

from codeblanks.content.model import Lesson

# Runs inside the sandbox, in the learner's process: it adds to the count in the program's
# globals and hands back plain arrays, so nothing else of the program sees the wrapper.
_COUNTER = """
import numpy as np

def count(where, name, value):
    width = max(1, int(np.shape(value)[-1]) if np.ndim(value) else 1)
    key = "__count_" + name + "__"
    where[key] = 0

    def plain(x):
        if isinstance(x, Counted):
            return np.asarray(x)
        if isinstance(x, (list, tuple)):
            return type(x)(plain(y) for y in x)
        return x

    def add(out):
        where[key] = where.get(key, 0) + max(1, int(np.size(out)) // width)

    products = {np.dot, np.einsum, np.tensordot, np.inner, np.vdot, np.linalg.multi_dot}

    class Counted(np.ndarray):
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            out = getattr(ufunc, method)(*plain(inputs), **plain(kwargs))
            if ufunc is np.matmul and method == "__call__":
                add(out)
            return out

        def __array_function__(self, func, types, args, kwargs):
            if func in products:
                out = func(*plain(args), **kwargs)
                add(out)
                return out
            return super().__array_function__(func, types, args, kwargs)

    return np.asarray(value).view(Counted)
"""


def count_name(name: str) -> str:
    """The variable a run leaves the count of ``name``'s products in."""
    return f"__count_{name}__"


def counted(lesson: Lesson) -> tuple[str, ...]:
    """The inputs the lesson's rules count, in order."""
    return tuple(dict.fromkeys(n for rule in lesson.exercise.grading.rules for n in rule.count))


def count_capture(lesson: Lesson) -> tuple[str, ...]:
    """The variables a run must hand over for the counting rules to be judged."""
    return tuple(count_name(n) for n in counted(lesson))


def wrap(name: str, expression: str) -> str:
    """``expression``, counted as the input ``name``: an expression on as many lines."""
    maker = f"(lambda n: exec(compile({_COUNTER!r}, '<counting>', 'exec'), n) or n['count'])({{}})"
    return f"{maker}(globals(), {name!r}, ({expression}))"


def counting_values(lesson: Lesson, values: dict[str, str], own: dict[str, str]) -> dict[str, str]:
    """A case's input expressions with the counted inputs wrapped; an input the case leaves as
    the program wrote it (``own``: the program's expressions) is wrapped as written. An input
    the program does not assign stays out (its case is then not counted)."""
    made = dict(values)
    for name in counted(lesson):
        expression = values.get(name, own.get(name))
        if expression is not None:
            made[name] = wrap(name, expression)
    return made
