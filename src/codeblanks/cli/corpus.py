"""``codeblanks corpus export LESSON [--to FOLDER]``: a lesson's graded programs from the site's
database into its ``corpus/`` folder (the teaching app's ``corpus_export`` command, with
CodeBlanks' settings, as ``manage`` runs it); ``check`` then holds their verdicts."""

from __future__ import annotations

import argparse

from codeblanks.cli import manage


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "corpus",
        help="a lesson's corpus of real programs: export them from the site's database",
        description="Real programs and the verdicts they must keep (docs/authoring.md, "
        "“The corpus”). CODEBLANKS_* variables apply as for serve.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    exporting = actions.add_parser(
        "export", help="write the distinct programs learners ran, right and wrong, with verdicts"
    )
    exporting.add_argument("lesson", help="the lesson's id")
    exporting.add_argument("--to", metavar="FOLDER", help="default: the lesson folder's corpus/")
    exporting.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    extra = ["--to", args.to] if args.to else []
    return manage.run(argparse.Namespace(django_args=["corpus_export", args.lesson, *extra]))
