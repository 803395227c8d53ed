"""A class's score rules (teaching/scores.py ``Rules``): the points of the exercise and of each
question, and whether answers after review count. Every number is worked out here by hand
from one timeline (times given, no clock); then the rules are set through the class's form and
``PATCH /api/classes/<id>``, bad values refused in words, and the scores follow at once."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.test import Client

from codeblanks.web.models import LessonProgress
from codeblanks.web.teaching import classes, deadlines, scores
from codeblanks.web.teaching.models import Classroom

from .conftest import FIRST, LAST
from .test_classes import make_class, signed_in, user
from .test_learner_api import auth, make_token

T0 = datetime(2030, 1, 10, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
PENALTY = deadlines.Policy("penalty", 15)
CLOSE = deadlines.Policy("close")


def row(*, solved=None, reviewed=None, revealed=None) -> LessonProgress:
    """A learner's row as the store keeps it (not saved: ``lesson_score`` only reads it)."""
    return LessonProgress(solved_at=solved, reviewed_at=reviewed, revealed_at=revealed)


# "pick" right at 1 h, the review opened at 2 h, "fill" right at 3 h, "pairs" never right,
# the exercise solved at 4 h, its solution shown at 5 h (after the solve: the solve counts).
REVIEWED = row(solved=T0 + 4 * HOUR, reviewed=T0 + 2 * HOUR, revealed=T0 + 5 * HOUR)
# The solution shown at 30 min, before everything: the solve at 4 h and both answers after it.
REVEALED = row(solved=T0 + 4 * HOUR, revealed=T0 + HOUR / 2)
WRONG_ONLY = row()  # tried, answered wrong, never solved
RIGHT = {"pick": T0 + HOUR, "fill": T0 + 3 * HOUR}
DUE = T0 + 2 * HOUR  # for the late cases: the solve and "fill" are late (one day, rounded up)


@pytest.mark.parametrize(
    ("progress", "right", "due", "rules", "want"),
    [
        # today's rule, 1 and 1: the solve and "pick"; "fill" came after the review
        (REVIEWED, RIGHT, None, scores.Rules(), (2, 4)),
        (REVIEWED, RIGHT, None, scores.Rules(3, 1), (4, 6)),
        (REVIEWED, RIGHT, None, scores.Rules(3, 1, after_review=True), (5, 6)),
        (REVIEWED, RIGHT, None, scores.Rules(0, 2), (2, 6)),
        (REVIEWED, RIGHT, None, scores.Rules(5, 0), (5, 5)),
        # the solution seen first: nothing counts, unless answers after review count
        (REVEALED, RIGHT, None, scores.Rules(), (0, 4)),
        (REVEALED, RIGHT, None, scores.Rules(3, 1), (0, 6)),
        (REVEALED, RIGHT, None, scores.Rules(3, 1, after_review=True), (5, 6)),
        (REVEALED, RIGHT, None, scores.Rules(0, 2, after_review=True), (4, 6)),
        # late at 15 % a day: the solve 3 × 0.85, "pick" on time, "fill" 1 × 0.85 if it counts
        (REVIEWED, RIGHT, DUE, scores.Rules(3, 1, late=PENALTY), (3.55, 6)),
        (REVIEWED, RIGHT, DUE, scores.Rules(3, 1, True, PENALTY), (4.4, 6)),
        (REVIEWED, RIGHT, DUE, scores.Rules(3, 1, True, CLOSE), (1, 6)),
        (REVEALED, RIGHT, DUE, scores.Rules(3, 1, True, CLOSE), (1, 6)),
        # wrong answers and no solve earn nothing whatever the weights; no row, nothing
        (WRONG_ONLY, {}, None, scores.Rules(3, 1, after_review=True), (0, 6)),
        (None, {}, None, scores.Rules(3, 2), (0, 9)),
    ],
)
def test_the_rules_make_every_number(progress, right, due, rules, want):
    got = scores.lesson_score(FIRST, progress, right, due, rules)
    assert (got.score, got.max_score) == want


def test_the_maximum_is_the_exercise_plus_each_question():
    assert scores.max_score(FIRST) == 1 + 3  # outside a class: 1 and 1
    assert scores.max_score(FIRST, scores.Rules(3, 2)) == 3 + 3 * 2
    assert scores.max_score(LAST, scores.Rules(3, 2)) == 3  # no questions


def test_the_rules_are_said_in_words_in_both_languages():
    from django.utils import translation

    said = scores.described(scores.Rules(3, 1))
    assert "the exercise 3, each question 1" in said and "earns nothing" in said
    assert "earns its points too" in scores.described(scores.Rules(after_review=True))
    with translation.override("tr"):
        assert "alıştırma 3, her soru 1" in scores.described(scores.Rules(3, 1))


# --- set through the API and the class's form, with a database ---------------------------


def patch(room, body, token):
    return Client().patch(
        f"/api/classes/{room.pk}", json.dumps(body), content_type="application/json", **auth(token)
    )


@pytest.fixture
def taught(db):
    """A class of FIRST and LAST made through the API; ada in it has solved FIRST (at 4 h, the
    answers seen at 2 h) and answered "pick" (1 h) and "fill" (3 h) right."""
    _teacher, token = make_token(Client(), "teacher")
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    made = Client().post(
        "/api/classes",
        json.dumps({"name": "7B", "lessons": [FIRST.id, LAST.id]}),
        content_type="application/json",
        **auth(token),
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["weights"], body["count_after_review"]) == ({"exercise": 1, "question": 1}, False)
    room = Classroom.objects.get(pk=body["id"])
    ada = user("ada")
    classes.class_join(ada, room)
    progress = LessonProgress.objects.create(
        user=ada, lesson_uuid=FIRST.uuid, solved_at=T0 + 4 * HOUR, reviewed_at=T0 + 2 * HOUR
    )
    for qid, hours in (("pick", 1), ("fill", 3)):
        at = T0 + hours * HOUR
        progress.answers.create(question_id=qid, answer=0, correct=True, answered_at=at)
        progress.answer_events.filter(question_id=qid).update(at=at)  # logged by signals.py
    return token, room


def ada_scores(room, token) -> tuple:
    """ada's (score, max_score) in FIRST and LAST, and her total, as the API reports them."""
    body = Client().get(f"/api/classes/{room.pk}/progress", **auth(token)).json()
    cells = body["learners"][0]["lessons"]
    first, last = cells[FIRST.id], cells[LAST.id]
    return (first["score"], first["max_score"]), (last["score"], last["max_score"])


def test_a_patch_sets_the_weights_and_the_option_and_every_score_follows_at_once(taught):
    token, room = taught
    assert ada_scores(room, token) == ((2, 4), (0, 1))
    answer = patch(room, {"weights": {"exercise": 3, "question": 1}}, token)
    assert answer.status_code == 200, answer.content
    assert answer.json()["weights"] == {"exercise": 3, "question": 1}
    assert ada_scores(room, token) == ((4, 6), (0, 3))
    answer = patch(room, {"count_after_review": True}, token)
    assert answer.json()["count_after_review"] is True
    assert ada_scores(room, token) == ((5, 6), (0, 3))
    # a part left out stays; the progress report names the rules too
    assert patch(room, {"weights": {"question": 2}}, token).status_code == 200
    report = Client().get(f"/api/classes/{room.pk}/progress", **auth(token)).json()
    assert report["weights"] == {"exercise": 3, "question": 2}
    assert report["count_after_review"] is True
    assert ada_scores(room, token) == ((7, 9), (0, 3))
    work = (
        Client()
        .get(f"/api/classes/{room.pk}/learners/ada/lessons/{FIRST.id}", **auth(token))
        .json()
    )
    assert (work["score"], work["max_score"]) == (7, 9)
    csv_file = signed_in(room.teacher).get(f"/classes/{room.pk}/progress.csv")
    lines = csv_file.content.decode("utf-8-sig").splitlines()
    first = next(x for x in lines if f",{FIRST.id}," in x).split(",")
    assert first[-3:] == ["7", "9", "0"]  # score, max_score, left
    # back to today's rule
    assert patch(room, {"weights": {"exercise": 1, "question": 1},
                        "count_after_review": False}, token).status_code == 200  # fmt: skip
    assert ada_scores(room, token) == ((2, 4), (0, 1))


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"weights": {"exercise": -1}}, "The exercise is worth a whole number of points"),
        ({"weights": {"exercise": 101}}, "from 0 to 100"),
        ({"weights": {"exercise": 2.5}}, "The exercise is worth a whole number of points"),
        ({"weights": {"exercise": "3"}}, "The exercise is worth a whole number of points"),
        ({"weights": {"exercise": True}}, "The exercise is worth a whole number of points"),
        ({"weights": {"question": None}}, "Each question is worth a whole number of points"),
        ({"weights": {"question": 10**30}}, "Each question is worth a whole number of points"),
        ({"weights": {"exercise": 0, "question": 0}}, "cannot both be worth 0 points"),
        ({"weights": [3, 1]}, '"weights" must be a JSON object'),
        ({"weights": {"exercise": 3, "bonus": 1}}, '"weights" must be a JSON object'),
        ({"count_after_review": "yes"}, '"count_after_review" must be true or false'),
        ({"count_after_review": 1}, '"count_after_review" must be true or false'),
        # all or none: a good part with a bad one changes nothing
        ({"count_after_review": True, "weights": {"question": -2}}, "Each question is worth"),
    ],
)
def test_bad_weights_or_option_are_refused_in_words_and_change_nothing(taught, body, words):
    token, room = taught
    answer = patch(room, body, token)
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"] == "bad-class" and words in answer.json()["message"]
    room.refresh_from_db()
    assert (room.exercise_points, room.question_points, room.count_after_review) == (1, 1, False)


def test_a_new_class_takes_its_weights_through_the_api_and_refuses_bad_ones(taught):
    token, _room = taught
    body = {"name": "8C", "lessons": [FIRST.id], "weights": {"exercise": 4, "question": 0},
            "count_after_review": True}  # fmt: skip
    made = Client().post(
        "/api/classes", json.dumps(body), content_type="application/json", **auth(token)
    )
    assert made.status_code == 201, made.content
    room = Classroom.objects.get(pk=made.json()["id"])
    assert (room.exercise_points, room.question_points, room.count_after_review) == (4, 0, True)
    bad = Client().post(
        "/api/classes",
        json.dumps({**body, "weights": {"exercise": 0, "question": 0}}),
        content_type="application/json",
        **auth(token),
    )
    assert bad.status_code == 400 and "cannot both be worth 0" in bad.json()["message"]


def test_the_form_sets_the_points_refuses_bad_ones_in_words_and_the_page_says_so(taught):
    token, room = taught
    t = signed_in(room.teacher)
    form = t.get(f"/classes/{room.pk}/edit").content.decode()
    assert 'name="exercise_points" min="0" max="100" step="1" value="1"' in form
    assert 'id="count-after-review" name="count_after_review" value="yes">' in form
    base = {"name": "7B", "lessons": [FIRST.id, LAST.id]}
    bad = t.post(f"/classes/{room.pk}/edit", {**base, "exercise_points": "three"})
    assert bad.status_code == 422
    page = bad.content.decode()
    assert "The exercise is worth a whole number of points, from 0 to 100." in page
    assert 'value="three"' in page  # what was typed is shown back
    room.refresh_from_db()
    assert (room.exercise_points, room.question_points) == (1, 1)

    saved = t.post(
        f"/classes/{room.pk}/edit",
        {**base, "exercise_points": "3", "question_points": "1", "count_after_review": "yes"},
    )
    assert saved.status_code == 302 and saved["Location"].endswith("?rescored=1")
    page = t.get(saved["Location"]).content.decode()
    assert "The scores below follow the new rules." in page
    assert "from an LMS" not in page  # no learner of this class came from one
    assert "Points in this class: the exercise 3, each question 1." in page
    assert "Answers after review count" in page
    assert '<td class="score">5/9</td>' in page  # FIRST 5/6 with the review's answer, LAST 0/3
    assert ada_scores(room, token) == ((5, 6), (0, 3))
    work = t.get(f"/classes/{room.pk}/learners/ada/lessons/{FIRST.id}/").content.decode()
    assert '<dd class="work-score">5/6</dd>' in work and "the exercise 3" in work
    again = t.post(
        f"/classes/{room.pk}/edit",
        {**base, "exercise_points": "3", "question_points": "1", "count_after_review": "yes"},
    )
    assert again["Location"].endswith(f"/classes/{room.pk}/")  # nothing changed: nothing said
    # last: ?lang= is remembered on the account
    bad = t.post(f"/classes/{room.pk}/edit?lang=tr", {**base, "exercise_points": "0",
                                                       "question_points": "0"})  # fmt: skip
    assert bad.status_code == 422 and "birlikte 0 puan olamaz" in bad.content.decode()
    room.refresh_from_db()
    assert (room.exercise_points, room.question_points) == (3, 1)


def test_a_new_class_from_the_form_keeps_its_points(taught):
    _token, room = taught
    t = signed_in(room.teacher)
    made = t.post(
        "/classes/new",
        {"name": "9D", "lessons": [FIRST.id], "exercise_points": "2", "question_points": "0"},
    )
    assert made.status_code == 302, made.content.decode()
    new = Classroom.objects.get(name="9D")
    assert (new.exercise_points, new.question_points, new.count_after_review) == (2, 0, False)
    bad = t.post("/classes/new", {"name": "9E", "lessons": [FIRST.id], "question_points": "-1"})
    assert bad.status_code == 422
    assert "Each question is worth a whole number of points" in bad.content.decode()
    assert not Classroom.objects.filter(name="9E").exists()


SAME_ALL_THE_SAME = {
    "en": "In your class {}, what you do after seeing the answers earns its points all the same.",
    "tr": "{} sınıfında cevapları gördükten sonra yaptıkların da puan kazandırır.",
}
PAGES = ("/lessons/{}/", "/lessons/{}/review/", "/lessons/{}/solution")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_lesson_pages_say_where_answers_after_review_still_count(lang):
    """The lesson page, the study sheet and the solution's confirmation say "earns no points";
    a learner in a class that counts answers after review is told that class is the exception,
    and only for the lessons it covers, and only while in it."""
    teacher = signed_in(user("teacher", teacher=True))
    counting = classes_with_rule(teacher, "Lab <b>9</b>", count=True, lessons=(FIRST.id,))
    classes_with_rule(teacher, "Class 7B", count=False, lessons=(FIRST.id, LAST.id))
    ada = signed_in(user("ada"))
    for room in Classroom.objects.all():
        assert ada.post(f"/classes/join/{room.join_token}/").status_code == 302
    said = SAME_ALL_THE_SAME[lang].format("Lab &lt;b&gt;9&lt;/b&gt;")

    def told(lesson_id: str) -> list[bool]:
        return [
            said in ada.get(page.format(lesson_id), {"lang": lang}).content.decode()
            for page in PAGES
        ]

    assert told(FIRST.id) == [True, True, True]
    assert told(LAST.id) == [False, False, False]  # Lab 9 does not cover it; 7B does not count
    counting.members.update(left_at=counting.created_at)  # the teacher removed her
    assert told(FIRST.id) == [False, False, False]


def classes_with_rule(teacher: Client, name: str, *, count: bool, lessons) -> Classroom:
    room = make_class(teacher, name=name, lessons=lessons)
    room.count_after_review = count
    room.save(update_fields=["count_after_review"])
    return room
