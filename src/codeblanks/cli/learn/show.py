"""How ``codeblanks learn`` speaks: Rich on a terminal (colour, a table), plain text elsewhere
(a pipe, a file, ``NO_COLOR``). Everything a program printed is shown as text, never as markup,
with control characters made visible, so a program cannot drive the learner's terminal."""

from __future__ import annotations

import sys
from typing import Any

from codeblanks.cli.console import visible as printable
from codeblanks.cli.learn.untrusted import one_line
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext, pgettext


def yes(answer: str, default: bool) -> bool:
    """Whether a [y/N] prompt's answer says yes: y or yes, or the language's own (e.g. e/evet)."""
    word = answer.strip().lower()
    if not word:
        return default
    yes_letters = {"y", pgettext("the letter for yes at a [y/n] prompt", "y")[:1].lower()}
    no_letters = {"n", pgettext("the letter for no at a [y/n] prompt", "n")[:1].lower()}
    if word[0] in yes_letters and word[0] not in no_letters:
        return True
    if word[0] in no_letters:
        return False
    return default


TONE_STYLE = {"good": "bold green", "bad": "bold yellow", "warn": "bold red"}  # present.Words


def console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def text(value: str, style: str = ""):
    from rich.text import Text

    return Text(printable(value), style=style)


def _course_name(row: dict[str, Any]) -> str:
    """The course a row belongs to, as the server or catalogue calls it (its title where it says,
    else its id); only text is taken, whatever a server sends."""
    for key in ("course_title", "course"):
        if isinstance(row.get(key), str) and row[key]:
            return row[key]
    return ""


def _by_course(rows: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The rows in one group per course, the courses in the order they first come."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(_course_name(row), []).append(row)
    return list(groups.items())


def _lesson_table(rows: list[dict[str, Any]], title: str):
    """One course's lessons with the learner's progress, and the first one not yet solved."""
    from rich.table import Table

    table = Table(title=text(title), title_justify="left", box=None, pad_edge=False)
    for column in ("", _("id"), _("level"), _("title"), _("questions")):
        table.add_column(column)
    next_id = None
    for row in rows:
        progress = row.get("progress") or {}
        done = bool(progress.get("solved"))
        if not done and next_id is None:
            next_id = row["id"]
        questions = (
            f"{progress['questions_right']}/{progress['questions']}"
            if "questions" in progress
            else ""
        )
        tried = bool(progress.get("tried"))  # as the web's map: ◐ begun, not solved
        mark = "✓" if done else ("→" if row["id"] == next_id else "◐" if tried else "·")
        table.add_row(
            text(mark, "green" if done else ""),
            text(row["id"]),
            text(row.get("level_name") or row["level"]),
            text(row["title"]),
            text(questions),
        )
    return table, next_id


def lessons(rows: list[dict[str, Any]], where: str) -> None:
    """Every lesson, one table per course (titled with the course), then how many are solved
    and the next lesson to start in each course."""
    out = console()
    heading = _("Lessons ({where})").format(where=where)
    courses = _by_course(rows) or [("", [])]  # no lessons: still the (empty) table, titled
    nexts = []
    if len(courses) > 1:
        out.print(text(heading, "bold"))
    for name, course_rows in courses:
        table, next_id = _lesson_table(course_rows, heading if len(courses) == 1 else name)
        out.print(table)
        if next_id:
            nexts.append((name, next_id))
    if any(row.get("progress") for row in rows):
        out.print(text(_("✓ solved · ◐ tried · → next"), "dim"))
    solved = sum(1 for row in rows if (row.get("progress") or {}).get("solved"))
    out.print(
        text(
            ngettext(
                "{solved} of {count} exercise solved.",
                "{solved} of {count} exercises solved.",
                len(rows),
            ).format(solved=solved, count=len(rows))
        )
    )
    for name, next_id in nexts:
        line = (
            _("Next: codeblanks learn start {lesson}").format(lesson=next_id)
            if len(courses) == 1
            else _("Next in {course}: codeblanks learn start {lesson}").format(
                course=name, lesson=next_id
            )
        )
        out.print(text(line, "bold"))


def grade(
    result: dict[str, Any], following: tuple[str, str] | None = None, setup: bool = False
) -> None:
    """A grade as the lesson page words it (``learning.present``: the same heading and the
    same sentence under it), then the grader's reasons, the diff and the error output. A
    failing hidden case's code is shown with ``setup`` (``--setup``), else only named."""
    from codeblanks.grading.verdicts import Verdict
    from codeblanks.learning.present import reasons, verdict_of, words

    out = console()
    verdict = verdict_of(str(result.get("verdict", "")))
    feedback = [str(f) for f in result.get("feedback") or ()]
    diff = [str(line) for line in result.get("diff") or ()]
    case = result.get("case")
    said = words(
        verdict,
        case=case,
        feedback=feedback,
        cases=len(result.get("cases") or ()) or 1,
        diff=bool(diff),
    )
    if case == "visible":  # the given data's fixed name; the others are the lesson's own words
        case = _("the visible data")
    correct = verdict is Verdict.CORRECT
    where = "  " + _("(case: {case})").format(case=case) if case and not correct else ""
    out.print(text(said.title + where, TONE_STYLE[said.tone]))
    if said.detail:
        out.print(text(said.detail))
    for sentence in reasons(feedback, said):
        out.print(text(f"  • {sentence}"))
    built = result.get("setup")
    if built and not correct:
        if setup:
            out.print(text(_("How this case is built:"), "bold"))
            for line in str(built).split("\n"):
                out.print(text(f"    {line}", "dim"))
        else:
            out.print(text(_("`codeblanks learn test --setup` shows how this case is built.")))
    if correct:
        if following is None:
            out.print(
                text(_("Next: `codeblanks learn quiz` for the questions, or the next lesson."))
            )
        elif not following[0]:
            out.print(text(_(
                "Next: `codeblanks learn quiz` for the questions. This is the course's last lesson."
            )))  # fmt: skip
        else:  # named (the learner trial's F14): its title and the command that starts it
            out.print(text(_(
                "Next: `codeblanks learn quiz` for the questions, or the next lesson, "
                "“{title}”: `codeblanks learn start {lesson}`."
            ).format(title=one_line(following[1]), lesson=one_line(following[0]))))  # fmt: skip
        return
    if diff:
        out.print(text(_("Expected (-) and your output (+):"), "bold"))
        for line in diff:
            style = "red" if line.startswith("-") else "green" if line.startswith("+") else ""
            out.print(
                text(line.rstrip("\n"), style if not line.startswith(("---", "+++")) else "dim")
            )
    stderr = (result.get("stderr") or "").rstrip("\n")
    if stderr:
        out.print(text(_("Your program's error output:"), "bold"))
        out.print(text(stderr, "dim"))
    out.print(text(_("Stuck? `codeblanks learn hint` gives the next hint.")))


def say(message: str, style: str = "") -> None:
    console().print(text(message, style))


def fail(message: str) -> None:
    print(f"codeblanks: error: {printable(message)}", file=sys.stderr)
