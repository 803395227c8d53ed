"""``codeblanks mistakes suggest LESSON [--to FOLDER] [--least N] [--db]``: candidate mistakes
from a lesson's real wrong programs (grading/suggest.py): its ``corpus/``, and with ``--db`` the
programs graded on the site too (through the teaching app's ``mistakes_suggest`` command, as
``manage`` runs it)."""

from __future__ import annotations

import argparse
from pathlib import Path

from codeblanks import i18n
from codeblanks.cli import manage
from codeblanks.cli.console import add_language


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "mistakes",
        help="a lesson's anticipated mistakes: suggest new ones from real wrong programs",
        description="Candidate mistakes from the wrong programs no declared mistake matches, "
        "grouped by what they do (docs/authoring.md, “The corpus”).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    suggesting = actions.add_parser(
        "suggest", help="write candidate mistake files, with counts and a draft message"
    )
    suggesting.add_argument("lesson", help="the lesson's id")
    suggesting.add_argument("--to", metavar="FOLDER", help="default: the lesson's mistakes/")
    suggesting.add_argument(
        "--least", type=int, default=1, metavar="N", help="only groups of at least N programs"
    )
    suggesting.add_argument(
        "--db",
        action="store_true",
        help="also the programs graded on the site (CODEBLANKS_* variables apply as for serve)",
    )
    add_language(suggesting)
    suggesting.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.db:
        extra = ["--to", args.to] if args.to else []
        extra += ["--least", str(args.least), "--lang", i18n.current()]
        return manage.run(argparse.Namespace(django_args=["mistakes_suggest", args.lesson, *extra]))
    from codeblanks.cli.grade import find_lesson
    from codeblanks.grading.suggest import suggest_into, summary, wrong_in_corpus
    from codeblanks.sandbox import get_sandbox

    lesson = find_lesson(args.lesson).in_language(i18n.current())
    folder = Path(args.to) if args.to else lesson.path / "mistakes"
    programs = wrong_in_corpus(lesson)
    candidates, written = suggest_into(lesson, programs, folder, get_sandbox(), args.least)
    for line in summary(candidates, written, folder):
        print(line)
    return 0
