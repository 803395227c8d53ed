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


@pytest.mark.django_db
def test_api_grade_of_a_wrong_longdouble_value_is_a_verdict(client, monkeypatch):
    """Security review S4: a checked value in float128 (an honest NumPy dtype) was a 500."""
    from codeblanks.content import catalog
    from codeblanks.web.pages import selectors

    qkv = catalog().lesson("query-key-value")
    monkeypatch.setattr(selectors, "current_catalog", lambda: QkvCatalog(qkv))
    q = "Q = X @ W_q"
    code = qkv.exercise.solution.replace(q, f"{q}\nQ = Q.astype(np.longdouble)\nQ[0, 0] += 1")
    r = client.post(f"/api/lessons/{qkv.id}/grade", json.dumps({"code": code}), "application/json")
    assert r.status_code == 200 and r.json()["verdict"] == "incorrect"
    assert [pair["name"] for pair in r.json()["arrays"]][0] == "Q"


class QkvCatalog:
    """The built-in QKV lesson alone."""

    problems = ()

    def __init__(self, lesson):
        self.courses, self.only = (), lesson

    def lesson(self, lesson_id):
        return self.only if lesson_id == self.only.id else None

    def lessons(self):
        return [self.only]
