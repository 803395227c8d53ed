"""``codeblanks report LESSON [--class ID]``: a lesson's item analysis in the terminal, for its
author (the whole site) or for one class: the same figures as the analysis pages."""

from __future__ import annotations

import io

from django.core.management.base import BaseCommand, CommandError
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from codeblanks.content import catalog
from codeblanks.web.teaching.analysis import LessonAnalysis, lesson_analysis
from codeblanks.web.teaching.models import Classroom


def _table(title: str, columns: tuple[str, ...], rows) -> Table:
    table = Table(title=title, title_justify="left", expand=False)
    for name in columns:
        table.add_column(name, overflow="fold")
    for row in rows:
        table.add_row(*(escape(str(cell)) for cell in row))
    return table


def show(found: LessonAnalysis, console: Console) -> None:
    console.print(
        f"[bold]{escape(found.lesson.title)}[/] ({found.lesson.id}): "
        f"{found.learners} learners, {found.runs} runs, solved by {found.solved_by}"
    )
    console.print(_table("Cases that fail most", ("case", "failing runs"), found.cases))
    console.print(
        _table(
            "Anticipated mistakes matched",
            ("mistake", "runs", "nudge"),
            [(f, n, nudge) for f, nudge, n in found.mistakes],
        )
    )
    console.print(f"Wrong runs that matched no mistake: {found.unmatched_runs}")
    for code, n in found.unmatched:
        console.print(f"[bold]{n} runs[/]:")
        console.print(escape(code or "(too long to keep)"), highlight=False)
    for q in found.questions:
        console.print(
            _table(
                f"{q.question.id}: {q.right} of {q.answers} answers right",
                ("most common wrong answer", "times"),
                q.wrong,
            )
        )


class Command(BaseCommand):
    help = "A lesson's item analysis: failing cases, mistakes matched, wrong answers."

    def add_arguments(self, parser):
        parser.add_argument("lesson", help="the lesson's id (codeblanks lessons lists them)")
        parser.add_argument("--class", dest="room", type=int, help="one class only (its id)")

    def handle(self, *args, lesson: str, room: int | None = None, **options):
        found = catalog().lesson(lesson)
        if found is None:
            raise CommandError(f"There is no lesson {lesson!r}; `codeblanks lessons` lists them.")
        users = None
        if room is not None:
            classroom = Classroom.objects.filter(pk=room).first()
            if classroom is None:
                raise CommandError(f"There is no class {room}.")
            users = list(classroom.members.values_list("user_id", flat=True))
        out = io.StringIO()
        show(lesson_analysis(found, users), Console(file=out, soft_wrap=True))
        self.stdout.write(out.getvalue(), ending="")
