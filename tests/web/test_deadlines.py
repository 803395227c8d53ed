"""Due times in the class's time zone, per-learner extensions and the late policy
(teaching/deadlines.py): typed in the zone, stored in UTC, shown back in ISO order; work after
the due time (an extension moving it) counts in full, less per day, or not at all. Every time
here is explicit (``now`` and the solve's time are given): nothing waits for a clock."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from codeblanks.web.models import LessonProgress
from codeblanks.web.teaching import classes, deadlines, roster
from codeblanks.web.teaching.models import ClassLesson, Classroom

from .conftest import FIRST, LAST
from .test_classes import signed_in, user
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db
IST = ZoneInfo("Europe/Istanbul")  # UTC+3 all year
DUE = datetime(2030, 1, 31, 14, 0, tzinfo=UTC)  # 17:00 in Istanbul


def post(url, body, token):
    data = body if isinstance(body, str) else json.dumps(body)
    return Client().post(url, data, content_type="application/json", **auth(token))


def patch(url, body, token):
    return Client().patch(url, json.dumps(body), content_type="application/json", **auth(token))


@pytest.fixture
def taught():
    """A class in Istanbul's time, FIRST due 2030-01-31 17:00 there; ada and bob in it."""
    _teacher, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    made = post(
        "/api/classes",
        {
            "name": "7B",
            "lessons": [FIRST.id, LAST.id],
            "due": {FIRST.id: "2030-01-31 17:00"},
            "time_zone": "Europe/Istanbul",
        },
        token,
    )
    assert made.status_code == 201, made.content
    room = Classroom.objects.get(pk=made.json()["id"])
    for name in ("ada", "bob"):
        classes.class_join(user(name), room)
    return token, room


def solve(username: str, at: datetime) -> None:
    who = get_user_model().objects.get(username=username)
    LessonProgress.objects.update_or_create(
        user=who, lesson_uuid=FIRST.uuid, defaults={"solved_at": at, "runs": 1}
    )


def cell(r: roster.Roster, username: str, lesson_id: str = FIRST.id) -> roster.Cell:
    row = next(x for x in r.rows if x.username == username)
    return next(c for c in row.cells if c.lesson_id == lesson_id)


def test_a_due_time_is_typed_in_the_class_zone_stored_in_utc_and_shown_back(taught):
    token, room = taught
    assert ClassLesson.objects.get(classroom=room, lesson_uuid=FIRST.uuid).due_at == DUE
    report = Client().get(f"/api/classes/{room.pk}/progress", **auth(token)).json()
    assert report["time_zone"] == "Europe/Istanbul"
    first = report["lessons"][0]
    assert (first["due_on"], first["due"]) == ("2030-01-31", "2030-01-31T17:00:00+03:00")
    assert report["lessons"][1]["due"] is None
    t = signed_in(room.teacher)
    assert "due 2030-01-31 17:00" in t.get(f"/classes/{room.pk}/").content.decode()
    form = t.get(f"/classes/{room.pk}/edit").content.decode()
    assert f'name="due-{FIRST.id}" value="2030-01-31T17:00"' in form
    assert 'value="Europe/Istanbul"' in form
    # A date alone is the end of that day; an offset given is kept.
    assert deadlines.parse_due("2030-01-31", IST) == datetime(2030, 1, 31, 20, 59, tzinfo=UTC)
    assert deadlines.parse_due("2030-01-31T17:00+00:00", IST) == datetime(
        2030, 1, 31, 17, 0, tzinfo=UTC
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"time_zone": "Mars/Olympus"}, "is not a time zone"),
        ({"time_zone": "../../etc/passwd"}, "is not a time zone"),
        ({"time_zone": 3}, '"time_zone" must be'),
        ({"lessons": [FIRST.id], "due": {FIRST.id: "31/01/2030"}}, "is not a due time"),
        ({"lessons": [FIRST.id], "due": {FIRST.id: "9999-12-31T23:59-12:00"}}, "not a due time"),
        ({"lessons": [FIRST.id], "due": {FIRST.id: "0001-01-01T00:00+14:00"}}, "not a due time"),
        ({"late_policy": "maybe"}, "one of: accept, penalty, close"),
        ({"late_policy": "penalty", "late_penalty": 0}, "from 1 to 100"),
        ({"late_policy": "penalty", "late_penalty": 101}, "from 1 to 100"),
        ({"late_penalty": "10"}, "from 1 to 100"),
        ({"late_penalty": True}, "from 1 to 100"),
    ],
)
def test_a_bad_zone_due_time_or_policy_is_refused_in_words(taught, body, words):
    token, room = taught
    answer = patch(f"/api/classes/{room.pk}", body, token)
    assert answer.status_code == 400 and words in answer.json()["message"], answer.content
    room.refresh_from_db()
    assert (room.time_zone, room.late_policy, room.late_penalty) == ("Europe/Istanbul", "accept", 0)


def test_the_late_policy_applies_to_work_after_the_due_time(taught):
    token, room = taught
    solve("ada", DUE - timedelta(minutes=1))  # on time
    solve("bob", DUE + timedelta(days=1, hours=2))  # a day and two hours late: two days
    after = DUE + timedelta(days=3)

    r = roster.roster(room, now=after)
    assert (cell(r, "ada").score, cell(r, "bob").score) == (1, 1)  # accept: all of it
    assert (cell(r, "ada").late, cell(r, "bob").late) == (False, True)

    assert (
        patch(
            f"/api/classes/{room.pk}", {"late_policy": "penalty", "late_penalty": 15}, token
        ).status_code
        == 200
    )
    r = roster.roster(Classroom.objects.get(pk=room.pk), now=after)
    assert (cell(r, "ada").score, cell(r, "bob").score) == (1, 0.7)
    assert next(x for x in r.rows if x.username == "bob").score == 0.7

    assert patch(f"/api/classes/{room.pk}", {"late_policy": "close"}, token).status_code == 200
    r = roster.roster(Classroom.objects.get(pk=room.pk), now=after)
    assert (cell(r, "ada").score, cell(r, "bob").score) == (1, 0)
    work = f"/api/classes/{room.pk}/learners/bob/lessons/{FIRST.id}"
    assert Client().get(work, **auth(token)).json()["score"] == 0  # the work page agrees
    # Not solved: late once the due time has passed, not before.
    assert roster.roster(room, now=DUE - timedelta(seconds=1)).rows[0].cells[1].late is False
    assert cell(roster.roster(room, now=DUE + timedelta(seconds=1)), "ada", LAST.id).late is False


def test_an_extension_moves_one_learners_due_time(taught):
    token, room = taught
    patch(f"/api/classes/{room.pk}", {"late_policy": "close"}, token)
    solve("bob", DUE + timedelta(hours=20))
    url = f"/api/classes/{room.pk}/extensions"
    given = post(url, {"username": "bob", "lesson": FIRST.id, "due": "2030-02-01 17:00"}, token)
    assert given.status_code == 201, given.content
    assert given.json() == {
        "username": "bob",
        "lesson": FIRST.id,
        "due": "2030-02-01T17:00:00+03:00",
    }
    r = roster.roster(Classroom.objects.get(pk=room.pk), now=DUE + timedelta(days=5))
    bob = cell(r, "bob")
    assert (bob.score, bob.late, bob.extended, bob.due_text) == (1, False, True, "2030-02-01 17:00")
    ada = cell(r, "ada")
    assert (ada.late, ada.extended) == (True, False)  # not solved, past her (the lesson's) time

    t = signed_in(room.teacher)
    page = t.get(f"/classes/{room.pk}/").content.decode()
    assert "extended to 2030-02-01 17:00" in page and "cell solved extended" in page
    rows = csv.DictReader(
        io.StringIO(t.get(f"/classes/{room.pk}/progress.csv").content.decode("utf-8-sig"))
    )
    got = {(x["learner"], x["lesson"]): x for x in rows}
    assert (got["bob", FIRST.id]["due"], got["bob", FIRST.id]["extended"]) == (
        "2030-02-01 17:00",
        "1",
    )
    assert got["ada", FIRST.id]["due"] == "2030-01-31 17:00"
    # A shorter one replaces it: bob is late again, and with "close" his solve is worth nothing.
    post(url, {"username": "bob", "lesson": FIRST.id, "due": "2030-01-31 18:00"}, token)
    fresh = Classroom.objects.get(pk=room.pk)
    assert cell(roster.roster(fresh, now=DUE + timedelta(days=5)), "bob").score == 0


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"username": "nobody", "lesson": FIRST.id, "due": "2030-02-01"}, "no learner"),
        ({"username": "bob", "lesson": "no-such", "due": "2030-02-01"}, "does not cover"),
        ({"username": "bob", "lesson": FIRST.id, "due": "tomorrow"}, "is not a due time"),
        ({"username": "bob", "lesson": FIRST.id}, "Send a JSON object"),
        ([1, 2], "Send a JSON object"),
    ],
)
def test_a_bad_extension_is_refused_in_words(taught, body, words):
    token, room = taught
    answer = post(f"/api/classes/{room.pk}/extensions", body, token)
    assert answer.status_code == 400 and words in answer.json()["message"], answer.content


def test_extensions_are_the_teachers_only_and_posted(taught):
    token, room = taught
    url = f"/api/classes/{room.pk}/extensions"
    _eve, eve = make_token(Client(), "eve")
    body = {"username": "bob", "lesson": FIRST.id, "due": "2030-02-01"}
    assert post(url, body, eve).status_code == 404
    assert Client().get(url, **auth(token)).status_code == 405
    assert post(url, "{not json", token).status_code == 400
    t = signed_in(room.teacher)
    page = t.post(
        f"/classes/{room.pk}/extensions", {"username": "bob", "lesson": FIRST.id, "due": "soon"}
    )
    assert page.status_code == 422 and "is not a due time" in page.content.decode()
    done = t.post(
        f"/classes/{room.pk}/extensions",
        {"username": "bob", "lesson": FIRST.id, "due": "2030-02-01T09:30"},
    )
    assert done.status_code == 302
    assert "extended to 2030-02-01 09:30" in t.get(f"/classes/{room.pk}/").content.decode()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(room.teacher)
    assert (
        strict.post(f"/classes/{room.pk}/late-policy", {"late_policy": "close"}).status_code == 403
    )
    assert (
        t.post(
            f"/classes/{room.pk}/late-policy", {"late_policy": "penalty", "late_penalty": "x"}
        ).status_code
        == 422
    )
    assert (
        t.post(
            f"/classes/{room.pk}/late-policy", {"late_policy": "penalty", "late_penalty": "20"}
        ).status_code
        == 302
    )
    room.refresh_from_db()
    assert (room.late_policy, room.late_penalty) == ("penalty", 20)


def test_changing_the_lessons_keeps_the_extensions(taught):
    token, room = taught
    post(
        f"/api/classes/{room.pk}/extensions",
        {"username": "bob", "lesson": FIRST.id, "due": "2030-02-01"},
        token,
    )
    assert (
        patch(f"/api/classes/{room.pk}", {"lessons": [LAST.id, FIRST.id]}, token).status_code == 200
    )
    assert cell(roster.roster(room, now=DUE), "bob").extended
