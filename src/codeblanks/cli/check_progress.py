"""How ``codeblanks check`` shows what it does. On a terminal, with Rich: the next lesson in
order (a spinner, its number of all), then a line for each lesson once proved (how long the
check waited on it: later lessons are proved alongside, so many take no time of their own; ✓ or
its count of problems) with its problems under it as they come, so a long check is never silent.
Piped, or in CI (``CI`` set), it stays quiet and plain: only the problems, one a line, and the
summary, what a log or a script reads (docs/cli.md)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol, TextIO

from codeblanks.cli.console import problem_line
from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem


class Progress(Protocol):
    def problems(self, found: list[Problem]) -> None: ...

    def proving(self, lesson: Lesson, number: int, total: int) -> AbstractContextManager[None]: ...

    def summary(self, line: str) -> None: ...


def label(lesson: Lesson) -> str:
    """A lesson as the progress names it: its id and its language (each is proved apart)."""
    return f"{lesson.id} ({lesson.language})"


class Plain:
    """Piped or in CI: the problems and the summary, nothing else."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out

    def problems(self, found: list[Problem]) -> None:
        for problem in found:
            print(problem_line(problem), file=self.out or sys.stdout, flush=True)

    @contextmanager
    def proving(self, lesson: Lesson, number: int, total: int) -> Iterator[None]:
        yield

    def summary(self, line: str) -> None:
        print(line, file=self.out or sys.stdout, flush=True)


def in_ci(environ: Mapping[str, str]) -> bool:
    """Whether ``CI`` says this runs in continuous integration (any value but empty, 0, false)."""
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def progress_for(out: TextIO | None = None, environ: Mapping[str, str] | None = None) -> Progress:
    """``Live`` on a terminal, else (piped, redirected, in CI) ``Plain``."""
    out = out or sys.stdout
    environ = os.environ if environ is None else environ
    terminal = hasattr(out, "isatty") and out.isatty()
    if in_ci(environ) or not terminal:
        return Plain(out)
    # Rich only when a terminal shows the progress: every other command starts without it.
    from codeblanks.cli.check_live import live

    return live(out)
