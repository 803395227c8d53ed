"""Taking back what was given in a class: the owner removes a co-teacher (the
class page's form, with its CSRF token, and PATCH /api/classes/<id> ``{"remove_teacher"}``); a
co-teacher is told in words that only the owner can (403), anyone else finds no class (404).
Any teacher of the class lists the extensions on the class page and takes one away (the form,
and DELETE /api/classes/<id>/extensions/<username>/<lesson>); a wrong one is refused in words,
never a 500."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.test import Client

from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import Extension

from .conftest import FIRST, LAST
from .test_classes import make_class, signed_in, user
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db
LATER = datetime(2030, 2, 1, 14, 0, tzinfo=UTC)


def patch(url, body, token):
    return Client().patch(url, json.dumps(body), content_type="application/json", **auth(token))


@pytest.fixture
def taught():
    """The owner (with a token), two co-teachers (bob with a token, carol) and a learner, ada,
    with an extension in FIRST."""
    teacher, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    room = make_class(signed_in(teacher), lessons=(FIRST.id, LAST.id), due={FIRST.id: "2030-01-31"})
    bob, bob_token = make_token(Client(), "bob")
    carol = user("carol")
    classes.class_add_teacher(room, "bob")
    classes.class_add_teacher(room, "carol")
    ada = user("ada")
    classes.class_join(ada, room)
    classes.class_extend(room, "ada", FIRST.id, LATER)
    return {"room": room, "owner": signed_in(teacher), "token": token, "bob": signed_in(bob),
            "bob_token": bob_token, "carol": carol, "ada": ada}  # fmt: skip


def teachers(room) -> list[str]:
    return classes.class_teachers(room)


def test_the_owner_removes_a_co_teacher_who_then_finds_no_class(taught):
    room, owner = taught["room"], taught["owner"]
    page = owner.get(f"/classes/{room.pk}/").content.decode()
    assert 'Remove<span class="sr-only"> carol as a co-teacher</span>' in page
    done = owner.post(f"/classes/{room.pk}/teachers/remove", {"username": "carol"})
    assert done.status_code == 302
    assert "carol no longer teaches this class." in owner.get(done["Location"]).content.decode()
    assert teachers(room) == ["teacher", "bob"]
    assert signed_in(taught["carol"]).get(f"/classes/{room.pk}/").status_code == 404


def test_a_co_teacher_may_not_remove_one_and_is_told_so_in_words(taught):
    room, bob = taught["room"], taught["bob"]
    page = bob.get(f"/classes/{room.pk}/").content.decode()
    assert "as a co-teacher</span>" not in page  # no Remove button but the owner's
    refused = bob.post(f"/classes/{room.pk}/teachers/remove", {"username": "carol"})
    assert refused.status_code == 403
    assert "Only the class&#x27;s owner removes a co-teacher." in refused.content.decode()
    outsider = signed_in(user("eve"))
    assert (
        outsider.post(f"/classes/{room.pk}/teachers/remove", {"username": "bob"}).status_code == 404
    )
    learner = signed_in(taught["ada"])
    assert (
        learner.post(f"/classes/{room.pk}/teachers/remove", {"username": "bob"}).status_code == 404
    )
    anonymous = Client().post(f"/classes/{room.pk}/teachers/remove", {"username": "bob"})
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert teachers(room) == ["teacher", "bob", "carol"]


@pytest.mark.parametrize(
    ("username", "words"),
    [
        ("nobody", "&#x27;nobody&#x27; is not a co-teacher of this class."),
        ("ada", "&#x27;ada&#x27; is not a co-teacher of this class."),
        ("", "&#x27;&#x27; is not a co-teacher of this class."),
        ("bo\x00b", "is not a co-teacher of this class."),
        ("teacher", "teacher owns this class; its owner stays."),
    ],
)
def test_a_wrong_co_teacher_to_remove_is_refused_in_words(taught, username, words):
    room = taught["room"]
    refused = taught["owner"].post(f"/classes/{room.pk}/teachers/remove", {"username": username})
    assert refused.status_code == 422 and words in refused.content.decode()
    assert teachers(room) == ["teacher", "bob", "carol"]


def test_removing_a_co_teacher_needs_the_csrf_token(taught):
    room = taught["room"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(room.teacher)
    assert (
        strict.post(f"/classes/{room.pk}/teachers/remove", {"username": "bob"}).status_code == 403
    )
    assert teachers(room) == ["teacher", "bob", "carol"]


def test_the_api_removes_a_co_teacher_for_the_owner_only(taught):
    room = taught["room"]
    url = f"/api/classes/{room.pk}"
    refused = patch(url, {"remove_teacher": "carol"}, taught["bob_token"])
    assert refused.status_code == 403 and refused.json()["error"] == "not-the-owner"
    assert refused.json()["message"] == "Only the class's owner removes a co-teacher."
    _eve, eve_token = make_token(Client(), "eve")
    assert patch(url, {"remove_teacher": "carol"}, eve_token).status_code == 404
    assert teachers(room) == ["teacher", "bob", "carol"]

    done = patch(url, {"remove_teacher": "carol"}, taught["token"])
    assert done.status_code == 200 and done.json()["teachers"] == ["teacher", "bob"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"remove_teacher": 7}, '"remove_teacher" must be a username.'),
        ({"remove_teacher": "nobody"}, "'nobody' is not a co-teacher of this class."),
        ({"remove_teacher": "teacher"}, "teacher owns this class; its owner stays."),
        ({"remove_teacher": "carol", "lessons": []}, "at least one lesson"),  # all or nothing
    ],
)
def test_a_wrong_removal_through_the_api_is_refused_in_words_and_changes_nothing(
    taught, body, words
):
    answer = patch(f"/api/classes/{taught['room'].pk}", body, taught["token"])
    assert answer.status_code == 400 and words in answer.json()["message"], answer.content
    assert teachers(taught["room"]) == ["teacher", "bob", "carol"]


def test_the_class_page_lists_the_extensions_and_a_teacher_takes_one_away(taught):
    room, bob = taught["room"], taught["bob"]  # a co-teacher may, as they may give one
    page = bob.get(f"/classes/{room.pk}/").content.decode()
    assert "ada · First steps: due 2030-02-01" in page
    assert "(the lesson: 2030-01-31 23:59)" in page
    assert "the extension of ada in First steps" in page
    done = bob.post(
        f"/classes/{room.pk}/extensions/remove", {"username": "ada", "lesson": FIRST.id}
    )
    assert done.status_code == 302 and not Extension.objects.exists()
    page = bob.get(f"/classes/{room.pk}/").content.decode()
    assert "No learner has an extension." in page and "extended to" not in page


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {"username": "ada", "lesson": LAST.id},
            f"&#x27;ada&#x27; has no extension in the lesson &#x27;{LAST.id}&#x27;.",
        ),
        ({"username": "nobody", "lesson": FIRST.id}, "&#x27;nobody&#x27; has no extension"),
        ({"username": "ada", "lesson": "no-such-lesson"}, "has no extension in the lesson"),
        ({"username": "a\x00da", "lesson": FIRST.id}, "has no extension in the lesson"),
        ({}, "&#x27;&#x27; has no extension in the lesson &#x27;&#x27;."),
    ],
)
def test_a_wrong_extension_to_take_away_is_refused_in_words(taught, data, words):
    room = taught["room"]
    refused = taught["owner"].post(f"/classes/{room.pk}/extensions/remove", data)
    assert refused.status_code == 422 and words in refused.content.decode()
    assert Extension.objects.count() == 1


def test_only_a_teacher_of_the_class_takes_an_extension_away(taught):
    room = taught["room"]
    data = {"username": "ada", "lesson": FIRST.id}
    for who in (signed_in(user("eve")), signed_in(taught["ada"])):
        assert who.post(f"/classes/{room.pk}/extensions/remove", data).status_code == 404
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(room.teacher)
    assert strict.post(f"/classes/{room.pk}/extensions/remove", data).status_code == 403
    assert Extension.objects.count() == 1


def test_the_api_takes_an_extension_away_and_answers_the_due_time_again(taught):
    room, token = taught["room"], taught["token"]
    url = f"/api/classes/{room.pk}/extensions/ada/{FIRST.id}"
    assert Client().get(url, **auth(token)).status_code == 405
    _eve, eve_token = make_token(Client(), "eve")
    outsider = Client().delete(url, **auth(eve_token))
    assert outsider.status_code == 404 and outsider.json()["error"] == "no-such-class"
    done = Client().delete(url, **auth(token))
    assert done.status_code == 200, done.content
    body = done.json()
    assert (body["username"], body["lesson"], body["extended"]) == ("ada", FIRST.id, False)
    assert body["due"].startswith("2030-01-31T23:59:00")  # the lesson's own, in the class's zone
    again = Client().delete(url, **auth(token))
    assert again.status_code == 404 and again.json()["error"] == "no-such-extension"
    assert again.json()["message"] == f"'ada' has no extension in the lesson '{FIRST.id}'."
    no_due = Client().delete(f"/api/classes/{room.pk}/extensions/ada/{LAST.id}", **auth(token))
    assert no_due.status_code == 404
    progress = Client().get(f"/api/classes/{room.pk}/progress", **auth(token)).json()
    ada = next(x for x in progress["learners"] if x["username"] == "ada")
    assert ada["lessons"][FIRST.id]["extended"] is False
