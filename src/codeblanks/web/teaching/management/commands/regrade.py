"""``codeblanks manage regrade --class ID [--lower]``: run each learner's last program of each
lesson of the class again through the grader, after a lesson's check was fixed, and say who
changed (teaching/regrade.py). A kept solve is taken back only with ``--lower``."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from codeblanks.web.teaching.models import Classroom
from codeblanks.web.teaching.regrade import regrade


class Command(BaseCommand):
    help = "Grade a class's last programs again; report who changed (old verdict -> new)."

    def add_arguments(self, parser):
        parser.add_argument("--class", dest="room", type=int, required=True, help="the class id")
        parser.add_argument(
            "--lower",
            action="store_true",
            help="take back a solve whose program is now wrong (kept otherwise)",
        )

    def handle(self, *args, room: int, lower: bool, **options):
        found = Classroom.objects.filter(pk=room).first()
        if found is None:
            raise CommandError(f"There is no class {room}.")
        report = regrade(found, lower=lower)
        for c in report.changes:
            kept = " (solve kept; --lower takes it back)" if c.kept else ""
            self.stdout.write(
                f"{c.username} ({c.name}) {c.lesson_id}: {c.old} -> {c.new}, "
                f"score {c.score_before} -> {c.score_after}{kept}"
            )
        self.stdout.write(
            f"{report.programs} programs graded again in {found.name!r}: "
            f"{len(report.changes)} changed, {report.failed} could not be run."
        )
        if report.failed:
            self.stderr.write("Run it again for those the sandbox could not run just now.")
