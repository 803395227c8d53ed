"""``codeblanks manage ARGS ...``: Django's management commands with CodeBlanks' settings, so an
operator never sets ``DJANGO_SETTINGS_MODULE`` by hand (``codeblanks manage migrate``,
``codeblanks manage createsuperuser``). The second door to Django, beside ``serve``."""

from __future__ import annotations

import argparse
import os


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "manage",
        help="run a Django management command (migrate, createsuperuser, ...)",
        description="Django's management commands with CodeBlanks' settings "
        "(CODEBLANKS_* variables apply as for serve).",
    )
    parser.add_argument("django_args", nargs=argparse.REMAINDER, metavar="ARGS",
                        help="the command and its arguments, e.g. migrate --noinput")  # fmt: skip
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from django.core.management import execute_from_command_line

    os.environ["DJANGO_SETTINGS_MODULE"] = "codeblanks.web.settings"
    try:
        execute_from_command_line(["codeblanks manage", *(args.django_args or ["help"])])
    except SystemExit as exit_:  # Django exits on its own errors, with a message printed
        return exit_.code if isinstance(exit_.code, int) else 1
    return 0
