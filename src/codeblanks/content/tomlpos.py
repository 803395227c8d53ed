"""Line numbers for TOML keys and tables.

``tomllib`` gives values without positions, so problems about a value find the line again in
the text: a light scan that knows table headers (``[a]``, ``[[a.b]]``, counted per name), key
lines (``key = ...``), multi-line strings and multi-line arrays. It only has to be right for
files that parsed; when it cannot find a key it falls back to the table's header line.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*(\[\[|\[)([^\[\]]+)(\]\]|\])\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*[.=]""")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')
_TRIPLE = ('"""', "'''")


def _table_name(raw: str) -> str:
    parts = [part.strip().strip("\"'") for part in raw.split(".")]
    return ".".join(parts)


class Locator:
    """Where things are in one TOML text. Tables are named by their dotted path, the root is
    ``""``; array tables take the ``index`` of their occurrence (0-based)."""

    def __init__(self, text: str) -> None:
        # (name, index) -> header line; (name, index) -> {key: line}
        self._tables: dict[tuple[str, int], int] = {}
        self._keys: dict[tuple[str, int], dict[str, int]] = {("", 0): {}}
        self._scan(text)

    def _scan(self, text: str) -> None:
        counts: dict[str, int] = {}
        current = ("", 0)
        in_string: str | None = None  # the open triple quote
        depth = 0  # open brackets/braces of a value spread over lines
        for number, line in enumerate(text.splitlines(), start=1):
            if in_string is not None:
                if line.count(in_string) % 2 == 1:
                    in_string = None
                continue
            if depth == 0:
                header = _HEADER.match(line)
                if header and (header.group(1) == "[[") == (header.group(3) == "]]"):
                    name = _table_name(header.group(2))
                    index = counts.get(name, 0)
                    counts[name] = index + 1
                    current = (name, index)
                    self._tables.setdefault(current, number)
                    self._keys.setdefault(current, {})
                    continue
                key = _KEY.match(line)
                if key:
                    self._keys[current].setdefault(key.group(1).strip("\"'"), number)
            for quote in _TRIPLE:
                if line.count(quote) % 2 == 1:
                    in_string = quote
                    break
            if in_string is None:
                bare = _STRING.sub("", line).split("#", 1)[0]
                depth = max(0, depth + bare.count("[") + bare.count("{"))
                depth = max(0, depth - bare.count("]") - bare.count("}"))

    def table(self, name: str, index: int = 0) -> int | None:
        """The header line of a table, or None (the root, an inline or an implicit table)."""
        return self._tables.get((name, index))

    def key(self, name: str, key: str | None = None, index: int = 0) -> int | None:
        """The line of ``key`` in a table, else the table's header, else the line of the key that
        holds it as an inline table (``distributions = {...}``, ``exercise = {...}``), else None."""
        if key is not None:
            line = self._keys.get((name, index), {}).get(key)
            if line is not None:
                return line
        line = self.table(name, index)
        if line is not None:
            return line
        if name:  # an inline table: the line of its key in the table that holds it
            parent, _, last = name.rpartition(".")
            line = self._keys.get((parent, 0), {}).get(last)
            return line if line is not None else self._keys[("", 0)].get(name.split(".", 1)[0])
        return None
