"""The hostile-input findings on parsers, each reproduced: hostile bodies and form fields get a 4xx
with words saying what is wrong, never a 500."""

from __future__ import annotations

import json

import pytest

from .conftest import HOST

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
Q = "/lessons/first-steps/questions/"


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"code": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        b'{"code": ' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}",
        b'{"code": 1' + b"0" * 5000 + b"}",
    ],
    ids=["deep-list", "deep-code", "deep-object", "huge-number"],
)
@pytest.mark.parametrize("url", ["/api/run", "/api/lessons/first-steps/grade"])
def test_deep_or_huge_json_is_400_json(client, sandbox, grader, url, body):
    r = client.post(url, body, content_type="application/json")
    assert r.status_code == 400, r.content[:200]
    assert r.json()["error"] == "bad-json" and "JSON" in r.json()["message"]
    assert sandbox.codes == [] and grader.codes == []


@pytest.mark.parametrize("raw", ["²", "٣", "1" * 5000, "-1", "1.0", " 1", "1\n"])
def test_a_choice_that_is_no_plain_small_number_is_422(client, raw):
    r = client.post(Q + "pick", {"choice": raw}, **HTMX)
    assert r.status_code == 422 and "Choose one of the options." in r.content.decode()


@pytest.mark.parametrize("raw", ["²", "1" * 5000])
def test_a_match_pick_that_is_no_plain_small_number_is_422(client, raw):
    r = client.post(Q + "pairs", {"match-0": raw, "match-1": "1", "match-2": "2"}, **HTMX)
    assert r.status_code == 422 and "Choose a meaning for every term." in r.content.decode()


def test_api_error_bodies_are_json_on_every_api_path(client):
    for path in ("/api", "/api/", "/api/nothing/here"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r["Content-Type"] == "application/json" and r.json()["error"] == "not-found"


def test_a_bad_host_under_api_is_400_json(client):
    r = client.post(
        "/api/run", json.dumps({"code": "1"}), content_type="application/json", HTTP_HOST="evil"
    )
    assert r.status_code == 400
    assert r["Content-Type"] == "application/json" and r.json()["error"] == "bad-host"
    assert HOST != "evil"


def test_a_blank_answer_that_forges_a_huge_line_number_gets_a_verdict(client, monkeypatch):
    """The issue's case, on the built-in lesson with the real grader and sandbox: the answer
    writes a traceback with a 5,000-digit line number and exits. Was a 500."""
    from codeblanks.content import catalog
    from codeblanks.web.pages import selectors

    monkeypatch.setattr(selectors, "current_catalog", catalog)
    answer = (
        "(__import__('sys').stderr.write('Traceback (most recent call last):\\n  File "
        "\"model.py\", line ' + '9' * 5000 + ', in <module>\\nValueError: forged\\n'), "
        "__import__('sys').stderr.flush(), __import__('os')._exit(1))"
    )
    url = "/lessons/query-key-value/questions/scores-line"
    r = client.post(url, {"blank": answer}, **HTMX)
    assert r.status_code == 200, r.content[:300]
    assert "Not right yet" in r.content.decode()


# ---- found by the fuzz test on PostgreSQL, which refuses what SQLite keeps -------------------


def test_a_program_with_a_nul_character_is_refused_in_words(client, grader):
    r = client.post("/lessons/first-steps/run", {"code": "x = 1\ny = '\x00'\n"}, **HTMX)
    assert r.status_code == 422 and "NUL character" in r.content.decode()
    assert "line 2" in r.content.decode() and grader.codes == []


def test_a_blank_answer_with_a_nul_character_is_422(client, blank_checker):
    r = client.post(Q + "fill", {"blank": "1\x00"}, **HTMX)
    assert r.status_code == 422 and "NUL character" in r.content.decode()
    assert blank_checker == []


@pytest.mark.parametrize("name", ["9" * 5000, "ada\x00", "\x00"])
def test_a_hostile_user_name_at_log_in_is_an_ordinary_failure(client, name):
    r = client.post("/accounts/login/", {"username": name, "password": "x"})
    assert r.status_code == 200


def test_axes_gets_a_real_address_or_none():
    from django.test import RequestFactory

    from codeblanks.web.views.accounts import axes_address, axes_username

    rf = RequestFactory()
    assert axes_address(rf.get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"
    assert axes_address(rf.get("/", REMOTE_ADDR="unknown")) is None
    assert axes_username(rf.post("/", {"username": "a\x00" + "b" * 500})) == "a" + "b" * 149


@pytest.mark.parametrize("path", ["/api", "/api/", "/api/run", "/api/lessons"])
def test_through_the_asgi_app_every_api_path_answers_json(sandbox, path):
    """The API's own handler (asgi.py), bad Host included, as uvicorn would call it."""
    from .test_api_fast_path import call

    for host in (HOST, "evil.example"):
        answer = call("GET", path, host=host)
        assert answer.headers["content-type"] == "application/json", (path, host)
        assert answer.status < 500
    assert call("GET", path, host="evil.example").json()["error"] == "bad-host"


# ---- text no UTF-8 column can hold (a lone surrogate, sent as JSON) ---------------------------

LONE = '{"code": "x = \'\\ud800\'\\nprint(1)"}'  # JSON may spell a lone surrogate; UTF-8 cannot


def _token(client) -> str:
    from .test_learner_api import make_token

    return make_token(client)[1]


def test_a_graded_program_with_a_lone_surrogate_is_400_in_words(client, grader):
    """With a token the grade saves the code: that save crashed (a 500) on the surrogate."""
    from codeblanks.web.models import LessonProgress

    token = _token(client)
    r = client.post(
        "/api/lessons/first-steps/grade",
        LONE,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert r.status_code == 400, r.content[:300]
    assert r.json()["error"] == "bad-character"
    assert "line 1" in r.json()["message"] and "U+D800" in r.json()["message"]
    assert grader.codes == [] and not LessonProgress.objects.exists()


@pytest.mark.parametrize("url", ["/api/run", "/api/lessons/first-steps/grade"])
def test_a_program_with_a_lone_surrogate_is_400_without_a_token_too(client, sandbox, grader, url):
    r = client.post(url, LONE, content_type="application/json")
    assert r.status_code == 400 and r.json()["error"] == "bad-character", r.content[:300]
    assert sandbox.codes == [] and grader.codes == []


@pytest.mark.parametrize("answer", ["1\\ud800", "1\\udfff", "1\\u0000"])
def test_a_blank_answer_sent_with_a_token_that_cannot_be_kept_is_400(client, blank_checker, answer):
    from codeblanks.web.models import QuestionAnswer

    token = _token(client)
    r = client.post(
        "/api/lessons/first-steps/questions/fill",
        '{"answer": "' + answer + '"}',
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert r.status_code == 400, r.content[:300]
    assert r.json()["error"] == "bad-answer" and "character" in r.json()["message"]
    assert blank_checker == [] and not QuestionAnswer.objects.exists()
