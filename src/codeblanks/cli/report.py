"""``codeblanks report LESSON [--class ID]``: a lesson's item analysis from the site's database
(the teaching app's ``report`` command, with CodeBlanks' settings, as ``manage`` runs it)."""

from __future__ import annotations

import argparse

from codeblanks.cli import manage


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "report",
        help="a lesson's item analysis: failing cases, mistakes matched, wrong answers",
        description="What learners got wrong in a lesson, from the site's database "
        "(CODEBLANKS_* variables apply as for serve).",
    )
    parser.add_argument("lesson", help="the lesson's id")
    parser.add_argument("--class", dest="room", type=int, help="one class only (its id)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    extra = ["--class", str(args.room)] if args.room is not None else []
    return manage.run(argparse.Namespace(django_args=["report", args.lesson, *extra]))
