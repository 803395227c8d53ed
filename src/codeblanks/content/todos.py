"""Leftovers of a scaffold: ``codeblanks new`` writes TODO where the author has work to do, and
``codeblanks check`` warns about every TODO still there (a warning: the lesson still loads)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from codeblanks.content.checks import register
from codeblanks.content.codes import problem
from codeblanks.content.files import is_skipped
from codeblanks.content.model import Course
from codeblanks.content.problems import Problem

TODO = re.compile(r"\bTODO\b")
_TEXT = {".md", ".py", ".toml", ".txt"}


def leftover_todos(folder: Path) -> list[Problem]:
    """A warning for every line with TODO in the text files under ``folder`` (a lesson or a
    course folder; ``_``-prefixed and hidden names are skipped, as the loader skips them)."""
    found: list[Problem] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not is_skipped(d))
        for name in sorted(files):
            path = Path(root, name)
            if is_skipped(name) or path.suffix not in _TEXT:
                continue
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                continue  # the loader reports unreadable files
            for number, line in enumerate(lines, start=1):
                if TODO.search(line):
                    shown = line.strip()
                    shown = shown if len(shown) <= 80 else shown[:77] + "..."
                    found.append(problem("content.W001", path, number, f"still TODO: {shown}"))
    return found


@register
def course_todos(course: Course) -> list[Problem]:
    """The static check: every TODO left anywhere in ``course``'s folder."""
    return leftover_todos(course.path)
