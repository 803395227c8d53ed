"""Typed reads of one TOML table: each read returns a usable value (the default when the value is
missing or wrong) and records the problem, with the line of the key, so that one pass reports
everything that is wrong with a file."""

from __future__ import annotations

import difflib
import math
import re
from pathlib import Path
from typing import Any

from codeblanks.content.codes import problem
from codeblanks.content.problems import Problem
from codeblanks.content.prose import CONTROL
from codeblanks.content.tomlpos import Locator

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

_TYPE_NAMES = {
    str: "a string",
    list: "a list",
    dict: "a table",
    float: "a number",
    int: "an integer",
}


def type_name(value: Any) -> str:
    """How a TOML value's type is called in messages."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    return f"a {type(value).__name__}"


class Table:
    """One table of a TOML file (``where`` is its dotted name, ``index`` its occurrence)."""

    def __init__(
        self,
        data: Any,
        *,
        path: Path,
        locator: Locator,
        problems: list[Problem],
        where: str = "",
        index: int = 0,
        label: str = "",
    ) -> None:
        self.path = path
        self.locator = locator
        self.problems = problems
        self.where = where
        self.index = index
        self.label = label or (f"[{where}]" if where else path.name)
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}
        # keys an unknown key looked like: their absence is already reported as the typo
        self.misspelt: set[str] = set()

    def line(self, key: str | None = None) -> int | None:
        return self.locator.key(self.where, key, self.index)

    def report(self, code: str, key: str | None, message: str, fix: str | None = None) -> None:
        self.problems.append(problem(code, self.path, self.line(key), message, fix))

    def has(self, key: str) -> bool:
        return key in self.data

    def _get(self, key: str, required: bool) -> Any:
        if key not in self.data:
            if required and key not in self.misspelt:
                self.report("content.E010", None, f"{self.label} has no `{key}`", f"add `{key}`")
            return None
        return self.data[key]

    def _wrong(self, key: str, value: Any, wanted: str) -> None:
        self.report(
            "content.E011",
            key,
            f"{self.label} `{key}` is {type_name(value)}; it must be {wanted}",
            f"make `{key}` {wanted}",
        )

    def text(
        self, key: str, *, required: bool = True, default: str = "", nonempty: bool = True
    ) -> str:
        """A string value; empty (whitespace only) is a problem when ``nonempty``."""
        value = self._get(key, required)
        if value is None:
            return default
        if not isinstance(value, str):
            self._wrong(key, value, "a string")
            return default
        if nonempty and not value.strip():
            self.report("content.E013", key, f"{self.label} `{key}` is empty", f"write `{key}`")
            return default
        self._controls(key, (value,))
        return value

    def _controls(self, key: str, values: tuple[str, ...]) -> None:
        """content.E113 when a text holds a control character (a TOML ``"\\text"`` is a TAB)."""
        for value in values:
            found = CONTROL.search(value)
            if found is not None:
                code = f"U+{ord(found.group()):04X}"
                self.report("content.E113", key, f"{self.label} `{key}` holds {code}")
                return

    def slug(self, key: str, code: str) -> str:
        value = self.text(key)
        if value and not SLUG.fullmatch(value):
            self.report(code, key, f"{self.label} `{key}` {value!r} is not a slug")
        return value

    def texts(
        self, key: str, *, required: bool = False, nonempty_items: bool = True
    ) -> tuple[str, ...]:
        """A list of strings (each non-empty when ``nonempty_items``)."""
        value = self._get(key, required)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self._wrong(key, value, "a list of strings")
            return ()
        if nonempty_items and any(not item.strip() for item in value):
            self.report("content.E013", key, f"{self.label} `{key}` has an empty item")
            return tuple(item for item in value if item.strip())
        self._controls(key, tuple(value))
        return tuple(value)

    def hints(self, key: str = "hints") -> tuple[str, ...]:
        """Hints: an ordered, non-empty list of distinct, non-empty strings (none when absent)."""
        hints = self.texts(key)
        raw = self.data.get(key)
        if isinstance(raw, list) and not raw:
            self.report("content.E080", key, f"{self.label} `{key}` is an empty list")
        for index, hint in enumerate(hints):
            if hint.strip() in (earlier.strip() for earlier in hints[:index]):
                self.report(
                    "content.E081", key, f"{self.label} hint {index + 1} repeats an earlier hint"
                )
                break
        return hints

    def flag(self, key: str, *, default: bool = False) -> bool:
        """A boolean value, or ``default``."""
        value = self._get(key, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            self._wrong(key, value, "true or false")
            return default
        return value

    def number(
        self, key: str, *, default: float | None, minimum: float, above: bool = False
    ) -> float | None:
        """A finite number >= ``minimum`` (> when ``above``), or ``default``."""
        value = self._get(key, False)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            self._wrong(key, value, "a number")
            return default
        ok = math.isfinite(value) and (value > minimum if above else value >= minimum)
        if not ok:
            bound = f"above {minimum:g}" if above else f"at least {minimum:g}"
            self.report("content.E046", key, f"{self.label} `{key}` = {value} must be {bound}")
            return default
        return float(value)

    def integer(self, key: str, *, minimum: int) -> int | None:
        value = self._get(key, False)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self._wrong(key, value, "an integer")
            return None
        if value < minimum:
            self.report("content.E046", key, f"{self.label} `{key}` = {value} must be >= {minimum}")
            return None
        return value

    def tables(self, key: str) -> list[Any]:
        """An array of tables (``[[key]]``): the list of raw tables, or [] after a problem."""
        value = self._get(key, False)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            self._wrong(key, value, f"an array of tables ([[{self._child(key)}]])")
            return []
        return value

    def table(self, key: str) -> Table:
        """A sub-table (``[key]``); a missing one reads as empty."""
        value = self._get(key, False)
        if value is not None and not isinstance(value, dict):
            self._wrong(key, value, f"a table ([{self._child(key)}])")
        return Table(
            value,
            path=self.path,
            locator=self.locator,
            problems=self.problems,
            where=self._child(key),
        )

    def child(self, key: str, index: int, data: Any, label: str) -> Table:
        return Table(
            data,
            path=self.path,
            locator=self.locator,
            problems=self.problems,
            where=self._child(key),
            index=index,
            label=label,
        )

    def _child(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def unknown(self, allowed: set[str] | frozenset[str]) -> list[str]:
        """Report every key that is not in ``allowed`` (with the closest allowed key) and return
        them."""
        extra = [key for key in self.data if key not in allowed]
        for key in extra:
            close = difflib.get_close_matches(key, sorted(allowed), n=1)
            if close and close[0] not in self.data:
                self.misspelt.add(close[0])
            fix = (
                f"did you mean `{close[0]}`?" if close else f"allowed: {', '.join(sorted(allowed))}"
            )
            self.report("content.E012", key, f"{self.label} has an unknown key `{key}`", fix)
        return extra
