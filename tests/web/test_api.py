"""The JSON API: same objects as the CLI's --json, JSON errors, never a 500, no session."""

import dataclasses
import json

import pytest
from django.test import override_settings

from codeblanks.web.models import Attempt, LessonProgress

from .test_run import _config

RUN = "/api/run"
GRADE = "/api/lessons/first-steps/grade"


def post(client, url, body, content_type="application/json"):
    return client.post(url, body, content_type=content_type)


def test_lessons_lists_every_lesson(client):
    data = client.get("/api/lessons").json()
    ids = [x["id"] for x in data["lessons"]]
    assert ids == ["first-steps", "last-steps"]
    first = data["lessons"][0]
    assert first["filename"] == "model.py" and first["starter"] == "# print a and b\n"
    assert "solution" not in first and first["grade_url"].endswith(GRADE)


def test_run_answers_like_the_cli(client, sandbox):
    r = post(client, RUN, json.dumps({"code": "print(6 * 7)"}))
    assert r.status_code == 200 and r["Content-Type"] == "application/json"
    assert r.json() == {
        "verdict": "ok",
        "stdout": "42\n",
        "stderr": "",
        "exit_code": 0,
        "signal": None,
        "duration_ms": 3.0,
    }
    assert sandbox.codes == ["print(6 * 7)"]
    assert sandbox.clients == ["127.0.0.1"]  # the sandbox shares itself out by address


@pytest.mark.django_db
def test_grade_answers_like_the_cli_and_writes_nothing(client, grader):
    client.get("/lessons/first-steps/")  # a browser session exists...
    r = post(client, GRADE, json.dumps({"code": "print('a')\nprint('b')\n"}))
    assert r.status_code == 200 and r.json()["verdict"] == "correct"
    assert not Attempt.objects.exists() and not LessonProgress.objects.exists()  # ...unused
    assert "sessionid" not in r.cookies and "csrftoken" not in r.cookies
    assert grader.clients == ["127.0.0.1"]


def test_unknown_lesson_is_404_json(client, grader):
    r = post(client, "/api/lessons/nope/grade", json.dumps({"code": "x"}))
    assert r.status_code == 404 and r.json()["error"] == "no-such-lesson"
    r = client.get("/api/nothing/here")
    assert r.status_code == 404 and r.json()["error"] == "not-found"


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{",
        b"null",
        b"[]",
        b'"code"',
        b"42",
        b'{"cod": "x"}',
        b'{"code": 1}',
        b'{"code": null}',
        b'{"code": ["x"]}',
        b"\xff\xfe\x00",
        b'{"code": "\\ud800"}x',
        b"NaN",
        b'{"code": {"a": 1}}',
    ],
)
@pytest.mark.parametrize("url", [RUN, GRADE])
def test_bad_bodies_are_400_json(client, sandbox, grader, url, body):
    r = post(client, url, body)
    assert r.status_code == 400, r.content
    assert r.json()["error"] in ("bad-json", "missing-code", "bad-code")
    assert sandbox.codes == [] and grader.codes == []


def test_wrong_content_type_is_still_parsed_as_json(client, sandbox):
    r = post(client, RUN, json.dumps({"code": "1"}), content_type="text/plain")
    assert r.status_code == 200


def test_too_large_is_413(client, sandbox):
    with override_settings(CODEBLANKS=_config(max_code_bytes=100)):
        r = post(client, RUN, json.dumps({"code": "é" * 51}))
    assert r.status_code == 413 and r.json()["error"] == "too-large" and sandbox.codes == []


def test_huge_body_is_413_not_500(client, sandbox):
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000):
        r = post(client, RUN, json.dumps({"code": "x" * 5000}))
    assert r.status_code == 413 and r.json()["error"] == "too-large"


def test_too_many_runs_is_429_per_client(client, sandbox):
    with override_settings(CODEBLANKS=_config(run_rate=2)):
        codes = [post(client, RUN, '{"code": "1"}').status_code for _ in range(3)]
        other = client.post(
            RUN, '{"code": "1"}', content_type="application/json", REMOTE_ADDR="10.0.0.9"
        )
    assert codes == [200, 200, 429] and other.status_code == 200
    assert len(sandbox.codes) == 3


def test_wrong_method_is_405_json(client):
    r = client.get(RUN)
    assert r.status_code == 405 and r.json()["error"] == "method-not-allowed"
    assert client.post("/api/lessons").status_code == 405


def test_no_csrf_token_needed(csrf_client, sandbox):
    r = csrf_client.post(RUN, '{"code": "print(1)"}', content_type="application/json")
    assert r.status_code == 200


def test_a_cache_outage_does_not_stop_runs(client, sandbox, monkeypatch):
    from codeblanks.web.learner import quotas

    async def down(key):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(quotas, "_count", down)
    assert post(client, RUN, '{"code": "1"}').status_code == 200


def test_lesson_links_come_from_the_site_url_not_from_the_host(client, settings):
    """With CODEBLANKS_SITE_URL set, a request's Host (here with a port of its choosing) does
    not choose where the API sends a client next."""
    site = "https://learn.example.org"
    settings.CODEBLANKS = dataclasses.replace(settings.CODEBLANKS, site_url=site)
    lesson = client.get("/api/lessons", HTTP_HOST="localhost:1").json()["lessons"][0]
    assert lesson["url"] == f"{site}/lessons/{lesson['id']}/"
    assert lesson["grade_url"] == f"{site}/api/lessons/{lesson['id']}/grade"
    settings.CODEBLANKS = dataclasses.replace(settings.CODEBLANKS, site_url="")
    lesson = client.get("/api/lessons", HTTP_HOST="localhost:1").json()["lessons"][0]
    assert lesson["url"] == f"http://localhost:1/lessons/{lesson['id']}/"  # no site URL: the Host
