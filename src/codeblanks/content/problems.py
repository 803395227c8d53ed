"""Problems found in content: values, never exceptions. Each has a stable code (documented in
docs/authoring.md, with a broken-lesson fixture in tests/content/fixtures), the file and line it
is about, what is wrong and how to fix it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    code: str  # e.g. "content.E104"
    path: Path
    line: int | None
    message: str
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        text = f"{self.code} {where}: {self.message}"
        return f"{text} ({self.fix})" if self.fix else text
