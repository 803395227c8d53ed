"""One course folder → a ``Course`` with its lessons, or None with every problem found in it.

A course folder holds course.toml and one folder per lesson. The lessons follow course.toml's
``order`` (content/path.py), or folder names without one. Every sub-folder is a lesson except
hidden ones and those starting with ``_`` (drafts, caches).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from codeblanks.content.codes import problem
from codeblanks.content.fields import SLUG, Table
from codeblanks.content.files import is_skipped, read_toml
from codeblanks.content.lesson import read_lesson
from codeblanks.content.model import DEFAULT_LEVELS, Course, Lesson, level_slug
from codeblanks.content.path import folder_ids, on_path, read_ideas, read_order, unknown_in_order
from codeblanks.content.problems import Problem
from codeblanks.content.tomlpos import Locator
from codeblanks.content.translation import read_translation

COURSE_KEYS = {"id", "title", "summary", "levels", "languages", "order", "ideas"}
LANGUAGE = re.compile(r"^[a-z]{2}$")  # ISO 639-1: en, tr, de …


def lesson_folders(folder: Path) -> list[Path]:
    """The lesson folders of a course folder, in lesson order (its language folders left out)."""
    try:
        children = sorted(folder.iterdir(), key=lambda child: child.name)
    except OSError:
        return []
    return [
        child
        for child in children
        if child.is_dir() and not is_skipped(child.name) and not _is_translation(child)
    ]


def _is_translation(folder: Path) -> bool:
    """A course's ``tr/`` (its course.toml in that language), not a lesson."""
    return bool(LANGUAGE.fullmatch(folder.name)) and (folder / "course.toml").exists()


def read_course(folder: Path, problems: list[Problem]) -> Course | None:
    """The course in ``folder`` with the lessons that loaded, or None if course.toml has a
    problem. Its lessons are read (and their problems reported) either way."""
    before = len(problems)
    # levels stay unknown (empty: lessons' levels are not checked) while course.toml is broken
    course_id, title, summary = folder.name, "", ""
    levels: tuple[str, ...] = ()
    languages: tuple[str, ...] = ("en",)
    order: tuple[str, ...] | None = None
    ideas: dict[str, str] = {}
    order_line: int | None = None
    folders = lesson_folders(folder)
    parsed = read_toml(folder, "course.toml", problems)
    if parsed is not None:
        data, text = parsed
        root = Table(data, path=folder / "course.toml", locator=Locator(text), problems=problems)
        root.unknown(COURSE_KEYS)
        course_id = root.slug("id", "content.E020") or folder.name
        title = root.text("title")
        summary = root.text("summary")
        levels = _levels(root)
        languages = _languages(root)
        order, ideas, order_line = read_order(root), read_ideas(root), root.line("order")
        if order:
            unknown_in_order(root, order, folder_ids(folders))
    course_ok = len(problems) == before
    if not course_ok:
        languages = ("en",)

    lessons: list[Lesson] = []
    for lesson_folder in folders:
        lesson = read_lesson(lesson_folder, course_id=course_id, levels=levels, problems=problems)
        if lesson is not None:
            lessons.append(_translated(lesson, languages, problems))
    if not folders:
        problems.append(
            problem(
                "content.E023", folder / "course.toml", None, f"course {course_id!r} has no lessons"
            )
        )
        return None
    if not course_ok:
        return None
    lessons = on_path(
        lessons,
        order=order,
        order_at=(folder / "course.toml", order_line),
        levels=levels,
        ideas=ideas,
        problems=problems,
    )
    texts, idea_texts = _course_texts(folder, languages, levels, ideas, problems)
    return Course(
        id=course_id,
        title=title,
        summary=summary,
        path=folder,
        levels=levels,
        lessons=tuple(lessons),
        languages=languages,
        texts=texts,
        ideas=ideas,
        idea_texts=idea_texts,
    )


def _languages(root: Table) -> tuple[str, ...]:
    """The course's languages, its lessons' own first; ("en",) when absent or invalid."""
    if "languages" not in root.data:
        return ("en",)
    raw = root.data["languages"]
    ok = (
        isinstance(raw, list)
        and raw
        and all(isinstance(code, str) and LANGUAGE.fullmatch(code) for code in raw)
        and len(set(raw)) == len(raw)
    )
    if not ok:
        root.report(
            "content.E103",
            "languages",
            'languages must be a non-empty list of distinct two-letter codes, e.g. ["en", "tr"]',
        )
        return ("en",)
    return tuple(raw)


def _translated(lesson: Lesson, languages: tuple[str, ...], problems: list[Problem]) -> Lesson:
    """``lesson`` with its translations into the course's other languages. A language without a
    translation folder is a warning: its learners get the lesson in the original language."""
    translations = {}
    for language in languages[1:]:
        if not (lesson.path / language).is_dir():
            problems.append(
                problem(
                    "content.W003",
                    lesson.path / language,
                    None,
                    f"lesson {lesson.id!r} has no {language}/ translation: its {language} "
                    f"learners get it in {languages[0]}",
                    f"start one: codeblanks translate {lesson.path} --lang {language}",
                )
            )
            continue
        translated = read_translation(lesson, language, problems)
        if translated is not None:
            translations[language] = translated
    return replace(lesson, language=languages[0], translations=translations)


def _course_texts(
    folder: Path,
    languages: tuple[str, ...],
    levels: tuple[str, ...],
    ideas: dict[str, str],
    problems: list[Problem],
) -> tuple[dict[str, tuple[str, str, tuple[str, ...]]], dict[str, dict[str, str]]]:
    """The course's title, summary, level names and ideas' words in each other language
    (``tr/course.toml``)."""
    texts = {}
    idea_texts: dict[str, dict[str, str]] = {}
    for language in languages[1:]:
        if not (folder / language / "course.toml").is_file():
            problems.append(
                problem(
                    "content.W003",
                    folder / language / "course.toml",
                    None,
                    f"the course has no {language}/course.toml: its {language} learners read "
                    f"its title, summary and levels in {languages[0]}",
                )
            )
            continue
        parsed = read_toml(folder / language, "course.toml", problems)
        if parsed is None:
            continue
        data, text = parsed
        path = folder / language / "course.toml"
        root = Table(data, path=path, locator=Locator(text), problems=problems)
        before = len(problems)
        root.unknown({"title", "summary", "levels", "ideas"})
        title, summary = root.text("title"), root.text("summary")
        words = read_ideas(root)
        if sorted(words) != sorted(ideas):
            missing = sorted(set(ideas) - set(words)) or sorted(set(words) - set(ideas))
            code = "content.E100" if set(ideas) - set(words) else "content.E101"
            root.report(code, "ideas", f"[ideas] differ from the original's: {', '.join(missing)}")
        names = root.texts("levels", required=True)
        if names and len(names) != len(levels):
            root.report(
                "content.E100",
                "levels",
                f"{len(names)} level names; the course has {len(levels)} levels",
            )
        if len(problems) == before:
            texts[language] = (title, summary, names)
            idea_texts[language] = words
    return texts, idea_texts


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
