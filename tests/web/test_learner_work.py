"""A learner's work in a lesson, for their class's teachers only (teaching/work.py), with the
real sandbox and grader: every run with its verdict, case, program and the change since the
run before, every answer; the page one click from the roster, the API's JSON, and a 404 for
everyone else."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from .conftest import FIRST, LAST
from .test_classes import make_class, signed_in, user
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db

WRONG = "print('a')\nprint('<script>alert(1)</script>')\n"


def test_a_teacher_reads_every_run_and_answer_of_a_learner_and_no_one_else_does():
    teacher, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    t = signed_in(teacher)
    room = make_class(t)
    ada = signed_in(user("ada"))
    assert ada.post(f"/classes/join/{room.join_token}/").status_code == 302
    assert "every program you ran" in ada.get(f"/classes/join/{room.join_token}/").content.decode()
    ada.post(f"/lessons/{FIRST.id}/run", {"code": WRONG})
    ada.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})
    ada.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "0"})
    ada.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})

    url = f"/api/classes/{room.pk}/learners/ada/lessons/{FIRST.id}"
    got = Client().get(url, **auth(token))
    assert got.status_code == 200, got.content
    body = got.json()
    assert [(a["verdict"], a["code"]) for a in body["attempts"]] == [
        ("incorrect", WRONG),
        ("correct", FIRST.exercise.solution),
    ]
    assert all(a["at"] and "case" in a for a in body["attempts"])
    assert [(a["question"], a["answer"], a["correct"]) for a in body["answers"]] == [
        ("pick", "one", False),
        ("pick", "two", True),
    ]
    assert (body["score"], body["max_score"]) == (2, 1 + len(FIRST.questions))

    roster = t.get(f"/classes/{room.pk}/").content.decode()
    page_url = f"/classes/{room.pk}/learners/ada/lessons/{FIRST.id}/"
    assert f'href="{page_url}#latest"' in roster  # one click from the cell
    assert f"/learners/ada/lessons/{LAST.id}/" not in roster  # nothing done there: no link
    page = t.get(page_url).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert page.count('class="work-run"') == 2
    assert 'class="diff-row expected"' in page and 'class="diff-row got"' in page
    assert "print(&#x27;b&#x27;)" in page.split('id="latest"')[1].split("</section>")[0]

    other, other_token = make_token(Client(), "other")
    call_command("grant_teacher", "other", stdout=io.StringIO())
    _, ada_token = make_token(Client(), "ada2")
    for who in (other_token, ada_token):
        refused = Client().get(url, **auth(who))
        assert refused.status_code == 404 and refused.json()["error"] == "no-such-class"
    assert signed_in(other).get(page_url).status_code == 404
    assert ada.get(page_url).status_code == 404
    missing = Client().get(
        f"/api/classes/{room.pk}/learners/nobody/lessons/{FIRST.id}", **auth(token)
    )
    assert missing.status_code == 404 and missing.json()["error"] == "no-such-work"
    assert t.get(f"/classes/{room.pk}/learners/ada/lessons/no-such/").status_code == 404


def test_the_work_page_speaks_turkish():
    teacher = user("teacher", teacher=True)
    t = signed_in(teacher)
    room = make_class(t)
    ada = signed_in(user("ada"))
    ada.post(f"/classes/join/{room.join_token}/")
    ada.post(f"/lessons/{FIRST.id}/run", {"code": WRONG})
    page = t.get(f"/classes/{room.pk}/learners/ada/lessons/{FIRST.id}/?lang=tr").content.decode()
    assert "Son program" in page and "Her çalıştırma" in page
