"""``codeblanks check`` on a terminal, with Rich (``check_progress.py`` chooses it): a spinner
on the lesson being proved, a line for each lesson once proved."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.text import Text

from codeblanks.cli.check_progress import label
from codeblanks.cli.console import problem_line
from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem


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


def live(out: TextIO) -> Live:
    return Live(Console(file=out, highlight=False))
