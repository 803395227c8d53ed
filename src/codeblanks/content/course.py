"""One course folder → a ``Course`` with its lessons, or None with every problem found in it.

A course folder holds course.toml and one folder per lesson, ordered by folder name. Every
sub-folder is a lesson except hidden ones and those starting with ``_`` (drafts, caches).
"""

from __future__ import annotations

from pathlib import Path

from codeblanks.content.codes import problem
from codeblanks.content.fields import SLUG, Table
from codeblanks.content.files import is_skipped, read_toml
from codeblanks.content.lesson import read_lesson
from codeblanks.content.model import DEFAULT_LEVELS, Course, Lesson, level_slug
from codeblanks.content.problems import Problem
from codeblanks.content.tomlpos import Locator

COURSE_KEYS = {"id", "title", "summary", "levels"}


def lesson_folders(folder: Path) -> list[Path]:
    """The lesson folders of a course folder, in lesson order."""
    try:
        children = sorted(folder.iterdir(), key=lambda child: child.name)
    except OSError:
        return []
    return [child for child in children if child.is_dir() and not is_skipped(child.name)]


def read_course(folder: Path, problems: list[Problem]) -> Course | None:
    """The course in ``folder`` with the lessons that loaded, or None if course.toml has a
    problem. Its lessons are read (and their problems reported) either way."""
    before = len(problems)
    # levels stay unknown (empty: lessons' levels are not checked) while course.toml is broken
    course_id, title, summary, levels = folder.name, "", "", ()
    parsed = read_toml(folder, "course.toml", problems)
    if parsed is not None:
        data, text = parsed
        root = Table(data, path=folder / "course.toml", locator=Locator(text), problems=problems)
        root.unknown(COURSE_KEYS)
        course_id = root.slug("id", "content.E020") or folder.name
        title = root.text("title")
        summary = root.text("summary")
        levels = _levels(root)
    course_ok = len(problems) == before

    lessons: list[Lesson] = []
    folders = lesson_folders(folder)
    for lesson_folder in folders:
        lesson = read_lesson(lesson_folder, course_id=course_id, levels=levels, problems=problems)
        if lesson is not None:
            lessons.append(lesson)
    if not folders:
        problems.append(
            problem(
                "content.E023", folder / "course.toml", None, f"course {course_id!r} has no lessons"
            )
        )
        return None
    if not course_ok:
        return None
    return Course(
        id=course_id,
        title=title,
        summary=summary,
        path=folder,
        levels=levels,
        lessons=tuple(lessons),
    )


def _levels(root: Table) -> tuple[str, ...]:
    """The course's levels; () when they are invalid (after reporting it)."""
    if "levels" not in root.data:
        return DEFAULT_LEVELS
    raw = root.data["levels"]
    ok = (
        isinstance(raw, list)
        and raw
        and all(isinstance(level, str) and level.strip() for level in raw)
        and len(set(raw)) == len(raw)
    )
    if not ok:
        root.report(
            "content.E021", "levels", "levels must be a non-empty list of distinct, non-empty names"
        )
        return ()
    seen: dict[str, str] = {}
    for level in raw:
        slug = level_slug(level)
        if not SLUG.fullmatch(slug):
            root.report("content.E070", "levels", f"level {level!r} gives the address {slug!r}")
            return ()
        if slug in seen:
            root.report(
                "content.E071", "levels", f"levels {seen[slug]!r} and {level!r} both give {slug!r}"
            )
            return ()
        seen[slug] = level
    return tuple(raw)
