"""The static checks' registry (``content.checks``): the built-in checks in their order, and a
check registered anywhere runs with them, so every door that checks courses runs the same."""

from __future__ import annotations

from pathlib import Path

from codeblanks.content import checks, load_courses
from codeblanks.content.codes import problem
from codeblanks.content.giveaways import giveaways
from codeblanks.content.todos import course_todos

FIXTURES = Path(__file__).parent / "fixtures"


def test_the_built_in_checks_run_todos_first_then_giveaways():
    assert checks.static_checks()[:2] == [course_todos, giveaways]


def test_a_registered_check_runs_on_every_course_after_the_built_in_ones(monkeypatch):
    monkeypatch.setattr(checks, "_registered", list(checks._registered))
    seen = []

    @checks.register
    def named(course):
        seen.append(course.id)
        return [problem("content.W001", course.path, None, f"seen {course.id}")]

    courses, _ = load_courses([FIXTURES / "valid"])
    found = checks.run_static_checks(courses)
    assert seen == [course.id for course in courses]
    assert found[-1].message == f"seen {courses[0].id}"
    assert checks.static_checks()[-1] is named
