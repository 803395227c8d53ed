"""``codeblanks grade LESSON_ID FILE [--json]``: grade a program as a lesson's exercise."""

from __future__ import annotations

import argparse
import difflib

from codeblanks.cli.console import UsageError, error, print_json, read_program, visible
from codeblanks.content import catalog
from codeblanks.content.model import Lesson


def add_parser(commands) -> None:
    parser = commands.add_parser("grade", help="grade a program as a lesson's exercise")
    parser.add_argument("lesson", metavar="LESSON_ID", help="the lesson's id (see `lessons`)")
    parser.add_argument("file", metavar="FILE", help="the learner's Python file")
    parser.add_argument("--json", action="store_true", help="print the grade as JSON")
    parser.set_defaults(func=run)


def find_lesson(lesson_id: str) -> Lesson:
    """The loaded lesson with this id; an unknown id is a usage error naming close ids."""
    loaded = catalog()
    lesson = loaded.lesson(lesson_id)
    if lesson is not None:
        return lesson
    ids = [known.id for known in loaded.lessons()]
    close = difflib.get_close_matches(lesson_id, ids, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    broken = " (a lesson with problems is left out: `codeblanks check` says why)"
    raise UsageError(f"unknown lesson {lesson_id!r}{hint}{broken if loaded.problems else ''}")


def run(args: argparse.Namespace) -> int:
    from codeblanks.grading import grade  # here, not above: `codeblanks --help` stays instant
    from codeblanks.sandbox import SandboxUnavailable

    lesson = find_lesson(args.lesson)
    code = read_program(args.file)
    try:
        result = grade(lesson, code)
    except SandboxUnavailable as reason:
        return error(f"the sandbox cannot run here: {reason}", 3)
    if args.json:
        print_json(result.to_json())
    else:
        _print_human(result)
    return 0 if result.correct else 1


def _print_human(result) -> None:
    case = f", case: {result.case}" if result.case else ""
    print(f"{result.verdict} ({result.duration_ms:.0f} ms{case})")
    for message in result.feedback:
        print(f"  - {visible(message)}")
    if result.more:  # a mistake's explanation, held back on the web until asked for
        print(f"  more: {visible(result.more)}")
    if result.correct:
        return
    if result.stderr.strip():
        print("stderr:")
        print(visible(result.stderr.rstrip("\n")))
    if result.verdict != "incorrect":
        return
    # the grader's own diff (of the failing case) when it gives one, else the visible case's
    lines = list(getattr(result, "diff", ()) or ())
    if not lines:
        lines = list(
            difflib.unified_diff(
                result.expected.splitlines(),
                result.stdout.splitlines(),
                fromfile="expected output",
                tofile="your output",
                lineterm="",
            )
        )
    if lines:
        print(visible("\n".join(line.rstrip("\n") for line in lines)))
