"""The run rate counts programs, not requests: a grade of a lesson with one visible case and
three hidden variants runs four programs and is charged four, before it runs."""

from __future__ import annotations

import dataclasses
import json

import pytest
from django.test import override_settings

from codeblanks.content.model import Variant
from codeblanks.grading.cases import programs_for

from . import conftest
from .test_run import _config

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}

VARIANTS = tuple(Variant(f"v{i}", {"x": str(i)}) for i in range(3))
FOUR = dataclasses.replace(
    conftest.FIRST,
    exercise=dataclasses.replace(
        conftest.FIRST.exercise,
        grading=dataclasses.replace(conftest.FIRST.exercise.grading, variants=VARIANTS),
    ),
)


@pytest.fixture(autouse=True)
def four_cases(monkeypatch):
    monkeypatch.setattr(conftest.FakeCatalog, "lesson", lambda self, i: {FOUR.id: FOUR}.get(i))


def test_a_grade_runs_one_program_per_case():
    assert programs_for(conftest.FIRST) == 1 and programs_for(FOUR) == 4


def test_two_grades_of_four_fill_a_rate_of_eight(client, grader):
    with override_settings(CODEBLANKS=_config(run_rate=8)):
        url = f"/lessons/{FOUR.id}/run"
        assert client.post(url, {"code": "print:1"}, **HTMX).status_code == 200
        assert client.post(url, {"code": "print:2"}, **HTMX).status_code == 200
        assert client.post(url, {"code": "print:3"}, **HTMX).status_code == 429
    assert len(grader.codes) == 2


def test_the_api_grade_is_charged_the_same(client, grader, sandbox):
    body = json.dumps({"code": "print(1)"})
    grade = f"/api/lessons/{FOUR.id}/grade"
    with override_settings(CODEBLANKS=_config(run_rate=5)):
        assert client.post(grade, body, content_type="application/json").status_code == 200
        assert client.post("/api/run", body, content_type="application/json").status_code == 200
        r = client.post(grade, body, content_type="application/json")
    assert r.status_code == 429 and r.json()["error"] == "rate-limited"
    assert len(grader.codes) == 1 and len(sandbox.codes) == 1


def test_a_grade_larger_than_the_whole_rate_still_runs_once_a_minute(client, grader):
    with override_settings(CODEBLANKS=_config(run_rate=2)):
        url = f"/lessons/{FOUR.id}/run"
        assert client.post(url, {"code": "print:1"}, **HTMX).status_code == 200
        assert client.post(url, {"code": "print:2"}, **HTMX).status_code == 429


def test_reading_a_long_program_is_charged_too():
    """Parsing a program and making its variants costs in proportion to its size."""
    assert programs_for(FOUR, "x" * 16384) == 4
    assert programs_for(FOUR, "x" * 16385) == 5 and programs_for(FOUR, "x" * 65536) == 7
    assert programs_for(conftest.FIRST, "x" * 65536) == 1  # no variants: nothing to read


def test_a_long_program_fills_the_rate_sooner(client, grader):
    long_program = "print(1)\n" + "#" * 65000 + "\n"
    with override_settings(CODEBLANKS=_config(run_rate=10)):
        url = f"/lessons/{FOUR.id}/run"
        assert client.post(url, {"code": long_program}, **HTMX).status_code == 200  # 7
        assert client.post(url, {"code": "print:2"}, **HTMX).status_code == 429  # 7 + 4 > 10
    assert len(grader.codes) == 1
