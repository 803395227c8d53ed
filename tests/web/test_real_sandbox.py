"""The same paths with the real sandbox and grader (no stand-ins): what a program prints
reaches the learner escaped, and the API and the health check answer for real."""

import json

import pytest

from .conftest import FIRST

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.django_db
def test_a_printed_script_tag_is_escaped_on_the_page(client):
    code = "print('<script>alert(1)</script>')\n"
    html = client.post(f"/lessons/{FIRST.id}/run", {"code": code}, **HTMX).content.decode()
    assert 'data-verdict="incorrect"' in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html


@pytest.mark.django_db
def test_the_solution_is_correct_and_an_error_points_at_the_line(client):
    html = client.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution}, **HTMX)
    assert 'data-verdict="correct"' in html.content.decode()
    html = client.post(f"/lessons/{FIRST.id}/run", {"code": "x = 1\nprint(1 / 0)\n"}, **HTMX)
    text = html.content.decode()
    assert (
        'data-verdict="error"' in text and "ZeroDivisionError" in text and 'data-line="2"' in text
    )


def test_api_run_uses_the_sandbox(client):
    r = client.post("/api/run", json.dumps({"code": "print('<b>', 6 * 7)"}), "application/json")
    assert r.status_code == 200
    assert r.json()["verdict"] == "ok" and r.json()["stdout"] == "<b> 42\n"


def test_api_grade_uses_the_grader(client):
    r = client.post(
        f"/api/lessons/{FIRST.id}/grade", json.dumps({"code": "print('a')"}), "application/json"
    )
    data = r.json()
    assert r.status_code == 200 and data["verdict"] == "incorrect" and data["expected"] == "a\nb\n"


@pytest.mark.django_db
def test_healthz_runs_a_real_program(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json()["sandbox"] == "ok"
