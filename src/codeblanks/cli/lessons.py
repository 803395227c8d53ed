"""``codeblanks lessons [--json]``: every loaded lesson with its id, title, level and course."""

from __future__ import annotations

import argparse

from codeblanks.cli.console import print_json
from codeblanks.content import catalog


def add_parser(commands) -> None:
    parser = commands.add_parser("lessons", help="list every lesson")
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    loaded = catalog()
    rows = [
        {
            "id": lesson.id,
            "title": lesson.title,
            "level": lesson.level,
            "course": course.id,
            "uuid": lesson.uuid,
            "summary": lesson.summary,
        }
        for course in loaded.courses
        for lesson in course.lessons
    ]
    if args.json:
        print_json(rows)
        return 0
    width = max((len(row["id"]) for row in rows), default=0)
    level_width = max((len(row["level"]) for row in rows), default=0)
    for row in rows:
        print(
            f"{row['id']:<{width}}  {row['level']:<{level_width}}  {row['course']}  {row['title']}"
        )
    if loaded.problems:
        print(f"({len(loaded.problems)} content problems: run `codeblanks check`)")
    return 0
