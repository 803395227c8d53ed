"""``codeblanks learn``: do the course from a terminal, in your own editor, graded by the same
grader as the web (a server's, or this machine's sandbox). Commands (docs/learners.md):

lessons · start LESSON [DIR] · test [DIR] · hint [DIR] · solution [DIR] · quiz [DIR] · review ·
login

This module only builds the parser; the commands (``commands.py``) import what they need when
they run, so ``codeblanks learn --help`` is instant.
"""

from __future__ import annotations

import argparse

from codeblanks.cli.console import add_language
from codeblanks.cli.learn import commands as do


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "learn", help="take lessons in the terminal (start, test, hint, quiz: docs/learners.md)"
    )
    sub = parser.add_subparsers(dest="learn_command", metavar="COMMAND", required=True)

    def command(name: str, help: str, func, folder: bool = True) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.add_argument("--server", metavar="URL", help="a CodeBlanks server (default: see docs)")
        add_language(p)
        if folder:
            p.add_argument("dir", nargs="?", metavar="DIR", help="the lesson folder (default: .)")
        p.set_defaults(func=func)
        return p

    p = command("lessons", "the lessons, with your progress", do.lessons, folder=False)
    p.add_argument("--json", action="store_true", help="print JSON")
    p = command("start", "write a lesson folder: README.md and your file", do.start, folder=False)
    p.add_argument("lesson", metavar="LESSON", help="the lesson's id (see `learn lessons`)")
    p.add_argument("dir", nargs="?", metavar="DIR", help="the folder (default: ./LESSON)")
    p = command("test", "grade your exercise file", do.test)
    p.add_argument("--json", action="store_true", help="print the grade as JSON")
    p.add_argument(
        "--setup", action="store_true", help="show the code that builds a failing hidden case"
    )
    command("hint", "show the next hint", do.hint)
    p = command("solution", "show the sample solution (asks first; recorded)", do.solution)
    p.add_argument("--yes", action="store_true", help="do not ask")
    p = command("quiz", "answer the lesson's questions", do.quiz)
    p.add_argument("--review", action="store_true", help="show the answers instead of asking")
    p.add_argument(
        "--restart", action="store_true", help="ask from question 1, not where it stopped"
    )
    command("review", "answer the questions due for review today", do.review, folder=False)
    p = command("login", "store a personal API token for a server", do.login, folder=False)
    p.add_argument("--token", help="the token (default: asked for, or read from standard input)")
