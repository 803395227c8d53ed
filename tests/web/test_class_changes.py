"""A class that changes after it was made (teaching/classes.py): a new join code and link, its
lessons replaced, a learner removed and kept in the roster as "left"; through the API (PATCH,
DELETE) and the class page's buttons. Only the class's teacher can, and bad bodies are
refused in words."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import Classroom

from .conftest import FIRST, LAST
from .test_classes import make_class, signed_in, user
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db


def patch(url, body, token):
    data = body if isinstance(body, str) else json.dumps(body)
    return Client().patch(url, data, content_type="application/json", **auth(token))


@pytest.fixture
def taught():
    teacher, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    t = signed_in(teacher)
    return t, token, make_class(t, lessons=(FIRST.id,), due={FIRST.id: "2030-01-31"})


def test_a_new_code_and_link_leave_the_old_ones_joining_no_one(taught):
    t, token, room = taught
    old_code, old_token = room.join_code, room.join_token
    answer = patch(f"/api/classes/{room.pk}", {"rotate_code": True}, token)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert set(body) == {
        "id",
        "name",
        "join_code",
        "join_url",
        "teachers",
        "time_zone",
        "late_policy",
        "late_penalty",
        "weights",
        "count_after_review",
    }
    room.refresh_from_db()
    assert room.join_code != old_code and room.join_token != old_token
    assert body["join_code"] == classes.shown_code(room.join_code)
    assert classes.class_by_code(old_code) is None
    ada = signed_in(user("ada"))
    assert ada.post("/classes/join", {"code": old_code}).status_code == 422
    assert ada.get(f"/classes/join/{old_token}/").status_code == 404
    assert ada.post("/classes/join", {"code": room.join_code}).status_code == 302

    page_code = room.join_code
    assert t.post(f"/classes/{room.pk}/rotate").status_code == 302  # the page's button
    room.refresh_from_db()
    assert room.join_code != page_code
    assert classes.shown_code(room.join_code) in t.get(f"/classes/{room.pk}/").content.decode()


def test_the_lessons_change_keeping_due_dates_and_bad_bodies_are_refused(taught):
    _t, token, room = taught
    url = f"/api/classes/{room.pk}"
    answer = patch(url, {"lessons": [LAST.id, FIRST.id], "due": {LAST.id: "2031-02-01"}}, token)
    assert answer.status_code == 200, answer.content
    report = Client().get(f"{url}/progress", **auth(token)).json()
    assert [(x["id"], x["due_on"]) for x in report["lessons"]] == [
        (LAST.id, "2031-02-01"),
        (FIRST.id, "2030-01-31"),  # kept with the lesson
    ]
    for body, words in (
        ({"lessons": []}, "at least one lesson"),
        ({"lessons": ["no-such"]}, "There is no lesson"),
        ({"lessons": "x"}, '"lessons" must be a list'),
        ({"due": {FIRST.id: "2030-01-01"}}, '"due" with'),
        ({"rotate_code": "yes"}, '"rotate_code" must be'),
        ({"colour": "red"}, "Send a JSON object"),
        ({}, "Send a JSON object"),
        ([1], "Send a JSON object"),
        ({"lessons": [FIRST.id], "due": {FIRST.id: "soon"}}, "not a due time"),
    ):
        refused = patch(url, body, token)
        assert refused.status_code == 400 and refused.json()["error"] == "bad-class", body
        assert words in refused.json()["message"], (body, refused.json())
    assert patch(url, "{", token).json()["error"] == "bad-json"
    assert Client().get(url, **auth(token)).status_code == 405
    _, other = make_token(Client(), "other")
    call_command("grant_teacher", "other", stdout=io.StringIO())
    nosy = patch(url, {"rotate_code": True}, other)
    assert nosy.status_code == 404 and nosy.json()["error"] == "no-such-class"
    assert [x["id"] for x in Client().get(f"{url}/progress", **auth(token)).json()["lessons"]] == [
        LAST.id,
        FIRST.id,
    ]


def test_a_removed_learner_is_kept_as_left_and_can_come_back_by_the_code(taught):
    t, token, room = taught
    ada, bob = signed_in(user("ada")), signed_in(user("bob"))
    for who in (ada, bob):
        assert who.post(f"/classes/join/{room.join_token}/").status_code == 302
    ada.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})

    gone = Client().delete(f"/api/classes/{room.pk}/learners/ada", **auth(token))
    assert gone.status_code == 200 and gone.json() == {"username": "ada", "left": True}
    again = Client().delete(f"/api/classes/{room.pk}/learners/ada", **auth(token))
    assert again.status_code == 404 and again.json()["error"] == "no-such-learner"
    assert t.post(f"/classes/{room.pk}/remove", {"username": "bob"}).status_code == 302

    report = Client().get(f"/api/classes/{room.pk}/progress", **auth(token)).json()
    people = {p["username"]: p for p in report["learners"]}
    assert people["ada"]["left"] is True and people["bob"]["left"] is True
    assert people["ada"]["lessons"][FIRST.id]["solved"] is True  # the record is kept
    text = t.get(f"/classes/{room.pk}/progress.csv").content.decode("utf-8-sig")
    assert {r["learner"]: r["left"] for r in csv.DictReader(io.StringIO(text))} == {
        "ada": "1",
        "bob": "1",
    }
    html = t.get(f"/classes/{room.pk}/").content.decode()
    assert html.count("(left)") == 2 * 2  # each in the roster and in the class at a glance
    assert 'name="username" value="ada"' not in html
    assert t.get(f"/classes/{room.pk}/learners/ada/lessons/{FIRST.id}/").status_code == 200
    assert room.name not in ada.get("/classes/").content.decode()  # gone from their list
    assert "0 learners" in t.get("/classes/").content.decode()  # the teacher's count: those in

    assert ada.post("/classes/join", {"code": room.join_code}).status_code == 302
    assert room.name in ada.get("/classes/").content.decode()
    report = Client().get(f"/api/classes/{room.pk}/progress", **auth(token)).json()
    assert {p["username"]: p["left"] for p in report["learners"]} == {"ada": False, "bob": True}
    assert Classroom.objects.get(pk=room.pk).members.count() == 2


def test_the_edit_page_shows_the_class_and_saves_name_lessons_and_dates(taught):
    t, token, room = taught
    form = t.get(f"/classes/{room.pk}/edit").content.decode()
    assert 'value="Class 7B"' in form
    assert f'id="l-{FIRST.id}" name="lessons" value="{FIRST.id}" checked' in form
    assert f'name="due-{FIRST.id}" value="2030-01-31T23:59"' in form
    assert f'id="l-{LAST.id}" name="lessons" value="{LAST.id}">' in form
    bad = t.post(f"/classes/{room.pk}/edit", {"name": "", "lessons": [FIRST.id]})
    assert bad.status_code == 422 and "Give the class a name." in bad.content.decode()
    saved = t.post(
        f"/classes/{room.pk}/edit",
        {"name": "Class 7C", "lessons": [FIRST.id, LAST.id], f"due-{LAST.id}": "2031-03-01"},
    )
    assert saved.status_code == 302
    report = Client().get(f"/api/classes/{room.pk}/progress", **auth(token)).json()
    assert report["name"] == "Class 7C"
    assert [(x["id"], x["due_on"]) for x in report["lessons"]] == [
        (FIRST.id, None),  # its box left empty: no due date any more
        (LAST.id, "2031-03-01"),
    ]
    assert signed_in(user("nosy", teacher=True)).get(f"/classes/{room.pk}/edit").status_code == 404
    html = t.get(f"/classes/{room.pk}/edit?lang=tr").content.decode()
    assert "Sınıfı düzenle" in html and "Sınıfı kaydet" in html
