"""What text the database can keep. PostgreSQL's text refuses NUL; no UTF-8 column (SQLite's or
PostgreSQL's) can hold a lone surrogate (U+D800 to U+DFFF), which JSON can spell (``"\\ud800"``)
though no UTF-8 form can. Finding them here lets the views refuse in words before a save fails
with a 500."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Unkeepable:
    line: int  # from 1
    char: str  # "U+D800", or "\\x00" for NUL

    @property
    def is_nul(self) -> bool:
        return self.char == "\\x00"


def unkeepable(text: str) -> Unkeepable | None:
    """The first character of ``text`` no database column can keep, and its line."""
    nul = text.find("\x00")
    found = _SURROGATE.search(text)
    spot = found.start() if found else -1
    if nul >= 0 and (spot < 0 or nul < spot):
        return Unkeepable(text.count("\n", 0, nul) + 1, "\\x00")
    if spot >= 0:
        return Unkeepable(text.count("\n", 0, spot) + 1, f"U+{ord(text[spot]):04X}")
    return None
