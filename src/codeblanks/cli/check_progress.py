"""How ``codeblanks check`` shows what it does. On a terminal, with Rich: the lesson being proved
now (a spinner, its number of all), then a line for each lesson once proved (its time, ✓ or its
count of problems) with its problems under it as they come, so a long check is never silent.
Piped, or in CI (``CI`` set), it stays quiet and plain: only the problems, one a line, and the
summary, what a log or a script reads (docs/cli.md)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol, TextIO

from rich.console import Console
from rich.text import Text

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


class Live:
    """A terminal: Rich's spinner on the lesson being proved, a line per lesson proved."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._found = 0  # problems printed for the lesson being proved

    def problems(self, found: list[Problem]) -> None:
        for problem in found:
            style = "yellow" if problem.warning else "red"
            self.console.print(Text(problem_line(problem), style=style), soft_wrap=True)
        self._found += sum(not p.warning for p in found)

    @contextmanager
    def proving(self, lesson: Lesson, number: int, total: int) -> Iterator[None]:
        name = label(lesson)
        start, self._found = time.perf_counter(), 0
        status = Text.assemble("proving ", (name, "bold"), f" ({number}/{total})")
        with self.console.status(status):
            yield
        took = f"{time.perf_counter() - start:.1f} s"
        if self._found:
            mark = Text(f"✗ {name}: {self._found} problem{'s' if self._found > 1 else ''}", "red")
        else:
            mark = Text(f"✓ {name}", "green")
        self.console.print(Text.assemble(mark, (f"  {took}", "dim")))

    def summary(self, line: str) -> None:
        self.console.print(Text(line, style="bold"))


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
    return Live(Console(file=out, highlight=False))
