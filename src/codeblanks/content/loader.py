"""Folders → courses and problems: ``load_courses`` finds the course folders under the given
paths, reads each one (``course.read_course``; a built-in one from its parsed copy when that is
current, ``kept.py``) and then checks what only shows across courses: course ids, lesson ids
and lesson uuids must each be unique. It never raises on content: broken lessons and courses
are left out and reported."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import codeblanks
from codeblanks.content.codes import problem
from codeblanks.content.course import lesson_folders, read_course
from codeblanks.content.files import is_skipped
from codeblanks.content.kept import read_kept
from codeblanks.content.model import Course, Lesson
from codeblanks.content.problems import Problem
from codeblanks.content.tomlpos import Locator

BUILTIN_COURSES = Path(codeblanks.__file__).resolve().parent / "courses"
ENV_COURSES = "CODEBLANKS_COURSES"


def default_paths() -> list[Path]:
    """The built-in courses, then the folders in ``CODEBLANKS_COURSES`` (``os.pathsep`` between)."""
    extra = os.environ.get(ENV_COURSES, "")
    return [BUILTIN_COURSES, *(Path(part) for part in extra.split(os.pathsep) if part.strip())]


def load_courses(
    paths: Iterable[str | os.PathLike[str]] | None = None,
) -> tuple[list[Course], list[Problem]]:
    """Every course under ``paths`` (each a course folder or a folder of course folders; None
    means ``default_paths()``), and every problem found, in folder order."""
    problems: list[Problem] = []
    folders: list[Path] = []
    seen: set[Path] = set()
    for path in default_paths() if paths is None else [Path(p) for p in paths]:
        for folder in find_course_folders(path, problems):
            key = folder.resolve()
            if key not in seen:
                seen.add(key)
                folders.append(folder)
    courses = [course for folder in folders if (course := read_kept(folder, problems, read_course))]
    return _unique(courses, problems), problems


def find_course_folders(path: Path, problems: list[Problem]) -> list[Path]:
    """``path`` itself if it holds course.toml, else its sub-folders that do. A folder of lesson
    folders without course.toml is reported as such, anything else as no course found."""
    if not path.is_dir():
        what = "does not exist" if not path.exists() else "is not a folder"
        problems.append(problem("content.E024", path, None, f"{path} {what}"))
        return []
    if _has_course_toml(path):
        return [path]
    found, orphans = [], []
    for child in _subfolders(path):
        if _has_course_toml(child):
            found.append(child)
        elif _looks_like_course(child):
            orphans.append(child)
    if not found and _looks_like_course(path):
        orphans = [path]
    for orphan in orphans:
        problems.append(
            problem(
                "content.E001",
                orphan / "course.toml",
                None,
                f"{orphan.name} holds lessons but no course.toml",
                "add a course.toml with id, title and summary",
            )
        )
    if not found and not orphans:
        problems.append(problem("content.E024", path, None, f"no course found in {path}"))
    return found


def _subfolders(path: Path) -> list[Path]:
    try:
        return sorted(
            (c for c in path.iterdir() if c.is_dir() and not is_skipped(c.name)),
            key=lambda c: c.name,
        )
    except OSError:
        return []


def _has_course_toml(folder: Path) -> bool:
    return (folder / "course.toml").exists() or (folder / "course.toml").is_symlink()


def _looks_like_course(folder: Path) -> bool:
    return any((child / "lesson.toml").exists() for child in lesson_folders(folder))


def _unique(courses: list[Course], problems: list[Problem]) -> list[Course]:
    """The courses with later duplicates left out: a course whose id is taken, a lesson whose id
    or uuid is taken (first come, first kept)."""
    course_ids: dict[str, Course] = {}
    lesson_ids: dict[str, Lesson] = {}
    uuids: dict[str, Lesson] = {}
    kept: list[Course] = []
    for course in courses:
        if course.id in course_ids:
            first = course_ids[course.id]
            path = course.path / "course.toml"
            problems.append(
                problem(
                    "content.E022",
                    path,
                    _key_line(path, "id"),
                    f"course id {course.id!r} is also the id of {first.path}",
                )
            )
            continue
        course_ids[course.id] = course
        lessons = []
        for lesson in course.lessons:
            path = lesson.path / "lesson.toml"
            clash = False
            if lesson.id in lesson_ids:
                clash = True
                problems.append(
                    problem(
                        "content.E033",
                        path,
                        _key_line(path, "id"),
                        f"lesson id {lesson.id!r} is also the id of {lesson_ids[lesson.id].path}",
                    )
                )
            if lesson.uuid in uuids:
                clash = True
                problems.append(
                    problem(
                        "content.E034",
                        path,
                        _key_line(path, "uuid"),
                        f"uuid {lesson.uuid} is also the uuid of {uuids[lesson.uuid].path}",
                    )
                )
            if not clash:
                lesson_ids[lesson.id] = lesson
                uuids[lesson.uuid] = lesson
                lessons.append(lesson)
        kept.append(_with_lessons(course, lessons))
    return kept


def _with_lessons(course: Course, lessons: list[Lesson]) -> Course:
    if len(lessons) == len(course.lessons):
        return course
    return Course(
        course.id, course.title, course.summary, course.path, course.levels, tuple(lessons)
    )


def _key_line(path: Path, key: str) -> int | None:
    try:
        return Locator(path.read_text("utf-8")).key("", key)
    except (OSError, UnicodeDecodeError):
        return None
