"""What text the database can keep. PostgreSQL's text refuses NUL; no UTF-8 column (SQLite's or
PostgreSQL's) can hold a lone surrogate (U+D800 to U+DFFF), which JSON can spell (``"\\ud800"``)
though no UTF-8 form can. Finding them here lets the views refuse in words before a save fails
with a 500.

Both are found at C speed (``str.find``, ``str.isascii``, an encoding that stops at the first
surrogate): the web checks every program it is sent, up to 64 KiB, on its event loop, where a
regular expression's walk over each character took over a millisecond (security review S7)."""

from __future__ import annotations

from dataclasses import dataclass


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
    spot = -1 if text.isascii() else _surrogate_at(text)
    if nul >= 0 and (spot < 0 or nul < spot):
        return Unkeepable(text.count("\n", 0, nul) + 1, "\\x00")
    if spot >= 0:
        return Unkeepable(text.count("\n", 0, spot) + 1, f"U+{ord(text[spot]):04X}")
    return None


def _surrogate_at(text: str) -> int:
    """Where the first lone surrogate of ``text`` is, or -1: strict UTF-8 encodes every other
    character and stops at the first surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return -1
