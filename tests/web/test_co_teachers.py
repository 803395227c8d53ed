"""A class taught by more than one: a co-teacher added by username (PATCH /api/classes/<id>
``{"add_teacher"}``, or the class page's form) sees and manages the class as its owner does,
is never its learner, and cannot delete it; a wrong name is refused in words."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import Membership

from .conftest import FIRST
from .test_classes import make_class, signed_in, user
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db


def patch(url, body, token):
    return Client().patch(url, json.dumps(body), content_type="application/json", **auth(token))


@pytest.fixture
def taught():
    teacher, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    return signed_in(teacher), token, make_class(signed_in(teacher), lessons=(FIRST.id,))


def test_a_co_teacher_added_by_the_api_sees_the_class_and_is_no_longer_its_learner(taught):
    _t, token, room = taught
    bob = user("bob")  # no teacher role: a TA needs none to help in this one class
    assert signed_in(bob).get(f"/classes/{room.pk}/").status_code == 404
    join_page = signed_in(bob).get(f"/classes/join/{room.join_token}/").content.decode()
    assert "co-teachers, if it has any, see the same" in join_page  # told before joining
    assert signed_in(bob).post("/classes/join", {"code": room.join_code}).status_code == 302
    assert Membership.objects.filter(classroom=room, user=bob).exists()

    answer = patch(f"/api/classes/{room.pk}", {"add_teacher": "bob"}, token)
    assert answer.status_code == 200, answer.content
    assert answer.json()["teachers"] == ["teacher", "bob"]
    assert not Membership.objects.filter(classroom=room, user=bob).exists()

    bob_page = signed_in(bob)
    page = bob_page.get(f"/classes/{room.pk}/")
    assert page.status_code == 200 and room.name in page.content.decode()
    assert room.name in bob_page.get("/classes/").content.decode()
    assert bob_page.get(f"/classes/{room.pk}/progress.csv").status_code == 200
    _bob, bob_token = make_token(Client(), "bob2")  # a token of a user who teaches nothing here
    assert Client().get(f"/api/classes/{room.pk}/progress", **auth(bob_token)).status_code == 404
    # Joining one's own class is refused; deleting it is the owner's alone.
    assert bob_page.post("/classes/join", {"code": room.join_code}).status_code == 422
    assert bob_page.post(f"/classes/{room.pk}/delete", {"confirm": "yes"}).status_code == 403
    assert "delete-head" not in page.content.decode()
    assert classes.class_for_teacher(bob, room.pk) == room


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"add_teacher": "nobody"}, "There is no account"),
        ({"add_teacher": ""}, "There is no account"),
        ({"add_teacher": 7}, '"add_teacher" must be a username'),
        ({"add_teacher": "teacher"}, "owns this class already"),
        ({"add_teacher": "bob", "lessons": []}, "at least one lesson"),
    ],
)
def test_a_wrong_co_teacher_is_refused_in_words_and_changes_nothing(taught, body, words):
    _t, token, room = taught
    user("bob")
    answer = patch(f"/api/classes/{room.pk}", body, token)
    assert answer.status_code == 400 and words in answer.json()["message"], answer.content
    assert list(room.co_teachers.all()) == []


def test_the_class_page_form_adds_a_co_teacher_and_says_why_not(taught):
    t, _token, room = taught
    user("carol")
    wrong = t.post(f"/classes/{room.pk}/teachers", {"username": "nobody"})
    assert wrong.status_code == 422 and "There is no account" in wrong.content.decode()
    done = t.post(f"/classes/{room.pk}/teachers", {"username": "carol"})
    assert done.status_code == 302
    shown = t.get(done["Location"]).content.decode()
    assert "carol teaches this class too now." in shown
    assert [x.username for x in room.co_teachers.all()] == ["carol"]
    assert Client().post(f"/classes/{room.pk}/teachers", {"username": "x"}).status_code == 302
    outsider = signed_in(user("eve"))
    assert outsider.post(f"/classes/{room.pk}/teachers", {"username": "eve"}).status_code == 404
    assert [x.username for x in room.co_teachers.all()] == ["carol"]


def test_adding_a_co_teacher_needs_the_csrf_token(taught):
    _t, _token, room = taught
    user("carol")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(room.teacher)
    assert strict.post(f"/classes/{room.pk}/teachers", {"username": "carol"}).status_code == 403
    assert list(room.co_teachers.all()) == []


def test_a_co_teacher_without_the_teacher_role_is_offered_classes_in_the_menu(taught):
    from codeblanks.web.teaching.templatetags.classnav import sees_classes

    _t, token, room = taught
    bob = user("bob")
    assert not sees_classes(bob)
    patch(f"/api/classes/{room.pk}", {"add_teacher": "bob"}, token)
    assert sees_classes(bob)
