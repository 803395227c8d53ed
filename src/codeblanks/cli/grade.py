"""``codeblanks grade LESSON_ID FILE [--json] [--lang CODE]``: grade a program as a lesson's
exercise, the lesson taken and the feedback given in the learner's language."""

from __future__ import annotations

import argparse
import difflib

from codeblanks import i18n
from codeblanks.cli.console import (
    UsageError,
    add_language,
    error,
    print_json,
    read_program,
    visible,
)
from codeblanks.content import catalog
from codeblanks.content.model import Lesson
from codeblanks.i18n import gettext as _


def add_parser(commands) -> None:
    parser = commands.add_parser("grade", help="grade a program as a lesson's exercise")
    parser.add_argument("lesson", metavar="LESSON_ID", help="the lesson's id (see `lessons`)")
    parser.add_argument("file", metavar="FILE", help="the learner's Python file")
    parser.add_argument("--json", action="store_true", help="print the grade as JSON")
    add_language(parser)
    parser.set_defaults(func=run)


def find_lesson(lesson_id: str) -> Lesson:
    """The loaded lesson with this id; an unknown id is a usage error naming close ids."""
    loaded = catalog()
    lesson = loaded.lesson(lesson_id)
    if lesson is not None:
        return lesson
    ids = [known.id for known in loaded.lessons()]
    close = difflib.get_close_matches(lesson_id, ids, n=3, cutoff=0.5)
    if close:
        text = _("unknown lesson {lesson}; did you mean {close}?").format(
            lesson=repr(lesson_id), close=", ".join(close)
        )
    else:
        text = _("unknown lesson {lesson}").format(lesson=repr(lesson_id))
    if loaded.problems:
        text += " " + _("(a lesson with problems is left out: `codeblanks check` says why)")
    raise UsageError(text)


def run(args: argparse.Namespace) -> int:
    from codeblanks.grading import grade  # here, not above: `codeblanks --help` stays instant
    from codeblanks.sandbox import SandboxUnavailable

    # the lesson as a learner of this language takes it (main() set the language)
    lesson = find_lesson(args.lesson).in_language(i18n.current())
    code = read_program(args.file)
    try:
        result = grade(lesson, code)
    except SandboxUnavailable as reason:
        return error(_("the sandbox cannot run here: {reason}").format(reason=reason), 3)
    if args.json:
        print_json(result.to_json())
    else:
        _print_human(result, diff=lesson.exercise.output_graded)
    return 0 if result.correct else 1


def _print_human(result, *, diff: bool = True) -> None:
    """``diff`` False: the lesson grades no printed output, so none is compared with it."""
    from codeblanks.grading.verdicts import Verdict

    ms = f"{result.duration_ms:.0f}"
    verdict = result.verdict.label()
    if result.case:
        # the visible case has a fixed name; the others are named by the lesson, in its language
        case = _("the visible data") if result.case == "visible" else result.case
        print(_("{verdict} ({ms} ms, case: {case})").format(verdict=verdict, ms=ms, case=case))
    else:
        print(_("{verdict} ({ms} ms)").format(verdict=verdict, ms=ms))
    for message in result.feedback:
        print(f"  - {visible(message)}")
    if result.more:  # a mistake's explanation, held back on the web until asked for
        print("  " + _("more: {explanation}").format(explanation=visible(result.more)))
    if result.correct:
        return
    if result.stderr.strip():
        print(_("stderr:"))
        print(visible(result.stderr.rstrip("\n")))
    if result.verdict != Verdict.INCORRECT:
        return
    # the grader's own diff (of the failing case) when it gives one, else the visible case's
    lines = list(getattr(result, "diff", ()) or ())
    if not lines and diff:
        lines = list(
            difflib.unified_diff(
                result.expected.splitlines(),
                result.stdout.splitlines(),
                fromfile=_("expected output"),
                tofile=_("your output"),
                lineterm="",
            )
        )
    if lines:
        print(visible("\n".join(line.rstrip("\n") for line in lines)))
