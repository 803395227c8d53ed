"""``codeblanks translate LESSON --lang tr``: start a translation of a lesson folder (its ``tr/``
with every text to translate, in the original's words); ``--stamp`` records, once the
translation is done, what it translates, so that ``check`` can say when the original changes
(content.W002). docs/authoring.md, "Translating a lesson", walks through it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from codeblanks.cli.console import UsageError, problem_line, shown
from codeblanks.content import load_courses
from codeblanks.content.course import LANGUAGE
from codeblanks.content.model import (
    BlankQuestion,
    ChoiceQuestion,
    Course,
    Lesson,
    MatchQuestion,
)
from codeblanks.content.translation import read_translation, write_stamps


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "translate", help="start a lesson's translation, or stamp a finished one"
    )
    parser.add_argument("lesson", metavar="LESSON", help="the lesson's folder")
    parser.add_argument("--lang", required=True, help="the language code, e.g. tr")
    parser.add_argument(
        "--stamp",
        action="store_true",
        help="record that the translation is up to date with the original as it is now",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not LANGUAGE.fullmatch(args.lang):
        raise UsageError(f"--lang {args.lang!r} is not a two-letter language code such as tr")
    course, lesson = _lesson(Path(args.lesson))
    folder = lesson.path / args.lang
    if args.stamp:
        problems: list = []
        translation = read_translation(lesson, args.lang, problems)
        errors = [p for p in problems if not p.warning]
        for found in errors:
            print(problem_line(found))
        if translation is None or errors:
            print(f"{shown(folder)} has problems: fix them, then stamp it again")
            return 1
        print(f"stamped {shown(write_stamps(lesson, translation))}")
        return 0
    if folder.exists():
        raise UsageError(
            f"{shown(folder)} already exists: translate its files, then run "
            f"`codeblanks translate {shown(lesson.path)} --lang {args.lang} --stamp`"
        )
    _scaffold(lesson, folder)
    print(f"created {shown(folder)}: every text in it is the original's, to translate.")
    course_file = course.path / args.lang / "course.toml"
    if not course_file.exists():
        course_file.parent.mkdir(exist_ok=True)
        course_file.write_text(_course_toml(course), encoding="utf-8")
        print(f"created {shown(course_file)}: the course's texts, too.")
    if args.lang not in course.languages:
        print(f'Add "{args.lang}" to `languages` in {shown(course.path / "course.toml")}.')
    print("To translate the code too, copy starter.py and solution.py into it.")
    print(f"When it is done: codeblanks translate {shown(lesson.path)} --lang {args.lang} --stamp")
    return 0


def _lesson(path: Path) -> tuple[Course, Lesson]:
    """The loaded lesson in the folder ``path``, and its course."""
    if not (path / "lesson.toml").is_file():
        raise UsageError(f"{path}: not a lesson folder (it has no lesson.toml)")
    courses, problems = load_courses([path.parent])
    for course in courses:
        for lesson in course.lessons:
            if lesson.path.resolve() == path.resolve():
                return course, lesson
    for found in problems:
        print(problem_line(found))
    raise UsageError(f"{path}: the lesson does not load; `codeblanks check` says why")


def _course_toml(course: Course) -> str:
    lines = [
        f"title = {_string(course.title)}",
        f"summary = {_string(course.summary)}",
        f"levels = {_strings(course.levels)}",
    ]
    return "\n".join(lines) + "\n"


def _scaffold(lesson: Lesson, folder: Path) -> None:
    """``folder`` with the lesson's texts in the layout a translation uses."""
    folder.mkdir()
    (folder / "explanation.md").write_text(lesson.explanation_md, encoding="utf-8")
    (folder / "task.md").write_text(lesson.exercise.task_md, encoding="utf-8")
    (folder / "lesson.toml").write_text(_lesson_toml(lesson), encoding="utf-8")
    if lesson.questions:
        (folder / "questions.toml").write_text(_questions_toml(lesson), encoding="utf-8")


def _string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's."""
    return json.dumps(text, ensure_ascii=False)


def _strings(items) -> str:
    return "[\n" + "".join(f"  {_string(item)},\n" for item in items) + "]"


def _lesson_toml(lesson: Lesson) -> str:
    ex, spec = lesson.exercise, lesson.exercise.grading
    lines = [f"title = {_string(lesson.title)}", f"summary = {_string(lesson.summary)}"]
    if ex.hints:
        lines += ["", "[exercise]", f"hints = {_strings(ex.hints)}"]
    if spec.variants:
        lines += ["", "[grading]", f"variants = {_strings(v.name for v in spec.variants)}"]
    for mistake in spec.mistakes:
        lines += ["", "[[grading.mistakes]]", f"file = {_string(mistake.file)}"]
        if mistake.nudge:
            lines.append(f"nudge = {_string(mistake.nudge)}")
        lines.append(f"message = {_string(mistake.message)}")
    if ex.tests:
        lines += ["", "[tests]"]
        lines += [f"{_string(t.name)} = {_string(t.name)}" for t in ex.tests.tests]
    return "\n".join(lines) + "\n"


def _questions_toml(lesson: Lesson) -> str:
    blocks = []
    for q in lesson.questions:
        lines = ["[[question]]", f"id = {_string(q.id)}", f"prompt = {_string(q.prompt)}"]
        if isinstance(q, ChoiceQuestion):
            lines += [
                f"options = {_strings(q.options)}",
                f"answer = {_string(q.options[q.answer])}",
            ]
        elif isinstance(q, BlankQuestion):
            lines.append(f"code = {_string(q.code)}")
            if q.check != "value":
                lines.append(f"answer = {_string(q.answer)}")
                if q.accept:
                    lines.append(f"accept = {_strings(q.accept)}")
            if q.variants:
                lines.append(f"variants = {_strings(v.name for v in q.variants)}")
        elif isinstance(q, MatchQuestion):
            pairs = "".join(f"  [{_string(t)}, {_string(m)}],\n" for t, m in q.pairs)
            lines.append(f"pairs = [\n{pairs}]")
        lines.append(f"explanation = {_string(q.explanation)}")
        if q.hints:
            lines.append(f"hints = {_strings(q.hints)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
