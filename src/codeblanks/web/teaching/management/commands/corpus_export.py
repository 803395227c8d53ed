"""``codeblanks corpus export LESSON [--to FOLDER]``: the distinct programs learners ran in a
lesson, right and wrong, written into its ``corpus/`` with their verdicts, for its author to
review and commit (web/teaching/corpus_export.py)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from codeblanks.content import catalog
from codeblanks.content.corpus import FOLDER
from codeblanks.web.teaching.corpus_export import export


class Command(BaseCommand):
    help = "Write a lesson's graded programs, right and wrong, into its corpus/ folder."

    def add_arguments(self, parser):
        parser.add_argument("lesson", help="the lesson's id (codeblanks lessons lists them)")
        parser.add_argument("--to", help="another folder to write into (default: its corpus/)")

    def handle(self, *args, lesson: str, to: str | None = None, **options):
        found = catalog().lesson(lesson)
        if found is None:
            raise CommandError(f"There is no lesson {lesson!r}; `codeblanks lessons` lists them.")
        folder = Path(to) if to else found.path / FOLDER
        done = export(found, folder)
        for path in done.written:
            self.stdout.write(str(path))
        n = len(done.written)
        self.stdout.write(
            f"{n} new program{'' if n == 1 else 's'} written to {folder}; "
            f"{done.known} already in the corpus. Read each one before you commit it."
        )
