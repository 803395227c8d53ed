"""``codeblanks check [PATH ...] [--no-run]``: load the courses, print every problem, then prove
each loaded lesson, in every language it is translated into, in the sandbox
(``codeblanks.grading.prove``: its corpus of real programs too) and print its problems too.
Warnings (a scaffold's leftover TODO, a blank that accepts its value typed in, what gives an
answer away: ``content.giveaways``) are printed but do not fail the check. On a terminal it shows
its progress, lesson by lesson (``check_progress.py``); piped or in CI only the problems and the
summary.

What it checks is decided elsewhere, so another door can check the same: the static checks by
``content.checks`` (each registers there), the proofs by ``grading.aprove_all`` (every lesson
version on one event loop, the sandbox's slots kept full). This module only shows them."""

from __future__ import annotations

import argparse
from contextlib import aclosing
from pathlib import Path

from codeblanks.cli.check_progress import Progress, progress_for
from codeblanks.cli.console import UsageError, error, plural
from codeblanks.content import load_courses
from codeblanks.content.checks import run_static_checks
from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "check", help="prove lessons: report every problem (exit 1 if any)"
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="a course folder or a folder of courses (default: the built-in courses)",
    )
    parser.add_argument(
        "--no-run", action="store_true", help="only the static checks; run nothing in the sandbox"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # here, not above: `codeblanks --help` stays instant
    from codeblanks.grading.grade import run_sync
    from codeblanks.sandbox import SandboxUnavailable

    for path in args.paths:
        if not Path(path).exists():
            raise UsageError(f"{path}: no such file or folder")
    progress = progress_for()
    courses, problems = load_courses(args.paths or None)
    problems += run_static_checks(courses)
    progress.problems(problems)
    lessons = [lesson for course in courses for lesson in course.lessons]
    # every language of a lesson is a program of its own, proved as the original is
    versions = [v for lesson in lessons for v in (lesson, *lesson.translations.values())]
    if not args.no_run:
        try:
            problems += run_sync(_proved(versions, progress))
        except SandboxUnavailable as reason:
            return error(f"the sandbox cannot run here: {reason}", 3)
    warnings = [p for p in problems if p.warning]
    errors = len(problems) - len(warnings)
    also = f", {plural(len(warnings), 'warning')}" if warnings else ""
    translated = len(versions) - len(lessons)
    languages = f" (and {plural(translated, 'translation')})" if translated else ""
    progress.summary(
        f"{plural(len(lessons), 'lesson')}{languages} in {plural(len(courses), 'course')}: "
        f"{plural(errors, 'problem')}{also}"
    )
    return 1 if errors else 0


async def _proved(versions: list[Lesson], progress: Progress) -> list[Problem]:
    """The problems of every version's proof, each shown as it comes, in ``versions``' order."""
    from codeblanks.grading import aprove_all

    found: list[Problem] = []
    async with aclosing(aprove_all(versions)) as proofs:
        for number, lesson in enumerate(versions, 1):
            with progress.proving(lesson, number, len(versions)):
                problems = await anext(proofs)
                progress.problems(problems)
            found += problems
    return found
