"""Function tests of a lesson, run inside the sandbox after the learner's code (standard library
only; NumPy is used when the program already imported it).

A lesson's tests.py imports ``test``, ``raises`` and ``unchanged`` from here. ``run`` executes
the tests one by one and leaves, in the program's namespace, what the grader captures: each
test's return value as ``__test_<i>__`` and the list of outcomes as JSON in ``__tests__``. The
grader compares the returned values with the solution's in its own process; only a property
test's pass or fail (an exception or not) is decided here, in the learner's process.
"""

from __future__ import annotations

import functools
import io
import json
import sys
import traceback

RESULTS = "__tests__"
MAX_INPUT = 400  # characters of an input shown in feedback
_registered: list[tuple[str, bool, object]] = []


def value_name(index: int) -> str:
    return f"__test_{index}__"


def test(name: str, *, hidden: bool = False, rtol: float | None = None, atol: float | None = None):
    """Declare a test. It returns a value (compared with what it returns against the solution)
    or returns nothing and checks a property with ``assert``, ``raises`` or ``unchanged``."""

    def register(function):
        _registered.append((name, hidden, function))
        return function

    return register


class Failed(AssertionError):
    """A property does not hold; the message says which."""


class raises:
    """``with raises(ValueError): f(bad)`` passes only if the block raises one of ``types``
    (with ``match`` in its message, when given)."""

    def __init__(self, *types: type[BaseException], match: str | None = None) -> None:
        self.types = types or (Exception,)
        self.match = match

    def __enter__(self) -> raises:
        return self

    def __exit__(self, kind, error, tb) -> bool:
        names = " or ".join(t.__name__ for t in self.types)
        if kind is None:
            raise Failed(f"expected {names}, but nothing was raised")
        if not issubclass(kind, self.types):
            return False  # another error: reported as the test's error
        if self.match is not None and self.match not in str(error):
            raise Failed(
                f"{kind.__name__} was raised, but its message does not mention {self.match!r}"
            )
        return True


class unchanged:
    """``with unchanged(x): f(x)`` passes only if ``x`` holds the same values afterwards."""

    def __init__(self, *values: object) -> None:
        import copy  # here: most runs never check a property

        self.values = values
        self.before = [copy.deepcopy(v) for v in values]

    def __enter__(self) -> unchanged:
        return self

    def __exit__(self, kind, error, tb) -> bool:
        if kind is None:
            for position, (now, then) in enumerate(
                zip(self.values, self.before, strict=True), start=1
            ):
                if not _same(now, then):
                    which = "its argument" if len(self.values) == 1 else f"argument {position}"
                    raise Failed(
                        f"the function changed {which} in place; compute a new value instead"
                    )
        return False


def _same(a: object, b: object) -> bool:
    np = sys.modules.get("numpy")
    if np is not None and isinstance(a, np.ndarray):
        return (
            isinstance(b, np.ndarray)
            and a.shape == b.shape
            and bool(np.array_equal(a, b, equal_nan=True))
        )
    try:
        return bool(a == b)
    except Exception:
        return False


def _brief(value: object) -> str:
    """How an input is shown to the learner: in full when short, else by its shape. (Written
    from ``tolist()``: NumPy's own printing costs a tenth of a millisecond per array, on every
    call of every test.)"""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        if value.size <= 64:
            shown = value.round(4) if value.dtype.kind in "fc" else value
            dtype = "" if value.dtype == np.float64 else f", dtype=np.{value.dtype}"
            text = f"np.array({shown.tolist()!r}{dtype})"
            if len(text) <= MAX_INPUT:
                return text
        return f"an array of shape {value.shape} ({value.dtype})"
    try:
        text = repr(value)
    except Exception:
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= MAX_INPUT else text[: MAX_INPUT - 3] + "..."


def _recording(function, calls: list[str]):
    """``function``, noting how each call is made (the first call is the test's input)."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        if not calls:
            shown = [_brief(a) for a in args] + [f"{k}={_brief(v)}" for k, v in kwargs.items()]
            calls.append(f"{function.__name__}({', '.join(shown)})")
        return function(*args, **kwargs)

    return call


def _line_in(tb, filename: str) -> int | None:
    line = None
    for frame, lineno in traceback.walk_tb(tb):
        if frame.f_code.co_filename == filename:
            line = lineno
    return line


def run(namespace: dict, source: str, learner_file: str) -> None:
    """Run every test declared by ``source``; leave the outcomes in ``namespace``."""
    outcomes: list[dict] = []
    namespace[RESULTS] = json.dumps(outcomes)
    _registered.clear()
    calls: list[str] = []
    scope = dict(namespace)
    for key, value in namespace.items():
        code = getattr(value, "__code__", None)
        if callable(value) and code is not None and code.co_filename == learner_file:
            scope[key] = _recording(value, calls)
    scope["__name__"] = "tests"
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()  # prints during tests are not the program's output
    try:
        try:
            exec(compile(source, "tests.py", "exec", dont_inherit=True), scope)
        except BaseException as error:  # the learner's code removed something the tests use
            outcomes.append(_error("(loading the tests)", False, error, learner_file, None))
            return
        for index, (name, hidden, function) in enumerate(list(_registered)):
            calls.clear()
            outcome = {"name": name, "hidden": hidden, "status": "passed", "message": ""}
            try:
                value = function()
            except Failed as failure:
                outcome.update(status="failed", message=str(failure))
            except AssertionError as failure:
                outcome.update(
                    status="failed", message=str(failure) or "a check of this test failed"
                )
            except BaseException as error:
                outcome = _error(name, hidden, error, learner_file, calls)
            else:
                outcome["returned"] = value is not None
                if value is not None:
                    namespace[value_name(index)] = value
            outcome["input"] = calls[0] if calls else ""
            outcomes.append(outcome)
    finally:
        sys.stdout, sys.stderr = saved
        namespace[RESULTS] = json.dumps(outcomes)


def _error(name: str, hidden: bool, error: BaseException, learner_file: str, calls) -> dict:
    text = str(error)
    if len(text) > MAX_INPUT:
        text = text[: MAX_INPUT - 3] + "..."
    return {
        "name": name,
        "hidden": hidden,
        "status": "error",
        "message": f"{type(error).__name__}: {text}" if text else type(error).__name__,
        "line": _line_in(error.__traceback__, learner_file),
    }
