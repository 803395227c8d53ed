"""Teachers and their classes: the teacher role, making a class, joining by code
and by link, the roster and its CSV, leaving, who may see what, and deleting an account. The
progress the roster shows is recorded through the real lesson views (the grader is the view
tests' stand-in: the roster is about what was recorded, not about grading)."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import Classroom, Membership

from .conftest import FIRST, HOST, LAST

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-passphrase-1"


def user(name: str, *, teacher: bool = False):
    made = get_user_model().objects.create_user(name, password=PASSWORD)
    if teacher:
        call_command("grant_teacher", name, stdout=io.StringIO())
    return made


def signed_in(who) -> Client:
    c = Client(HTTP_HOST=HOST)
    c.force_login(who)
    return c


def make_class(c: Client, name="Class 7B", lessons=(FIRST.id, LAST.id), due=None) -> Classroom:
    data = {"name": name, "lessons": list(lessons)}
    data.update({f"due-{lesson_id}": day for lesson_id, day in (due or {}).items()})
    page = c.post("/classes/new", data)
    assert page.status_code == 302, page.content.decode()
    return Classroom.objects.get(pk=int(page["Location"].rstrip("/").rsplit("/", 1)[1]))


def test_only_a_teacher_makes_a_class_and_the_role_is_granted_by_command():
    ada = user("ada")
    assert signed_in(ada).get("/classes/new").status_code == 404
    call_command("grant_teacher", "ada", stdout=io.StringIO())
    ada = get_user_model().objects.get(pk=ada.pk)  # permissions are cached per object
    assert classes.is_teacher(ada)
    assert signed_in(ada).get("/classes/new").status_code == 200
    with pytest.raises(CommandError, match="no user 'nobody'"):
        call_command("grant_teacher", "nobody")


def test_a_class_has_a_code_and_a_link_and_refuses_bad_plans():
    t = signed_in(user("teacher", teacher=True))
    assert (
        "Give the class a name." in t.post("/classes/new", {"lessons": [FIRST.id]}).content.decode()
    )
    page = t.post("/classes/new", {"name": "X"})
    assert page.status_code == 422 and "Choose at least one lesson" in page.content.decode()
    bad = t.post("/classes/new", {"name": "X", "lessons": ["no-such"]}).content.decode()
    assert "There is no lesson &#x27;no-such&#x27;." in bad
    bad = t.post("/classes/new", {"name": "X", "lessons": [FIRST.id], f"due-{FIRST.id}": "soon"})
    assert bad.status_code == 422 and "not a due time" in bad.content.decode()
    room = make_class(t)
    assert re.fullmatch(f"[{classes.CODE_LETTERS}]{{8}}", room.join_code)
    html = t.get(f"/classes/{room.pk}/").content.decode()
    assert "<title>Class 7B · CodeBlanks</title>" in html  # the page's title, nothing else
    assert html.count('id="delete-head"') == 1
    assert classes.shown_code(room.join_code) in html
    assert f"http://{HOST}/classes/join/{room.join_token}/" in html
    assert "No learner has joined yet." in html


def test_two_learners_join_by_link_and_by_code_and_the_roster_shows_what_they_did(grader):
    t = signed_in(user("teacher", teacher=True))
    day = timedelta(days=1)
    due = {FIRST.id: (date.today() - day).isoformat(), LAST.id: (date.today() + day).isoformat()}
    room = make_class(t, due=due)
    ada, bob = signed_in(user("ada")), signed_in(user("bob"))
    link = f"/classes/join/{room.join_token}/"
    assert "Join the class" in ada.get(link).content.decode()
    assert ada.post(link).status_code == 302
    code = classes.shown_code(room.join_code).lower().replace("-", " ")  # as typed
    assert bob.post("/classes/join", {"code": code}).status_code == 302
    assert "Class 7B" in bob.get("/classes/").content.decode()
    # ada fails once then solves the first lesson and answers a question right; bob only fails
    ada.post(f"/lessons/{FIRST.id}/run", {"code": "print:x"})
    ada.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})
    ada.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})
    bob.post(f"/lessons/{FIRST.id}/run", {"code": "print:y"})
    bob.post(f"/lessons/{FIRST.id}/hint", {"number": "1"})

    rows = list(
        csv.DictReader(
            io.StringIO(t.get(f"/classes/{room.pk}/progress.csv").content.decode("utf-8-sig"))
        )
    )
    got = {(r["learner"], r["lesson"]): r for r in rows}
    assert len(rows) == 4
    a = got["ada", FIRST.id]
    assert (a["solved"], a["runs"], a["questions_right"], a["questions"]) == ("1", "2", "1", "3")
    assert a["late"] == "1" and a["solved_at"]  # solved after the day it was due
    b = got["bob", FIRST.id]
    assert (b["solved"], b["runs"], b["late"]) == ("0", "1", "1")  # due yesterday, not solved
    later = got["bob", LAST.id]
    assert (later["runs"], later["last_activity"], later["late"]) == ("0", "", "0")

    html = t.get(f"/classes/{room.pk}/?sort=solved").content.decode()
    assert html.index(">ada</th>") < html.index(">bob</th>")
    assert "1/2 solved" in html  # the first lesson: one of the two learners
    assert f"due {due[LAST.id]}" in html  # the due date as YYYY-MM-DD, for every reader
    html = t.get(f"/classes/{room.pk}/?sort=runs").content.decode()
    assert html.index(">ada</th>") < html.index(">bob</th>")


def test_a_teacher_sees_only_their_own_classes_and_a_learner_no_roster():
    mine = make_class(signed_in(user("t1", teacher=True)))
    other = signed_in(user("t2", teacher=True))
    assert other.get(f"/classes/{mine.pk}/").status_code == 404
    assert other.get(f"/classes/{mine.pk}/progress.csv").status_code == 404
    assert "Class 7B" not in other.get("/classes/").content.decode()
    learner = signed_in(user("ada"))
    learner.post("/classes/join", {"code": mine.join_code})
    assert learner.get(f"/classes/{mine.pk}/").status_code == 404
    assert Client(HTTP_HOST=HOST).get(f"/classes/{mine.pk}/").status_code == 302  # to log in


def test_joining_needs_an_account_and_a_post_and_a_wrong_code_is_said_in_words():
    room = make_class(signed_in(user("teacher", teacher=True)))
    anon = Client(HTTP_HOST=HOST)
    page = anon.get(f"/classes/join/{room.join_token}/").content.decode()
    assert "Log in or sign up to join" in page
    assert anon.post(f"/classes/join/{room.join_token}/").status_code == 200
    assert not Membership.objects.exists()
    assert Client(HTTP_HOST=HOST).get("/classes/join/not-a-token/").status_code == 404
    ada = signed_in(user("ada"))
    wrong = ada.post("/classes/join", {"code": "ZZZZ-ZZZZ"})
    assert wrong.status_code == 422 and "No class has this code." in wrong.content.decode()
    assert ada.get(f"/classes/join/{room.join_token}/").status_code == 200  # GET never joins
    assert not Membership.objects.exists()


def test_anonymous_progress_carries_into_the_class_on_sign_up(grader):
    t = signed_in(user("teacher", teacher=True))
    room = make_class(t)
    anon = Client(HTTP_HOST=HOST)
    anon.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})
    link = f"/classes/join/{room.join_token}/"
    form = {"username": "cem", "password1": PASSWORD, "password2": PASSWORD, "next": link}
    made = anon.post(f"/accounts/signup/?next={link}", form)
    assert made.status_code == 302 and made["Location"] == link
    anon.post(link)
    rows = csv.DictReader(
        io.StringIO(t.get(f"/classes/{room.pk}/progress.csv").content.decode("utf-8-sig"))
    )
    assert {(r["learner"], r["lesson"], r["solved"]) for r in rows} >= {("cem", FIRST.id, "1")}


def test_leaving_and_deleting_an_account_remove_the_learner_from_the_roster(grader):
    t = signed_in(user("teacher", teacher=True))
    room = make_class(t)
    ada_user = user("ada")
    ada = signed_in(ada_user)
    ada.post("/classes/join", {"code": room.join_code})
    ada.post(f"/lessons/{FIRST.id}/run", {"code": "print:x"})
    assert ">ada</th>" in t.get(f"/classes/{room.pk}/").content.decode()
    ada.post(f"/classes/{room.pk}/leave")
    assert ">ada</th>" not in t.get(f"/classes/{room.pk}/").content.decode()
    ada.post("/classes/join", {"code": room.join_code})
    ada.post("/accounts/delete/", {"password": PASSWORD})
    assert not get_user_model().objects.filter(username="ada").exists()
    assert "ada" not in t.get(f"/classes/{room.pk}/progress.csv").content.decode()
    assert not Membership.objects.exists()


def test_a_teacher_cannot_join_their_own_class_and_csv_cells_are_never_formulas():
    who = user("=HYPERLINK(1)", teacher=True)
    t = signed_in(who)
    room = make_class(t)
    own = t.post("/classes/join", {"code": room.join_code})
    assert own.status_code == 422 and "You teach this class" in own.content.decode()
    other = make_class(signed_in(user("t2", teacher=True)))
    t.post("/classes/join", {"code": other.join_code})
    text = (
        signed_in(get_user_model().objects.get(username="t2"))
        .get(f"/classes/{other.pk}/progress.csv")
        .content.decode()
    )
    assert "'=HYPERLINK(1)" in text and "\n=HYPERLINK" not in text


def test_the_roster_speaks_turkish_to_a_turkish_teacher(grader):
    t = signed_in(user("teacher", teacher=True))
    room = make_class(t)
    ada = signed_in(user("ada"))
    ada.post("/classes/join", {"code": room.join_code})
    ada.post(f"/lessons/{FIRST.id}/run", {"code": "print:x"})
    html = t.get(f"/classes/{room.pk}/?lang=tr").content.decode()
    assert "Öğrenci" in html and "Son etkinlik" in html and "1 çalıştırma" in html
    assert "CSV olarak indir" in html and "Denendi" in html


def test_a_teacher_deletes_a_class_and_the_learners_keep_their_progress(grader):
    t = signed_in(user("teacher", teacher=True))
    room = make_class(t)
    ada = signed_in(user("ada"))
    ada.post("/classes/join", {"code": room.join_code})
    ada.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})
    assert t.post(f"/classes/{room.pk}/delete").status_code == 302  # not confirmed: kept
    assert Classroom.objects.filter(pk=room.pk).exists()
    other = signed_in(user("t2", teacher=True))
    assert other.post(f"/classes/{room.pk}/delete", {"confirm": "yes"}).status_code == 404
    t.post(f"/classes/{room.pk}/delete", {"confirm": "yes"})
    assert not Classroom.objects.exists() and not Membership.objects.exists()
    assert "Class 7B" not in ada.get("/classes/").content.decode()
    assert "1 / 2" in ada.get("/progress/").content.decode()  # solved: still theirs


def test_an_id_too_large_for_the_database_is_not_found_like_any_other():
    """A URL's id past what an integer column holds is a 404, never the database's error."""
    t = signed_in(user("teacher", teacher=True))
    huge = "9" * 23
    for url in (
        f"/classes/{huge}/",
        f"/classes/{huge}/progress.csv",
        f"/classes/{huge}/analysis/{FIRST.id}/",
    ):
        assert t.get(url).status_code == 404, url
    for url in (
        f"/classes/{huge}/leave",
        f"/classes/{huge}/delete",
        f"/progress/tokens/{huge}/revoke",
    ):
        assert t.post(url, {"confirm": "yes"}).status_code == 404, url
    assert t.get(f"/api/classes/{huge}/progress").json()["error"] == "not-found"
    assert t.post(f"/classes/{'9' * 18}/leave").status_code == 302  # the largest id still reads


def test_joining_by_code_is_limited_per_account_and_per_address(monkeypatch):
    """Every try counts (a right code as a wrong one); past the hour's share, a 429 in words."""
    monkeypatch.setattr(classes, "JOINS_PER_ACCOUNT", 3)
    monkeypatch.setattr(classes, "JOINS_PER_ADDRESS", 5)
    room = make_class(signed_in(user("teacher", teacher=True)))
    ada = signed_in(user("ada"))
    for _ in range(3):
        assert ada.post("/classes/join", {"code": "ZZZZ-ZZZZ"}).status_code == 422
    refused = ada.post("/classes/join", {"code": room.join_code})  # right, but too late
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many tries to join a class by code" in refused.content.decode()
    assert not Membership.objects.exists()
    bob = signed_in(user("bob"))  # another account from the same address
    assert bob.post("/classes/join", {"code": room.join_code}).status_code == 302
    assert bob.post("/classes/join", {"code": "ZZZZ-ZZZZ"}).status_code == 429  # the address's 6th
