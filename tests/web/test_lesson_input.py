"""A lesson whose program reads input, and "Builds on" in the API: ``GET /api/lessons/<id>``
gives the visible input and the earlier lessons the lesson builds on (in the language asked
for), the lesson page shows the input under the task, escaped, and a grade through the API runs
the program on it. The built-in Python course, and one lesson of our own for the escaping."""

from __future__ import annotations

import dataclasses

import pytest

from codeblanks.web.pages import selectors
from codeblanks.web.pages.selectors import current_catalog as builtin_catalog

from .conftest import COURSE, FIRST

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def builtin(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", builtin_catalog)


def test_the_api_gives_the_input_and_what_the_lesson_builds_on(client, builtin):
    shown = client.get("/api/lessons/py-input").json()
    assert shown["stdin"] == "12\n30\n"
    assert shown["builds_on"] == [
        {"id": "py-print-and-variables", "title": "Printing and variables",
         "idea": "printing and variables"},
        {"id": "py-strings", "title": "Strings: working with text", "idea": "strings"},
        {"id": "py-numbers-and-arithmetic", "title": "Numbers and arithmetic",
         "idea": "numbers and arithmetic"},
        {"id": "py-if-and-else", "title": "Choices: if, elif and else",
         "idea": "choices with if and else"},
    ]  # fmt: skip


def test_builds_on_comes_in_the_language_asked_for(client, builtin):
    shown = client.get("/api/lessons/py-input?lang=tr").json()
    assert shown["builds_on"][-1] == {
        "id": "py-if-and-else",
        "title": "Kararlar: if, elif ve else",
        "idea": "if ve else ile kararlar",
    }


def test_the_first_lesson_builds_on_nothing_and_reads_no_input(client, builtin):
    shown = client.get("/api/lessons/py-print-and-variables").json()
    assert shown["builds_on"] == [] and shown["stdin"] is None


def test_a_grade_through_the_api_runs_the_program_on_its_input(client, builtin):
    solution = builtin_catalog().lesson("py-input").exercise.solution
    right = client.post(
        "/api/lessons/py-input/grade", {"code": solution}, content_type="application/json"
    ).json()
    assert right["verdict"] == "correct", right
    past = solution.replace("b = input()\n", "b = input()\nc = input()\n")
    wrong = client.post(
        "/api/lessons/py-input/grade", {"code": past}, content_type="application/json"
    ).json()
    assert wrong["verdict"] == "error"
    assert any("asked for more input than this case gives" in f for f in wrong["feedback"])


def test_the_page_shows_the_input_under_the_task_escaped(client, monkeypatch):
    reading = dataclasses.replace(
        FIRST,
        exercise=dataclasses.replace(FIRST.exercise, stdin="<b>Ada</b>\n36\n"),
        version="reads-input",  # a page part of the plain FIRST is never this one's
    )

    class Catalog:
        courses = (dataclasses.replace(COURSE, lessons=(reading,) + COURSE.lessons[1:]),)
        problems = ()

        def lesson(self, lesson_id):
            return {x.id: x for x in self.courses[0].lessons}.get(lesson_id)

        def lessons(self):
            return list(self.courses[0].lessons)

    monkeypatch.setattr(selectors, "current_catalog", lambda: Catalog())
    page = client.get(f"/lessons/{FIRST.id}/").content.decode()
    assert "Input your program reads" in page
    assert "&lt;b&gt;Ada&lt;/b&gt;\n36\n</pre>" in page
    assert "<b>Ada</b>" not in page


def test_a_lesson_without_input_shows_no_input(client, builtin):
    page = client.get("/lessons/py-print-and-variables/").content.decode()
    assert "Input your program reads" not in page
    assert "Input your program reads" in client.get("/lessons/py-input/").content.decode()
