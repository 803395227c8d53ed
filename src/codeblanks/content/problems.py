"""Problems found in content: values, never exceptions. Each has a stable code (documented in
docs/authoring.md, with a broken-lesson fixture in tests/content/fixtures), the file and line it
is about, what is wrong and how to fix it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    code: str  # e.g. "content.E104"; W instead of E: a warning
    path: Path
    line: int | None
    message: str
    fix: str = ""
    detail: str = ""  # lines shown under the problem, e.g. what a solution printed

    @property
    def warning(self) -> bool:
        """A warning (``content.W001``) is worth reading but does not fail a check."""
        return self.code.partition(".")[2].startswith("W")

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        text = f"{self.code} {where}: {self.message}"
        return f"{text} ({self.fix})" if self.fix else text
