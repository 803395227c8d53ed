"""A teacher's downloads (teaching/exports.py), with the real sandbox and grader: every CSV
starts with a UTF-8 byte order mark and gives times a spreadsheet reads as dates; the answers
as CSV; the last program of each learner per lesson as a zip, one folder per learner, whose
names never leave the zip; only the class's teacher gets any of it."""

from __future__ import annotations

import csv
import io
import re
import zipfile

import pytest
from django.core.management import call_command
from django.test import Client

from .conftest import FIRST, LAST
from .test_classes import make_class, signed_in, user
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db
WHEN = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


def rows(body: bytes) -> list[dict]:
    assert body.startswith(b"\xef\xbb\xbf")  # Excel reads UTF-8 only with it
    return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))


@pytest.fixture
def room_with_work():
    teacher, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    t = signed_in(teacher)
    room = make_class(t, due={FIRST.id: "2030-01-31"})
    for name in ("zoë", "..", "Zoë"):
        learner = signed_in(user(name))
        assert learner.post(f"/classes/join/{room.join_token}/").status_code == 302
        learner.post(f"/lessons/{FIRST.id}/run", {"code": "print('a')\n"})
        learner.post(f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution})
        learner.post(f"/lessons/{FIRST.id}/questions/fill", {"blank": "=2"})
        learner.post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})
    learner.post(f"/lessons/{LAST.id}/run", {"code": "print('y')\n"})  # Zoë, wrong
    return t, token, room


def test_the_progress_and_answers_csv_open_in_a_spreadsheet(room_with_work):
    t, token, room = room_with_work
    progress = rows(t.get(f"/classes/{room.pk}/progress.csv").content)
    zoe = next(r for r in progress if r["learner"] == "zoë" and r["lesson"] == FIRST.id)
    assert WHEN.fullmatch(zoe["solved_at"]) and WHEN.fullmatch(zoe["last_activity"])
    assert zoe["due_on"] == "2030-01-31"
    assert rows(Client().get(f"/api/classes/{room.pk}/progress.csv", **auth(token)).content)

    page = t.get(f"/classes/{room.pk}/answers.csv")
    assert page["Content-Disposition"] == f'attachment; filename="class-{room.pk}-answers.csv"'
    answers = rows(page.content)
    assert [(r["answer"], r["correct"]) for r in answers if r["learner"] == "zoë"] == [
        ("'=2", "0"),  # never a formula
        ("two", "1"),
    ]
    assert [r["question"] for r in answers[:2]] == ["fill", "pick"]
    assert all(WHEN.fullmatch(r["at"]) for r in answers)
    assert len(answers) == 6
    api = Client().get(f"/api/classes/{room.pk}/answers.csv", **auth(token))
    assert rows(api.content) == answers


def test_the_submissions_zip_holds_each_learners_last_program(room_with_work):
    t, token, room = room_with_work
    html = t.get(f"/classes/{room.pk}/").content.decode()
    assert f'href="/classes/{room.pk}/submissions.zip"' in html
    got = Client().get(f"/api/classes/{room.pk}/submissions.zip", **auth(token))
    assert got.status_code == 200 and got["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(b"".join(got.streaming_content)))
    names = sorted(archive.namelist())
    assert all(not n.startswith(("/", "..")) and "/../" not in n for n in names)
    filename = FIRST.exercise.filename
    assert names == sorted(
        [
            f"_../{FIRST.id}/{filename}",
            f"Zoë/{FIRST.id}/{filename}",  # by name, in code point order: Z before z
            f"Zoë/{LAST.id}/{LAST.exercise.filename}",
            f"zoë-2/{FIRST.id}/{filename}",  # apart from Zoë where case is ignored
            "index.csv",
        ]
    )
    program = archive.read(f"zoë-2/{FIRST.id}/{filename}").decode()
    first, rest = program.split("\n", 1)
    assert first.startswith("# correct, ") and rest == FIRST.exercise.solution
    assert (
        archive.read(f"Zoë/{LAST.id}/{LAST.exercise.filename}").decode().startswith("# incorrect")
    )
    index = rows(archive.read("index.csv"))
    assert {(r["learner"], r["lesson"], r["verdict"]) for r in index} == {
        ("..", FIRST.id, "correct"),
        ("zoë", FIRST.id, "correct"),
        ("Zoë", FIRST.id, "correct"),
        ("Zoë", LAST.id, "incorrect"),
    }

    _, other = make_token(Client(), "other")
    for url in ("submissions.zip", "answers.csv"):
        refused = Client().get(f"/api/classes/{room.pk}/{url}", **auth(other))
        assert refused.status_code == 404 and refused.json()["error"] == "no-such-class"
    assert signed_in(user("nosy")).get(f"/classes/{room.pk}/submissions.zip").status_code == 404
