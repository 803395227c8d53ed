"""A lesson's score (teaching/scores.py) as the roster, the CSV and the API show it, with the
real sandbox and grader: the best is kept, and nothing is earned once the answers were seen
(the review page, a revealed solution)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.test import Client

from codeblanks.web.models import LessonProgress
from codeblanks.web.teaching import scores
from codeblanks.web.teaching.models import Classroom

from .conftest import FIRST, LAST
from .test_classes import make_class, signed_in, user
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db
PAIRS = {"match-0": "0", "match-1": "1", "match-2": "2"}  # each term's own meaning: right


def joined(room, name: str):
    who = signed_in(user(name))
    assert who.post(f"/classes/join/{room.join_token}/").status_code == 302
    return who


def csv_scores(teacher, room) -> dict:
    text = teacher.get(f"/classes/{room.pk}/progress.csv").content.decode("utf-8-sig")
    rows = csv.DictReader(io.StringIO(text))
    return {(r["learner"], r["lesson"]): (int(r["score"]), int(r["max_score"])) for r in rows}


def api_scores(room, token) -> dict:
    body = Client().get(f"/api/classes/{room.pk}/progress", **auth(token))
    assert body.status_code == 200, body.content
    return {
        (learner["username"], lesson_id): (cell["score"], cell["max_score"])
        for learner in body.json()["learners"]
        for lesson_id, cell in learner["lessons"].items()
    }


def test_the_best_is_kept_and_answers_after_the_review_or_the_solution_earn_nothing():
    teacher_user, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    t = signed_in(teacher_user)
    room = make_class(t)
    ada, bob = joined(room, "ada"), joined(room, "bob")

    ada.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})  # right: 1
    ada.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "0"})  # then wrong: still 1
    ada.post(f"/lessons/{FIRST.id}/run", {"code": "print('a')\n"})  # a wrong run: still 1
    ada.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})  # solved: 2
    ada.post(f"/lessons/{FIRST.id}/run", {"code": "print('b')\n"})  # wrong after: still 2
    assert ada.get(f"/lessons/{FIRST.id}/review/").status_code == 200
    ada.post(f"/lessons/{FIRST.id}/questions/pairs", PAIRS)  # right, after the review: 0

    bob.post(f"/lessons/{LAST.id}/solution")  # revealed, then pasted back: no point
    bob.post(f"/lessons/{LAST.id}/run", {"code": LAST.exercise.solution})
    assert LessonProgress.objects.get(user__username="bob", lesson_uuid=LAST.uuid).solved_at
    bob.post(f"/lessons/{FIRST.id}/questions/pairs", PAIRS)  # right, nothing seen: 1
    bob.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})  # his own: 2
    bob.post(f"/lessons/{FIRST.id}/solution")  # seen after solving: the points stay
    bob.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})  # right, after it: 0

    top = scores.max_score(FIRST)
    want = {
        ("ada", FIRST.id): (2, top),
        ("ada", LAST.id): (0, 1),
        ("bob", FIRST.id): (2, top),
        ("bob", LAST.id): (0, 1),
    }
    assert csv_scores(t, room) == want
    assert api_scores(room, token) == want
    html = t.get(f"/classes/{room.pk}/").content.decode()
    assert html.count(f"2/{top} points") == 2 and html.count("0/1 points") == 2
    assert html.count(f'<td class="score">2/{top + 1}</td>') == 2


def test_a_review_is_recorded_once_and_carried_from_an_anonymous_visit(client):
    client.post(f"/lessons/{FIRST.id}/run", {"code": "print('x')\n"})  # an anonymous learner
    client.get(f"/lessons/{FIRST.id}/review/")
    first = LessonProgress.objects.get(lesson_uuid=FIRST.uuid).reviewed_at
    assert first is not None
    client.get(f"/lessons/{FIRST.id}/review/")
    assert LessonProgress.objects.get(lesson_uuid=FIRST.uuid).reviewed_at == first
    ada = user("ada")
    client.post("/accounts/login/", {"username": "ada", "password": "a-long-passphrase-1"})
    row = LessonProgress.objects.get(lesson_uuid=FIRST.uuid)
    assert row.user_id == ada.pk and row.reviewed_at == first


def test_the_answers_read_through_the_api_count_as_a_review():
    ada, token = make_token(Client(), "ada")
    assert Client().get(f"/api/lessons/{FIRST.id}/review", **auth(token)).status_code == 200
    row = LessonProgress.objects.get(user=ada, lesson_uuid=FIRST.uuid)
    assert row.reviewed_at is not None
    page = signed_in(ada).get(f"/lessons/{FIRST.id}/review/?lang=tr").content.decode()
    assert "Bundan sonra cevapladığın sorular puan kazandırmaz." in page


def test_a_class_s_weights_and_answers_after_review_make_every_score():
    """The same learners' work as above in a class whose exercise is worth 3 and each question
    2: the best kept and nothing from the answers seen; then, with answers after review
    counting, the answers and the solve after the review or the solution count too."""
    teacher_user, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    t = signed_in(teacher_user)
    made = t.post(
        "/classes/new",
        {"name": "7B", "lessons": [FIRST.id, LAST.id], "exercise_points": "3",
         "question_points": "2"},
    )  # fmt: skip
    assert made.status_code == 302, made.content.decode()
    room = Classroom.objects.get(name="7B")
    ada, bob = joined(room, "ada"), joined(room, "bob")

    ada.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})  # right: 2
    ada.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "0"})  # then wrong: still 2
    ada.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})  # solved: 2 + 3
    assert ada.get(f"/lessons/{FIRST.id}/review/").status_code == 200
    ada.post(f"/lessons/{FIRST.id}/questions/pairs", PAIRS)  # right, after the review: 0

    bob.post(f"/lessons/{LAST.id}/solution")  # revealed, then pasted back: 0
    bob.post(f"/lessons/{LAST.id}/run", {"code": LAST.exercise.solution})
    bob.post(f"/lessons/{FIRST.id}/questions/pairs", PAIRS)  # right, nothing seen: 2
    bob.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})  # his own: 2 + 3
    bob.post(f"/lessons/{FIRST.id}/solution")  # seen after solving: the points stay
    bob.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})  # right, after it: 0

    top = 3 + 2 * len(FIRST.questions)
    want = {
        ("ada", FIRST.id): (5, top),
        ("ada", LAST.id): (0, 3),
        ("bob", FIRST.id): (5, top),
        ("bob", LAST.id): (0, 3),
    }
    assert csv_scores(t, room) == want
    assert api_scores(room, token) == want
    html = t.get(f"/classes/{room.pk}/").content.decode()
    assert html.count(f"5/{top} points") == 2 and html.count("0/3 points") == 2
    assert html.count(f'<td class="score">5/{top + 3}</td>') == 2

    answer = Client().patch(
        f"/api/classes/{room.pk}",
        '{"count_after_review": true}',
        content_type="application/json",
        **auth(token),
    )
    assert answer.status_code == 200, answer.content
    want = {
        ("ada", FIRST.id): (7, top),  # the pairs answered after the review count now
        ("ada", LAST.id): (0, 3),
        ("bob", FIRST.id): (7, top),  # the pick answered after the solution too
        ("bob", LAST.id): (3, 3),  # and the solve after the solution was shown
    }
    assert csv_scores(t, room) == want
    assert api_scores(room, token) == want
