"""The classes in the JSON API, with personal tokens (docs/api.md, "Classes"): a teacher makes
a class and reads its progress as JSON and CSV, learners join by code; every refusal is a JSON
error in words."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command

from codeblanks.web.teaching import classes

from .conftest import FIRST, LAST
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db


def post(client, url, body, token):
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, data, content_type="application/json", **auth(token))


@pytest.fixture
def teacher(client):
    _user, token = make_token(client, "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    return token


def test_a_teacher_makes_a_class_learners_join_and_the_progress_reads_back(client, teacher, grader):
    made = post(
        client,
        "/api/classes",
        {"name": "7B", "lessons": [FIRST.id, LAST.id], "due": {LAST.id: "2030-01-31"}},
        teacher,
    )
    assert made.status_code == 201
    room = made.json()
    assert set(room) == {"id", "name", "join_code", "join_url"}
    _ada, ada = make_token(client, "ada")
    _bob, bob = make_token(client, "bob")
    joined = post(client, "/api/classes/join", {"code": room["join_code"]}, ada)
    assert joined.json() == {"id": room["id"], "name": "7B", "joined": True}
    again = post(client, "/api/classes/join", {"code": room["join_code"]}, ada)
    assert again.json()["joined"] is False
    post(client, "/api/classes/join", {"code": room["join_code"]}, bob)
    post(client, f"/api/lessons/{FIRST.id}/grade", {"code": FIRST.exercise.solution}, ada)
    post(client, f"/api/lessons/{FIRST.id}/grade", {"code": "print:x"}, bob)

    report = client.get(f"/api/classes/{room['id']}/progress", **auth(teacher)).json()
    assert [x["id"] for x in report["lessons"]] == [FIRST.id, LAST.id]
    assert report["lessons"][1]["due_on"] == "2030-01-31"
    people = {p["username"]: p["lessons"] for p in report["learners"]}
    assert people["ada"][FIRST.id]["solved"] is True and people["ada"][FIRST.id]["runs"] == 1
    assert people["bob"][FIRST.id]["solved"] is False and people["bob"][FIRST.id]["runs"] == 1
    assert people["bob"][LAST.id]["runs"] == 0
    table = client.get(f"/api/classes/{room['id']}/progress.csv", **auth(teacher))
    assert table["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(table.content.decode("utf-8-sig"))))
    assert {(r["learner"], r["lesson"], r["solved"]) for r in rows if r["lesson"] == FIRST.id} == {
        ("ada", FIRST.id, "1"),
        ("bob", FIRST.id, "0"),
    }


def test_refusals_are_json_in_words(client, teacher):
    _ada, ada = make_token(client, "ada")
    assert (
        post(client, "/api/classes", {"name": "x", "lessons": [FIRST.id]}, ada).json()["error"]
        == "not-a-teacher"
    )
    no_token = client.post("/api/classes", "{}", content_type="application/json")
    assert no_token.status_code == 401 and no_token.json()["error"] == "no-token"
    cases = [
        ("[1]", "bad-class"),
        ("{not json", "bad-json"),
        ({"name": 3, "lessons": []}, "bad-class"),
        ({"name": "x", "lessons": "all"}, "bad-class"),
        ({"name": "x", "lessons": ["nope"]}, "bad-class"),
        ({"name": "x", "lessons": [FIRST.id], "due": {FIRST.id: "tomorrow"}}, "bad-class"),
    ]
    for body, code in cases:
        answer = post(client, "/api/classes", body, teacher)
        assert answer.status_code == 400 and answer.json()["error"] == code, body
        assert answer.json()["message"]
    assert post(client, "/api/classes/join", {"code": "ZZZZ-ZZZZ"}, ada).status_code == 404
    assert post(client, "/api/classes/join", {"code": 5}, ada).json()["error"] == "missing-code"
    assert client.get("/api/classes/join", **auth(ada)).status_code == 405


def test_a_teacher_reads_only_their_own_class(client, teacher):
    room = post(client, "/api/classes", {"name": "7B", "lessons": [FIRST.id]}, teacher).json()
    _other, other = make_token(client, "other")
    call_command("grant_teacher", "other", stdout=io.StringIO())
    for url in (f"/api/classes/{room['id']}/progress", f"/api/classes/{room['id']}/progress.csv"):
        refused = client.get(url, **auth(other))
        assert refused.status_code == 404 and refused.json()["error"] == "no-such-class"
    assert client.get(f"/api/classes/{room['id'] + 1}/progress", **auth(teacher)).status_code == 404


def test_joining_by_code_is_limited_per_account(client, teacher, monkeypatch):
    monkeypatch.setattr(classes, "JOINS_PER_ACCOUNT", 3)
    _ada, ada = make_token(client, "ada")
    for _ in range(3):
        assert post(client, "/api/classes/join", {"code": "ZZZZ-ZZZZ"}, ada).status_code == 404
    refused = post(client, "/api/classes/join", {"code": "ZZZZ-ZZZZ"}, ada)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["error"] == "too-many-joins"
    assert "Too many tries to join a class by code" in refused.json()["message"]
