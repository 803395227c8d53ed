"""``codeblanks manage grant_teacher USERNAME``: give a user the teacher role (the right to
make classes). The admin does the same with the user's "Can add class" permission."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from codeblanks.web.teaching.classes import grant_teacher


class Command(BaseCommand):
    help = "Give a user the teacher role: they can make classes and see their classes' progress."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username: str, **options):
        try:
            grant_teacher(username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"There is no user {username!r}.") from None
        self.stdout.write(f"{username} is a teacher now: they can make classes at /classes/new")
