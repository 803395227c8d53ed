"""A function exercise's page lists its tests: a visible test's code can be read, a hidden test
is named only (its code never reaches the page)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeblanks.content import load_courses
from codeblanks.web.pages import selectors

pytestmark = pytest.mark.django_db
FUNCTION = Path(__file__).parents[1] / "content" / "fixtures" / "function"
(COURSE,), _ = load_courses([FUNCTION])
(SHARES,) = COURSE.lessons


class OneCourse:
    courses = (COURSE,)
    problems = ()

    def lesson(self, lesson_id):
        return SHARES if lesson_id == SHARES.id else None

    def lessons(self):
        return [SHARES]


def test_visible_tests_are_shown_and_hidden_ones_named_only(client, monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: OneCourse())
    html = client.get(f"/lessons/{SHARES.id}/").content.decode()
    for test in SHARES.exercise.tests.tests:
        assert test.name in html
    assert "two_rows" in html and "keeps_its_argument" in html  # visible: their code
    assert "many_rows" not in html and "np.arange(1.0, 13.0)" not in html  # hidden: never
    assert "def zeros" not in html and html.count("(hidden)") == 3


def test_an_exercise_without_expected_output_shows_none(client, monkeypatch):
    import dataclasses

    free = dataclasses.replace(
        SHARES,
        exercise=dataclasses.replace(SHARES.exercise, expected_output="", output_graded=False),
    )

    class Free(OneCourse):
        def lesson(self, lesson_id):
            return free if lesson_id == free.id else None

        def lessons(self):
            return [free]

    monkeypatch.setattr(selectors, "current_catalog", lambda: OneCourse())
    assert "Expected output" in client.get(f"/lessons/{SHARES.id}/").content.decode()
    monkeypatch.setattr(selectors, "current_catalog", lambda: Free())
    html = client.get(f"/lessons/{free.id}/").content.decode()
    assert "Expected output" not in html and "two rows" in html
    assert client.get(f"/api/lessons/{free.id}").json()["expected_output"] is None
