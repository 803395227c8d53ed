"""Fixtures for the web tests: a small course of our own (so tests do not depend on the wording
of the built-in course), a grader stand-in for view unit tests, the sandbox's scripted double,
clients, and an LMS registered with the tool and a class for the LTI tests."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import AsyncClient, Client

from codeblanks.content.model import (
    BlankQuestion,
    ChoiceQuestion,
    Course,
    Exercise,
    Lesson,
    MatchQuestion,
)
from codeblanks.grading import BlankVerdict, Grade
from codeblanks.grading.verdicts import Verdict
from codeblanks.learning import tutor
from codeblanks.sandbox.testing import FakeRunner
from codeblanks.web.learner import store
from codeblanks.web.pages import selectors
from codeblanks.web.teaching import classes
from codeblanks.web.views import health

from .lti_platform import Platform, give_the_tool_a_key

HOST = "localhost"


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by the marks
def pytest_collection_modifyitems(items):
    """Mark the web tests that use the database ``web_db``: `make test` runs them on PostgreSQL
    when one answers, else on SQLite (the Makefile says why)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here) and item.get_closest_marker("django_db"):
            item.add_marker("web_db")


CHOICE = ChoiceQuestion(
    id="pick",
    prompt="Which one is `2`?",
    options=("one", "two", "three"),
    answer=1,
    explanation="Two is 2.",
)
BLANK = BlankQuestion(
    id="fill",
    prompt="Add one.",
    code="y = x + ____",
    answer="1",
    explanation="Plus one.",
)
MATCH = MatchQuestion(
    id="pairs",
    prompt="Match them.",
    pairs=(("Query", "what I look for"), ("Key", "what I offer"), ("Value", "what I give")),
    explanation="Q, K, V.",
)

FIRST = Lesson(
    id="first-steps",
    uuid="11111111-1111-4111-8111-111111111111",
    title="First steps",
    summary="Print two lines.",
    level="Beginner",
    course_id="test-course",
    path=Path("/nowhere"),
    explanation_md="Squares: $x^2$.\n\n```python\nprint(1 < 2)\n```\n",
    exercise=Exercise(
        task_md="Print `a` then `b`.",
        filename="model.py",
        starter="# print a and b\n",
        solution="print('a')\nprint('b')\n",
        expected_output="a\nb\n",
    ),
    questions=(CHOICE, BLANK, MATCH),
)
LAST = Lesson(
    id="last-steps",
    uuid="22222222-2222-4222-8222-222222222222",
    title="Last steps",
    summary="Print nothing much.",
    level="Expert",
    course_id="test-course",
    path=Path("/nowhere"),
    explanation_md="Done.",
    exercise=Exercise(
        task_md="Print `z`.",
        filename="main.py",
        starter="",
        solution="print('z')\n",
        expected_output="z\n",
    ),
)
COURSE = Course(
    id="test-course",
    title="Test course",
    summary="For the tests.",
    path=Path("/nowhere"),
    lessons=(FIRST, LAST),
)


class FakeCatalog:
    courses = (COURSE,)
    problems = ()

    def lesson(self, lesson_id):
        return {x.id: x for x in COURSE.lessons}.get(lesson_id)

    def lessons(self):
        return list(COURSE.lessons)


@pytest.fixture(autouse=True)
def test_catalog(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: FakeCatalog())


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def fresh_health_check(monkeypatch):
    """/healthz's last sandbox check, none yet: each test's probe checks its own sandbox."""
    monkeypatch.setattr(health, "_check", health.SandboxCheck())


class FakeGrader:
    """Stands in for codeblanks.grading.agrade in view tests: the solution is correct, code with
    "boom" fails with a traceback, anything else prints what follows "print:" and is wrong."""

    def __init__(self):
        self.codes: list[str] = []
        self.clients: list[str | None] = []  # whom each grade's runs were counted to

    async def __call__(self, lesson, code, sandbox=None, client=None):
        self.codes.append(code)
        self.clients.append(client)
        expected = lesson.exercise.expected_output
        if code == lesson.exercise.solution:
            return Grade("correct", expected, "", expected, duration_ms=12.0)
        if "boom" in code:
            tb = (
                'Traceback (most recent call last):\n  File "model.py", line 2, in <module>\n'
                "    1 / 0\nZeroDivisionError: division by zero\n"
            )
            return Grade("error", "", tb, expected, ("Division by zero.",), "visible", line=2)
        if "sleep" in code:
            return Grade("timeout", "", "", expected, (), "visible")
        printed = code.split("print:", 1)[1] if "print:" in code else "a\nc\n"
        return Grade(
            "incorrect",
            printed,
            "",
            expected,
            ("Line 2 differs.",),
            "visible",
            diff=("--- expected", "+++ your output", "@@ -1,2 +1,2 @@", " a", "-b", "+c"),
        )


@pytest.fixture
def grader(monkeypatch):
    fake = FakeGrader()
    monkeypatch.setattr(tutor, "agrade", fake)
    return fake


@pytest.fixture
def sandbox(monkeypatch):
    """A ``FakeRunner`` for the site and /healthz: it prints 42, and notes what it was asked."""
    fake = FakeRunner()
    monkeypatch.setattr(store, "get_sandbox", lambda: fake)
    monkeypatch.setattr(health, "get_sandbox", lambda: fake)
    return fake


def judged(correct: bool, message: str = "") -> BlankVerdict:
    """The grader's verdict on a blank answer judged ``correct`` or not."""
    return BlankVerdict(correct, message, verdict=Verdict.CORRECT if correct else Verdict.INCORRECT)


@pytest.fixture
def blank_checker(monkeypatch):
    seen = []

    async def acheck_blank(lesson, question, answer, sandbox=None, client=None):
        seen.append(answer)
        return judged(answer.replace(" ", "") in ("1", "1.0"), f"{answer} gives a value")

    monkeypatch.setattr(tutor, "acheck_blank", acheck_blank)
    return seen


@pytest.fixture
def client():
    return Client(HTTP_HOST=HOST)


@pytest.fixture
def csrf_client():
    return Client(HTTP_HOST=HOST, enforce_csrf_checks=True)


@pytest.fixture
def async_client():
    return AsyncClient(HTTP_HOST=HOST)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def platform(live_server):
    """An LMS (tests/web/lti_platform.py) registered with the tool, as an administrator does."""
    lms = Platform(live_server.url)
    give_the_tool_a_key()
    out = io.StringIO()
    call_command("lti_register", *lms.registration_args(), stdout=out)
    assert "Initiate login URL" in out.getvalue()
    yield lms
    lms.close()


@pytest.fixture
def room():
    """A class "7B" of the first and last lessons, made by a teacher."""
    teacher = get_user_model().objects.create_user("teacher", password="x" * 20)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = get_user_model().objects.get(pk=teacher.pk)
    return classes.class_create(teacher, classes.Plan("7B", (FIRST.id, LAST.id), {}))
