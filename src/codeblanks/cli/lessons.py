"""``codeblanks lessons [--json] [--lang CODE]``: every loaded lesson with its id, title, level and
course, in the learner's language."""

from __future__ import annotations

import argparse

from codeblanks import i18n
from codeblanks.cli.console import add_language, print_json
from codeblanks.content import catalog
from codeblanks.i18n import ngettext


def add_parser(commands) -> None:
    parser = commands.add_parser("lessons", help="list every lesson")
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")
    add_language(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    loaded = catalog()
    language = i18n.current()  # main() set it from --lang or the environment
    rows = [
        {
            "id": lesson.id,
            "title": taken.title,
            "level": lesson.level,
            "course": course.id,
            "uuid": lesson.uuid,
            "summary": taken.summary,
            "language": taken.language,
        }
        for course in loaded.courses
        for lesson in course.lessons
        for taken in (lesson.in_language(language),)
    ]
    if args.json:
        print_json(rows)
        return 0
    levels = {
        (course.id, lesson.level): course.level_name(lesson.level, language)
        for course in loaded.courses
        for lesson in course.lessons
    }
    shown = [levels[row["course"], row["level"]] for row in rows]
    width = max((len(row["id"]) for row in rows), default=0)
    level_width = max((len(level) for level in shown), default=0)
    for row, level in zip(rows, shown, strict=True):
        print(f"{row['id']:<{width}}  {level:<{level_width}}  {row['course']}  {row['title']}")
    if loaded.problems:
        count = len(loaded.problems)
        print(
            ngettext(
                "({count} content problem: run `codeblanks check`)",
                "({count} content problems: run `codeblanks check`)",
                count,
            ).format(count=count)
        )
    return 0
