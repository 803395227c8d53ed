"""``codeblanks mistakes suggest LESSON --db``: candidate mistakes from the lesson's corpus and
the wrong programs graded on the site (web/teaching/corpus_export.py reads them, nothing that
names a learner), grouped by grading/suggest.py."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from codeblanks import i18n
from codeblanks.content import catalog
from codeblanks.grading.suggest import suggest_into, summary, wrong_in_corpus
from codeblanks.sandbox import get_sandbox
from codeblanks.web.teaching.corpus_export import wrong_programs


class Command(BaseCommand):
    help = "Write candidate mistakes from a lesson's real wrong programs into its mistakes/."

    def add_arguments(self, parser):
        parser.add_argument("lesson", help="the lesson's id (codeblanks lessons lists them)")
        parser.add_argument("--to", help="another folder to write into (default: its mistakes/)")
        parser.add_argument("--least", type=int, default=1)
        parser.add_argument("--lang", default=i18n.DEFAULT)

    def handle(self, *args, lesson: str, to=None, least: int = 1, lang: str = "", **options):
        found = catalog().lesson(lesson)
        if found is None:
            raise CommandError(f"There is no lesson {lesson!r}; `codeblanks lessons` lists them.")
        with i18n.language(lang or i18n.DEFAULT):
            localised = found.in_language(i18n.current())
            folder = Path(to) if to else found.path / "mistakes"
            programs = wrong_in_corpus(localised) + wrong_programs(found)
            candidates, written = suggest_into(localised, programs, folder, get_sandbox(), least)
            for line in summary(candidates, written, folder):
                self.stdout.write(line)
