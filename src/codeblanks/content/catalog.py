"""The process-wide catalogue: the courses loaded once (built-in plus ``CODEBLANKS_COURSES``)."""

from __future__ import annotations

import functools
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from codeblanks.content.files import stamps
from codeblanks.content.loader import default_paths, load_courses
from codeblanks.content.model import Course, Lesson
from codeblanks.content.problems import Problem

log = logging.getLogger("codeblanks.content")


@dataclass(frozen=True)
class Catalog:
    courses: tuple[Course, ...]
    problems: tuple[Problem, ...] = ()
    _by_id: dict[str, Lesson] = field(default_factory=dict, repr=False, compare=False)
    _languages: dict[str, Catalog] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for lesson in self.lessons():
            self._by_id.setdefault(lesson.id, lesson)

    def lessons(self) -> list[Lesson]:
        """Every loaded lesson, course by course, in lesson order."""
        return [lesson for course in self.courses for lesson in course.lessons]

    def lesson(self, lesson_id: str) -> Lesson | None:
        return self._by_id.get(lesson_id)

    def course(self, course_id: str) -> Course | None:
        return next((course for course in self.courses if course.id == course_id), None)

    def in_language(self, language: str | None) -> Catalog:
        """The catalogue as a learner of ``language`` reads it (made once per language)."""
        if language is None or not any(language in c.languages[1:] for c in self.courses):
            return self
        if language not in self._languages:
            with _making_language:  # one thread makes it; the others asking at once wait
                if language not in self._languages:
                    courses = tuple(course.in_language(language) for course in self.courses)
                    self._languages[language] = Catalog(courses, self.problems)
        return self._languages[language]


_making_language = threading.Lock()
# ``lru_cache`` computes a missing entry in every thread that asks for it at once: a cold web
# worker given a crowd's requests parsed every course in each request thread together (seconds
# of CPU each, the crowd waiting). One thread loads; the others wait for its catalogue.
_loading = threading.Lock()


@functools.lru_cache(maxsize=4)
def _loaded(paths: tuple[Path, ...]) -> Catalog:
    """Keyed by the course folders, so that a changed ``CODEBLANKS_COURSES`` (a test, an
    author's shell) is a catalogue of its own, never one loaded for other folders."""
    courses, problems = load_courses(paths)
    return Catalog(tuple(courses), tuple(problems))


class _Reload:
    """``watch()`` on: the files are looked at again (at most once a second), and the catalogue
    is reloaded when any of them changed, so an author sees an edit at the next page load."""

    on = False
    seen: tuple[tuple[str, int, int], ...] = ()
    checked = 0.0
    lock = threading.Lock()


def watch(on: bool = True) -> None:
    """Reload the catalogue whenever a course file changes (``codeblanks serve --reload``)."""
    _Reload.on, _Reload.seen, _Reload.checked = on, (), 0.0


def watching() -> bool:
    """Whether the catalogue is reloaded when a file changes (``watch``)."""
    return _Reload.on


def _signature() -> tuple[tuple[str, int, int], ...]:
    """The name, size and modification time of every file under the course folders."""
    return tuple(
        found for root in default_paths() if Path(root).is_dir() for found in stamps(Path(root))
    )


def catalog() -> Catalog:
    """The courses of ``load_courses()``, loaded on first use and kept (``catalog.cache_clear()``
    forgets them, e.g. in tests); with ``watch()``, reloaded when a file changes."""
    if _Reload.on and time.monotonic() - _Reload.checked >= 1.0:
        with _Reload.lock:
            _Reload.checked = time.monotonic()
            now = _signature()
            if now != _Reload.seen:
                if _Reload.seen:
                    _loaded.cache_clear()
                    _report(_load(tuple(default_paths())))
                _Reload.seen = now
    return _load(tuple(default_paths()))


def load_every_language() -> Catalog:
    """The catalogue and each of its languages, made now (a server, before it serves)."""
    loaded = catalog()
    for language in {language for course in loaded.courses for language in course.languages}:
        loaded.in_language(language)
    return loaded


def _load(paths: tuple[Path, ...]) -> Catalog:
    with _loading:
        return _loaded(paths)


def _report(loaded: Catalog) -> None:
    """After a reload: why each lesson that is not served failed to load, so that the author
    reads the reason in the server's log rather than meeting a bare 404."""
    errors = [p for p in loaded.problems if not p.warning]
    for found in errors:
        log.warning("after an edit, not loaded: %s", found)
    log.info(
        "courses reloaded: %d lessons served; problems: %d", len(loaded.lessons()), len(errors)
    )


catalog.cache_clear = _loaded.cache_clear  # type: ignore[attr-defined]
