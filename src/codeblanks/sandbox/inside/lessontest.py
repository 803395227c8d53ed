"""Function tests of a lesson, run inside the sandbox after the learner's code (standard library
only; NumPy is used when the program already imported it).

A lesson's tests.py imports ``test``, ``raises`` and ``unchanged`` from here. ``run`` executes
the tests one by one and leaves, in the program's namespace, what the grader captures: each
test's return value as ``__test_<i>__`` and the list of outcomes as JSON in ``__tests__``. The
grader compares the returned values with the solution's in its own process; only a property
test's pass or fail (an exception or not) is decided here, in the learner's process.

A NumPy array or scalar is left as it is (it travels as .npy); any other value is written out
here as JSON data (``encode``): tagged for what JSON has no word for (tuples, dicts, sets,
iterators, objects), with an iterator consumed up to ``ITEMS`` values, so that the grader reads
data and never runs or unpickles the learner's objects. The runner writes every captured
variable that is not a number or an array the same way (``dumps``): the grader has one reader
and one engine for Python values.
"""

from __future__ import annotations

import functools
import io
import json
import sys
import traceback

TYPE_CHECKING = False  # what mypy reads as True: typing is never imported in the sandbox
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from types import TracebackType
    from typing import Any, Literal

    Test = Callable[[], object]  # a declared test: run with no arguments

RESULTS = "__tests__"
MAX_INPUT = 400  # characters of an input shown in feedback
ITEMS = 100_000  # values taken from an iterator a test returns (more: reported as unbounded)
NODES = 2_000_000  # values written out for one result, in all...
TEXT = 3_000_000  # ...and characters of their numbers and strings (within the sandbox's 4 MB)
DEPTH = 50  # containers inside containers
MAX_DIGITS = 4000  # an int longer than this is written in hex (JSON's ints are decimal)
_registered: list[tuple[str, bool, Test]] = []


class Written(str):
    """JSON text already written here (the outcomes, a test's result): the runner sends it as
    it is, not as a string to write out again."""


class TooLarge(Exception):
    """A value holds more than ``NODES`` values or ``TEXT`` characters."""


def dumps(value: object) -> Written:
    """``value`` as JSON text (``encode``); TooLarge past the budget."""
    return Written(json.dumps(encode(value), separators=(",", ":")))


def value_name(index: int) -> str:
    return f"__test_{index}__"


def test(
    name: str,
    *,
    hidden: bool = False,
    rtol: float | None = None,
    atol: float | None = None,
    exact: bool = False,
    unordered: bool = False,
) -> Callable[[Test], Test]:
    """Declare a test. It returns a value (compared with what it returns against the solution)
    or returns nothing and checks a property with ``assert``, ``raises`` or ``unchanged``. The
    options are read from the source by the loader and applied by the grader."""

    def register(function: Test) -> Test:
        _registered.append((name, hidden, function))
        return function

    return register


class Failed(AssertionError):
    """A property does not hold; the message says which."""


class raises:
    """``with raises(ValueError): f(bad)`` passes only if the block raises one of ``types`` or a
    subclass (``exact=True``: one of them exactly), with ``match`` in its message or ``message``
    as its whole message, when given (as ``str(error)``, unittest's ``err.exception.args[0]``)."""

    def __init__(
        self,
        *types: type[BaseException],
        match: str | None = None,
        message: str | None = None,
        exact: bool = False,
    ) -> None:
        self.types = types or (Exception,)
        self.match = match
        self.message = message
        self.exact = exact

    def __enter__(self) -> raises:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        names = " or ".join(t.__name__ for t in self.types)
        if kind is None:
            raise Failed(f"expected {names}, but nothing was raised")
        if not issubclass(kind, self.types):
            return False  # another error: reported as the test's error
        if self.exact and kind not in self.types:
            raise Failed(f"{kind.__name__} was raised, but exactly {names} is expected")
        if self.match is not None and self.match not in str(error):
            raise Failed(
                f"{kind.__name__} was raised, but its message does not mention {self.match!r}"
            )
        if self.message is not None and str(error) != self.message:
            said = _brief(str(error))
            raise Failed(
                f"{kind.__name__} was raised with the message {said}, "
                f"but the message {_brief(self.message)} is expected"
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

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> Literal[False]:
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


def _recording(function: Callable[..., object], calls: list[str]) -> Callable[..., object]:
    """``function``, noting how each call is made (the first call is the test's input)."""

    @functools.wraps(function)
    def call(*args: object, **kwargs: object) -> object:
        if not calls:
            shown = [_brief(a) for a in args] + [f"{k}={_brief(v)}" for k, v in kwargs.items()]
            calls.append(f"{function.__name__}({', '.join(shown)})")
        return function(*args, **kwargs)

    return call


def _line_in(tb: TracebackType | None, filename: str) -> int | None:
    line = None
    for frame, lineno in traceback.walk_tb(tb):
        if frame.f_code.co_filename == filename:
            line = lineno
    return line


def run(namespace: dict[str, object], source: str, learner_file: str) -> None:
    """Run every test declared by ``source``; leave the outcomes in ``namespace``."""
    outcomes: list[dict[str, object]] = []
    namespace[RESULTS] = Written(json.dumps(outcomes))
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
                try:
                    kept, outcome["encoded"] = _kept(value)
                except TooLarge:
                    outcome.update(status="too-large", message="too large to compare")
                except BaseException as error:  # raised while a returned iterator was consumed
                    outcome = _error(name, hidden, error, learner_file, calls)
                else:  # JSON text the runner sends as it is (a forged one too: read warily)
                    encoded = outcome["encoded"] and isinstance(kept, str)
                    namespace[value_name(index)] = Written(kept) if encoded else kept
            outcome["input"] = calls[0] if calls else ""
            outcomes.append(outcome)
    finally:
        sys.stdout, sys.stderr = saved
        namespace[RESULTS] = Written(json.dumps(outcomes))


def _error(
    name: str, hidden: bool, error: BaseException, learner_file: str, calls: list[str] | None
) -> dict[str, object]:
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


def _kept(value: object) -> tuple[object, bool]:
    """What the grader captures of a returned value, and whether it is JSON text (else a NumPy
    array or scalar, sent as .npy)."""
    np = sys.modules.get("numpy")
    if (
        np is not None
        and isinstance(value, np.ndarray | np.generic)
        and np.asarray(value).dtype.kind in "biufc"
    ):
        return value, False
    return dumps(value), True


def encode(value: object) -> object:
    """``value`` as JSON data: None, bools, ints, floats, strings and lists as themselves; every
    other kind as ``{"$": kind, "v": ..., "t": its type's name when not the plain one}``."""
    return _Encoder().encode(value, 0)


class _Encoder:
    def __init__(self) -> None:
        self.left = NODES
        self.text = TEXT
        self.open: set[int] = set()  # containers being written: a value inside itself is a cycle

    # Any: a learner's value, told apart by its exact type (``kind is str``), which mypy does not
    # narrow by; isinstance would let subclasses through, and cost on every value.
    def encode(self, value: Any, depth: int) -> object:
        self.left -= 1
        if self.left < 0:
            raise TooLarge
        kind = type(value)
        if kind is str or kind is int:
            self.text -= len(value) if kind is str else value.bit_length() // 3
            if self.text < 0:
                raise TooLarge
        if value is None or kind is bool or kind is str or kind is float:
            return value
        if kind is int:
            if value.bit_length() > MAX_DIGITS * 3:
                return {"$": "int", "v": hex(value)}
            return value
        if depth >= DEPTH or id(value) in self.open:
            return self._object(value, "deep" if depth >= DEPTH else "cycle")
        self.open.add(id(value))
        try:
            return self._container(value, depth + 1)
        finally:
            self.open.discard(id(value))

    def _flat(self, values: list[Any]) -> list[Any] | None:
        """A list of ints, floats or strings only (the common long result), as it is: counted
        at C speed rather than written out item by item. None for any other list."""
        kinds = set(map(type, values))
        if not values or len(kinds) != 1 or not kinds <= {int, float, str}:
            return None
        (kind,) = kinds
        if kind is int and max(map(int.bit_length, values)) > MAX_DIGITS * 3:
            return None
        size = sum(map(len, values if kind is str else map(repr, values)))
        self.left -= len(values)
        self.text -= size
        if self.left < 0 or self.text < 0:
            raise TooLarge
        return values

    def _items(self, values: Iterable[object], depth: int) -> list[object]:
        return [self.encode(v, depth) for v in values]

    def _container(self, value: Any, depth: int) -> object:
        from collections.abc import Iterator, Mapping, Set

        kind = type(value)
        named = {} if kind in (list, tuple, dict, set, bytes) else {"t": kind.__name__}
        np = sys.modules.get("numpy")
        if kind is list:
            return self._flat(value) or self._items(value, depth)
        if isinstance(value, complex):
            return {"$": "complex", "v": [value.real, value.imag], **named}
        if isinstance(value, int | float):  # a subclass: an IntEnum, NumPy's float64, ...
            plain = int(value) if isinstance(value, int) else float(value)
            return {"$": "number", "v": self.encode(plain, depth), "t": kind.__name__}
        if isinstance(value, str):
            return {"$": "str", "v": str(value), "t": kind.__name__}
        if isinstance(value, list):
            return {"$": "list", "v": self._items(value, depth), **named}
        if isinstance(value, tuple):
            return {"$": "tuple", "v": self._items(value, depth), **named}
        if isinstance(value, Mapping):
            pairs = [[self.encode(k, depth), self.encode(v, depth)] for k, v in value.items()]
            return {"$": "dict", "v": pairs, **named}
        if isinstance(value, Set):
            return {"$": "set", "v": self._items(value, depth), **named}
        if isinstance(value, bytes | bytearray):
            return {"$": "bytes", "v": bytes(value).hex(), **named}
        if np is not None and isinstance(value, np.ndarray | np.generic):
            return self._array(np, value)
        if isinstance(value, Iterator):
            return self._iterator(value, depth)
        return self._object(value, "", depth)

    def _array(self, np: Any, value: Any) -> object:
        """A NumPy array or scalar of numbers, as lists, while the item count allows; any other
        (of objects, or too many items) as an object."""
        array = np.asarray(value)
        if array.dtype.kind not in "biufc" or array.size > self.left:
            return self._object(value, "")
        self.left -= array.size
        plain = _plain_width(np, array)
        data = plain.tolist()
        if array.dtype.kind == "c":
            data = [[z.real, z.imag] for z in plain.ravel().tolist()]
        return {"$": "array", "v": data, "dtype": str(array.dtype), "shape": list(array.shape)}

    def _iterator(self, value: Any, depth: int) -> object:
        """An iterator's first ``ITEMS`` values, and whether it had more (it may never end)."""
        taken: list[object] = []
        for item in value:
            if len(taken) == ITEMS:
                return {"$": "iter", "v": taken, "more": True, "t": type(value).__name__}
            taken.append(self.encode(item, depth))
        return {"$": "iter", "v": taken, "more": False, "t": type(value).__name__}

    def _object(self, value: object, why: str, depth: int = DEPTH) -> dict[str, object]:
        """Any other value: its type's name, its repr and (for a plain object) its attributes,
        which is what tells two instances apart across two runs."""
        found: dict[str, object] = {"$": "object", "t": type(value).__name__, "r": _brief(value)}
        if why:
            found["why"] = why
            return found
        if isinstance(value, BaseException):
            found["v"] = [[self.encode("args", depth), self.encode(value.args, depth)]]
            return found
        attributes = getattr(value, "__dict__", None)
        if isinstance(attributes, dict) and depth < DEPTH:
            found["v"] = [
                [key, self.encode(attributes[key], depth)]
                for key in sorted(k for k in attributes if isinstance(k, str))
                if not key.startswith("__")
            ]
        return found


def _plain_width(np: Any, array: Any) -> Any:
    """A longdouble (float128) or clongdouble array's values as float64 or complex128: their
    ``tolist()`` keeps NumPy scalars, which JSON cannot write. Its dtype's name still travels."""
    kind, size = array.dtype.kind, array.dtype.itemsize
    if kind == "f" and size > 8:
        return array.astype(np.float64)
    if kind == "c" and size > 16:
        return array.astype(np.complex128)
    return array
