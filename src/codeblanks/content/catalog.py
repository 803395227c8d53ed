"""The process-wide catalogue: the courses loaded once (built-in plus ``CODEBLANKS_COURSES``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from codeblanks.content.loader import load_courses
from codeblanks.content.model import Course, Lesson
from codeblanks.content.problems import Problem


@dataclass(frozen=True)
class Catalog:
    courses: tuple[Course, ...]
    problems: tuple[Problem, ...] = ()
    _by_id: dict[str, Lesson] = field(default_factory=dict, repr=False, compare=False)

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


@functools.cache
def catalog() -> Catalog:
    """The courses of ``load_courses()``, loaded on first use and kept (``catalog.cache_clear()``
    forgets them, e.g. in tests)."""
    courses, problems = load_courses()
    return Catalog(tuple(courses), tuple(problems))
