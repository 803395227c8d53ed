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
    language = i18n.current()  # main() set it from --lang or the environment
    loaded = catalog().in_language(language)
    rows = [
        {
            "id": lesson.id,
            "title": lesson.title,
            "level": lesson.level,
            "level_name": lesson.level_name,
            "course": course.id,
            "uuid": lesson.uuid,
            "summary": lesson.summary,
            "language": lesson.language,
        }
        for course in loaded.courses
        for lesson in course.lessons
    ]
    if args.json:
        print_json(rows)
        return 0
    width = max((len(row["id"]) for row in rows), default=0)
    level_width = max((len(row["level_name"]) for row in rows), default=0)
    for row in rows:
        level = row["level_name"]
        print(f"{row['id']:<{width}}  {level:<{level_width}}  {row['course']}  {row['title']}")
    errors = sum(1 for problem in loaded.problems if not problem.warning)
    if errors:
        print(
            ngettext(
                "({count} content problem: run `codeblanks check`)",
                "({count} content problems: run `codeblanks check`)",
                errors,
            ).format(count=errors)
        )
    return 0
