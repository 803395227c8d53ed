"""A solved exercise gives its learner a "fill in the line" card in the review queue,
asked on the page and through the API and judged by value in the real sandbox, as the lesson's
blank questions are; FSRS schedules it like the question cards (clock: ``web.reviews.clock``)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from codeblanks.web.models import LessonProgress, ReviewCard
from codeblanks.web.pages import selectors

from .conftest import COURSE, FIRST, FakeCatalog
from .test_learner_api import auth, make_token
from .test_reviews import HTMX, _ada, shown_time
from .test_reviews import clock as clock  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("midday")]
LINED = dataclasses.replace(
    FIRST,
    exercise=dataclasses.replace(
        FIRST.exercise,
        starter="x = 6\ny = ____  # x times seven\nprint(y)\n",
        solution="x = 6\ny = x * 7  # x times seven\nprint(y)\n",
        expected_output="42\n",
    ),
)


class LinedCatalog(FakeCatalog):
    courses = (dataclasses.replace(COURSE, lessons=(LINED, *COURSE.lessons[1:])),)

    def lesson(self, lesson_id):
        return {x.id: x for x in self.courses[0].lessons}.get(lesson_id)

    def lessons(self):
        return list(self.courses[0].lessons)


@pytest.fixture(autouse=True)
def lined(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: LinedCatalog())


def _solved(user, at):
    LessonProgress.objects.create(user=user, lesson_uuid=LINED.uuid, solved_at=at)


def test_a_solved_exercise_becomes_a_line_card_asked_and_moved_on_by_fsrs(clock):
    client, user = _ada()
    _solved(user, clock.now)
    assert "to review today" not in client.get("/").content.decode()  # right when solved
    card = ReviewCard.objects.get(user=user, question_id="fill-the-line")
    assert card.due - clock.now >= timedelta(days=1)
    clock.now = card.due
    page = client.get("/review/").content.decode()
    assert f'action="/review/{card.id}"' in page and "y = ____" in page
    assert "x times seven" in page  # the line's comment, as a clue

    wrong = client.post(f"/review/{card.id}", {"blank": "x + 7"}, **HTMX).content.decode()
    assert "y = x * 7" in wrong  # the line, shown
    card.refresh_from_db()
    assert card.lapses == 1 and card.due == clock.now + timedelta(minutes=10)
    assert f"It comes back at {shown_time(card.due)}." in wrong
    clock.now = card.due
    right = client.post(f"/review/{card.id}", {"blank": "7 * x"}, **HTMX)  # the same value
    assert right.status_code == 200 and "It comes back on" in right.content.decode()
    card.refresh_from_db()
    assert card.reviews == 2 and card.due - clock.now >= timedelta(days=1)


def test_the_api_serves_the_line_card_in_turkish_too(client, clock):
    user, raw = make_token(client)
    _solved(user, clock.now - timedelta(days=60))
    queue = client.get("/api/review?lang=tr", **auth(raw), HTTP_ACCEPT_LANGUAGE="tr").json()
    assert queue["due"] == 1
    card = queue["cards"][0]
    assert card["question"] == "fill-the-line" and card["kind"] == "blank"
    assert card["code"] == "y = ____" and "satırı tamamla" in card["prompt"]
    answered = client.post(f"/api/review/{card['id']}", {"answer": "42"}, "application/json",
                           **auth(raw)).json()  # fmt: skip
    assert answered["correct"] is True and answered["due"] > clock.now.isoformat()


def test_an_unsolved_lesson_gives_no_line_card(clock):
    client, user = _ada()
    LessonProgress.objects.create(user=user, lesson_uuid=LINED.uuid)  # tried, not solved
    client.get("/review/")
    assert not ReviewCard.objects.filter(user=user).exists()


def test_a_solved_lesson_without_a_line_worth_asking_gives_no_card(clock):
    client, user = _ada()
    last = LinedCatalog.courses[0].lessons[-1]  # its program only prints
    LessonProgress.objects.create(user=user, lesson_uuid=last.uuid, solved_at=clock.now)
    client.get("/review/")
    assert not ReviewCard.objects.filter(user=user).exists()
