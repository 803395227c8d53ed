"""Regrading a class (teaching/regrade.py) with the real sandbox and grader: the lesson's check
is changed under the learners' programs (its expected order of lines swapped), so a program
right before is wrong now and one wrong before is right. The command, the API and the class
page's button report who changed; a kept solve is taken back only when asked."""

from __future__ import annotations

import dataclasses
import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from codeblanks.web.models import Attempt
from codeblanks.web.pages import selectors
from codeblanks.web.teaching import scores

from .conftest import COURSE, FIRST, LAST, FakeCatalog
from .test_classes import make_class, signed_in, user
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db

SWAPPED = "print('b')\nprint('a')\n"
# The same lesson (its uuid) whose check now wants "b" before "a".
FIXED = dataclasses.replace(
    FIRST,
    exercise=dataclasses.replace(FIRST.exercise, solution=SWAPPED, expected_output="b\na\n"),
)


class FixedCatalog(FakeCatalog):
    courses = (dataclasses.replace(COURSE, lessons=(FIXED, LAST)),)

    def lesson(self, lesson_id):
        return {x.id: x for x in self.courses[0].lessons}.get(lesson_id)

    def lessons(self):
        return list(self.courses[0].lessons)


@pytest.fixture
def room():
    teacher, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    t = signed_in(teacher)
    room = make_class(t, lessons=(FIRST.id,))
    for name, code in (("ada", FIRST.exercise.solution), ("bob", SWAPPED)):
        c = signed_in(user(name))
        assert c.post(f"/classes/join/{room.join_token}/").status_code == 302
        c.post(f"/lessons/{FIRST.id}/run", {"code": code})
    assert dict(Attempt.objects.values_list("user__username", "verdict")) == {
        "ada": "correct",
        "bob": "incorrect",
    }
    return t, token, room


def points(username: str) -> int:
    return scores.score_of(get_user_model().objects.get(username=username).pk, FIXED).score


def regrade(*args) -> str:
    out = io.StringIO()
    call_command("regrade", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_command_reports_who_changed_and_lowers_only_when_asked(room, monkeypatch):
    _t, _token, room = room
    assert "0 changed" in regrade("--class", str(room.pk))  # the check as it was: no change

    monkeypatch.setattr(selectors, "current_catalog", lambda: FixedCatalog())
    said = regrade("--class", str(room.pk))
    assert f"bob (bob) {FIRST.id}: incorrect -> correct, score 0 -> 1" in said
    assert f"ada (ada) {FIRST.id}: correct -> incorrect, score 1 -> 1 (solve kept" in said
    assert "2 programs graded again in 'Class 7B': 2 changed, 0 could not be run." in said
    assert (points("ada"), points("bob")) == (1, 1)

    again = regrade("--class", str(room.pk))  # bob's now stays; ada's is still reported
    assert "bob (bob)" not in again and "ada (ada)" in again

    lowered = regrade("--class", str(room.pk), "--lower")
    assert f"ada (ada) {FIRST.id}: correct -> incorrect, score 1 -> 0" in lowered
    assert (points("ada"), points("bob")) == (0, 1)
    assert "0 changed" in regrade("--class", str(room.pk), "--lower")

    with pytest.raises(CommandError, match="There is no class 999"):
        regrade("--class", "999")


def test_the_api_regrades_the_teachers_class_only(room, monkeypatch):
    _t, token, room = room
    monkeypatch.setattr(selectors, "current_catalog", lambda: FixedCatalog())
    url = f"/api/classes/{room.pk}/regrade"
    _eve, eve = make_token(Client(), "eve")
    assert Client().post(url, "{}", content_type="application/json", **auth(eve)).status_code == 404
    assert Client().get(url, **auth(token)).status_code == 405
    bad = Client().post(url, '{"lower": "yes"}', content_type="application/json", **auth(token))
    assert bad.status_code == 400 and bad.json()["error"] == "bad-regrade"
    assert points("bob") == 0  # nothing was run for the refused calls
    done = Client().post(url, '{"lower": true}', content_type="application/json", **auth(token))
    assert done.status_code == 200, done.content
    body = done.json()
    assert (body["programs"], body["failed"]) == (2, 0)
    assert sorted(
        (c["username"], c["old"], c["new"], c["score_after"]) for c in body["changes"]
    ) == [
        ("ada", "correct", "incorrect", 0),
        ("bob", "incorrect", "correct", 1),
    ]


def test_the_class_page_button_regrades_and_shows_the_changes(room, monkeypatch):
    t, _token, room = room
    monkeypatch.setattr(selectors, "current_catalog", lambda: FixedCatalog())
    page = t.post(f"/classes/{room.pk}/regrade")
    assert page.status_code == 200
    text = page.content.decode()
    assert "2 programs graded again, 2 changed." in text
    assert f"bob · {FIRST.id}: incorrect → correct" in text and "solve kept" in text
    # In Turkish: the sentence and the verdicts (a second run: the kept solve is still listed).
    turkish = t.post(f"/classes/{room.pk}/regrade?lang=tr").content.decode()
    report = turkish.split('class="regrade"')[1].split("</section>")[0]
    assert "2 program yeniden değerlendirildi, 1 tanesi değişti." in report
    assert f"ada · {FIRST.id}: doğru → yanlış" in turkish and "çözüm korundu" in turkish
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(room.teacher)
    assert strict.post(f"/classes/{room.pk}/regrade").status_code == 403


def test_the_reported_scores_follow_the_late_policy(room, monkeypatch):
    """A program run after the due time, right now, is worth what the class's policy says."""
    _t, _token, room = room
    room.late_policy = "close"
    room.save()
    bob_ran = Attempt.objects.get(user__username="bob").created_at
    room.lessons.update(due_at=bob_ran - timedelta(days=1))
    monkeypatch.setattr(selectors, "current_catalog", lambda: FixedCatalog())
    said = regrade("--class", str(room.pk))
    assert f"bob (bob) {FIRST.id}: incorrect -> correct, score 0 -> 0" in said
