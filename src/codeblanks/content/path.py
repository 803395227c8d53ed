"""A course as a path: its lessons in the order course.toml gives, levels that never go down
along it, and no lesson that uses an idea before a lesson has taught it.

Why here and not in the pages: the map, the pager, "Next lesson" and the terminal all read
``Course.lessons``, so putting the lessons in path order once, while loading, makes every door
follow the same path. A lesson that breaks the path (unlisted, a level that goes down, an idea
used before it is taught) is a problem like any other and is left out of the catalogue.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from codeblanks.content.codes import problem
from codeblanks.content.fields import SLUG, Table
from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem
from codeblanks.content.tomlpos import Locator


def read_order(root: Table) -> tuple[str, ...] | None:
    """course.toml's ``order`` (lesson ids), or None when absent: then folder-name order."""
    if "order" not in root.data:
        return None
    raw = root.data["order"]
    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) for x in raw):
        root.report("content.E025", "order", "`order` must be a non-empty list of lesson ids")
        return ()
    twice = sorted({x for x in raw if raw.count(x) > 1})
    if twice:
        root.report("content.E025", "order", f"`order` lists {', '.join(twice)} more than once")
        return ()
    return tuple(raw)


def read_ideas(root: Table, key: str = "ideas") -> dict[str, str]:
    """``[ideas]``: idea name (a slug) -> its words for a learner."""
    raw = root.data.get(key, {})
    if not isinstance(raw, dict):
        root.report("content.E027", key, "`ideas` must be a table: [ideas]")
        return {}
    table = root.table(key)
    ideas = {}
    for name, words in raw.items():
        if not SLUG.fullmatch(name) or not isinstance(words, str) or not words.strip():
            message = f"idea {name!r} must be a slug given non-empty words for a learner"
            table.report("content.E027", name, message)
        else:
            ideas[name] = words
    return ideas


def folder_ids(folders: list[Path]) -> dict[str, Path]:
    """The id each lesson folder declares (read even when the lesson is broken), so that an
    ``order`` naming a broken lesson is not called wrong as well."""
    found = {}
    for folder in folders:
        try:
            lesson_id = tomllib.loads((folder / "lesson.toml").read_text("utf-8")).get("id")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if isinstance(lesson_id, str):
            found[lesson_id] = folder
    return found


def unknown_in_order(root: Table, order: tuple[str, ...], known: dict[str, Path]) -> None:
    unknown = [x for x in order if x not in known]
    if unknown:
        root.report(
            "content.E025", "order", f"`order` lists {', '.join(unknown)}: no lesson has that id"
        )


def on_path(
    lessons: list[Lesson],
    *,
    order: tuple[str, ...] | None,
    order_at: tuple[Path, int | None],
    levels: tuple[str, ...],
    ideas: dict[str, str],
    problems: list[Problem],
) -> list[Lesson]:
    """``lessons`` in path order, those that break the path left out (after reporting why)."""
    if order is not None:
        path, line = order_at
        for lesson in lessons:
            if lesson.id not in order:
                message = f"lesson {lesson.id!r} is not in the course's `order`"
                problems.append(problem("content.E026", path, line, message))
        lessons = sorted((x for x in lessons if x.id in order), key=lambda x: order.index(x.id))
    kept: list[Lesson] = []
    highest = 0
    taught: set[str] = set()
    for lesson in lessons:
        rank = levels.index(lesson.level) if lesson.level in levels else 0
        broken = _ideas_problems(lesson, ideas, taught)
        if rank < highest:
            before = next(x for x in reversed(kept) if levels.index(x.level) == highest)
            broken.append(
                _at(
                    lesson,
                    "level",
                    "content.E036",
                    f"lesson {lesson.id!r} is {lesson.level}, below {before.id!r} "
                    f"({before.level}) before it",
                )
            )
        taught.update(lesson.teaches)  # even when left out: no cascade of problems after it
        if broken:
            problems.extend(broken)
            continue
        kept.append(lesson)
        highest = max(highest, rank)
    return kept


def _ideas_problems(lesson: Lesson, ideas: dict[str, str], taught: set[str]) -> list[Problem]:
    found = []
    for key in ("teaches", "uses"):
        unknown = [x for x in getattr(lesson, key) if x not in ideas]
        if unknown:
            message = f"lesson {lesson.id!r} {key} {', '.join(unknown)}: not in the course's ideas"
            found.append(_at(lesson, key, "content.E037", message))
    early = [x for x in lesson.uses if x in ideas and x not in taught]
    if early:
        message = f"lesson {lesson.id!r} uses {', '.join(early)}, which no lesson before it teaches"
        found.append(_at(lesson, "uses", "content.E038", message))
    return found


def _at(lesson: Lesson, key: str, code: str, message: str) -> Problem:
    """A problem about ``key`` of the lesson's lesson.toml, on its line."""
    path = lesson.path / "lesson.toml"
    try:
        line = Locator(path.read_text("utf-8")).key("", key, 0)
    except OSError:
        line = None
    return problem(code, path, line, message)
