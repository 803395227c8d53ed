"""The review queue on the web and the API, under a controlled clock
(``web.reviews.clock``): every question a signed-in learner answered is a card; the home page
counts those due today; a review asks one, judges it as the lesson does without touching the
lesson's answer, and FSRS moves it on."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.template.defaultfilters import time
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from codeblanks.content.public import option_order
from codeblanks.learning import review
from codeblanks.web.learner import api_tokens, reviews
from codeblanks.web.models import PersonalToken, QuestionAnswer, ReviewCard

from .conftest import CHOICE, FIRST, HOST, MATCH
from .test_fuzz import BODY, FUZZ, JSON_VALUE
from .test_learner_api import auth, make_token

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("midday")]
HTMX = {"HTTP_HX_REQUEST": "true"}
QUESTION = f"/lessons/{FIRST.id}/questions/"
RIGHT_MATCH = {"match-0": "0", "match-1": "1", "match-2": "2"}
WRONG_MATCH = {"match-0": "0", "match-1": "2", "match-2": "1"}


@pytest.fixture
def clock(monkeypatch):
    """The queue's clock, moved on by the test: ``clock.now`` is what it says."""

    class Clock:
        now = timezone.now()

        def __call__(self):
            return self.now

    at = Clock()
    monkeypatch.setattr(reviews, "clock", at)
    return at


def shown_time(at) -> str:
    """``at`` as the review card shows a time: in the site's time zone and time format."""
    return time(timezone.localtime(at), "TIME_FORMAT")


def _ada(username="ada") -> tuple[Client, object]:
    user = get_user_model().objects.create_user(username, password="a-long-passphrase-1")
    client = Client(HTTP_HOST=HOST)
    client.force_login(user)
    return client, user


def _answer_two(client):
    client.post(QUESTION + CHOICE.id, {"choice": str(CHOICE.answer)})  # right at once
    client.post(QUESTION + MATCH.id, WRONG_MATCH)  # wrong first


def test_every_answered_question_is_a_card_and_the_home_page_counts_them(clock):
    client, user = _ada()
    assert "to review today" not in client.get("/").content.decode()
    _answer_two(client)
    clock.now = timezone.now()
    home = client.get("/").content.decode()  # the wrong one: due again in ten minutes
    assert "1 question to review today" in home and 'href="/review/"' in home
    assert ReviewCard.objects.filter(user=user).count() == 2
    clock.now += timedelta(days=40)
    assert "2 questions to review today" in client.get("/").content.decode()


def review_step():
    from codeblanks.learning.review import STEP

    return STEP + timedelta(seconds=1)


def test_a_wrong_review_comes_back_the_same_day_and_a_right_one_days_later(clock):
    client, user = _ada()
    _answer_two(client)
    clock.now = timezone.now() + review_step()
    page = client.get("/review/").content.decode()
    card = ReviewCard.objects.get(user=user, question_id=MATCH.id)
    assert f'action="/review/{card.id}"' in page and "Match them." in page

    wrong = client.post(f"/review/{card.id}", WRONG_MATCH, **HTMX)
    assert wrong.status_code == 200
    card.refresh_from_db()
    assert card.due == clock.now + timedelta(minutes=10) and card.lapses == 1
    assert f"It comes back at {shown_time(card.due)}." in wrong.content.decode()
    later = client.get("/review/").content.decode()
    assert "comes back later today" in later and f'action="/review/{card.id}"' not in later

    clock.now = card.due
    right = client.post(f"/review/{card.id}", RIGHT_MATCH, **HTMX).content.decode()
    assert "Right." in right and "It comes back on" in right
    card.refresh_from_db()
    assert card.due - clock.now >= timedelta(days=1) and card.reviews == 2
    # the lesson's own answer is the lesson's: the review changed nothing there
    kept = QuestionAnswer.objects.get(progress__user=user, question_id=MATCH.id)
    assert kept.correct is False and kept.tries == 1


def test_the_review_page_says_so_when_nothing_is_due_and_asks_anonymous_to_sign_in(clock):
    client, _ = _ada()
    assert "Nothing to review today." in client.get("/review/").content.decode()
    anonymous = Client(HTTP_HOST=HOST).get("/review/?lang=tr").content.decode()
    assert "Kaydol" in anonymous or "kaydol" in anonymous


def test_a_card_is_its_learners_only(clock):
    ada, _ = _ada("ada")
    _answer_two(ada)
    ada.get("/review/")  # the cards are made as the queue is read
    bob, _ = _ada("bob")
    card = ReviewCard.objects.first()
    assert bob.post(f"/review/{card.id}", RIGHT_MATCH).status_code == 404
    assert bob.post("/review/99999999999999999999", RIGHT_MATCH).status_code == 404
    assert Client(HTTP_HOST=HOST).post(f"/review/{card.id}", RIGHT_MATCH).status_code == 404


def test_a_review_answer_without_an_answer_is_refused_in_words(clock):
    client, user = _ada()
    _answer_two(client)
    clock.now += timedelta(days=40)
    client.get("/review/")
    card = ReviewCard.objects.get(user=user, question_id=CHOICE.id)
    answer = client.post(f"/review/{card.id}", {}, **HTMX)
    assert answer.status_code == 422 and "feedback-line warn" in answer.content.decode()
    card.refresh_from_db()
    assert card.reviews == 0


def test_the_api_lists_due_cards_and_answers_them(client, clock):
    user, raw = make_token(client)
    seed = f"user:{user.pk}"
    shown = option_order(CHOICE, seed)
    url = f"/api/lessons/{FIRST.id}/questions/{CHOICE.id}"
    client.post(url, {"answer": shown.index(CHOICE.answer)}, "application/json", **auth(raw))
    clock.now = timezone.now()
    empty = client.get("/api/review", **auth(raw)).json()
    assert empty == {"due": 0, "cards": []}
    clock.now += timedelta(days=30)
    queue = client.get("/api/review", **auth(raw)).json()
    assert queue["due"] == 1
    card = queue["cards"][0]
    assert card["lesson"] == FIRST.id and card["kind"] == "choice"
    assert card["prompt"] == CHOICE.prompt and card["options"] == [CHOICE.options[i] for i in shown]
    wrong = (shown.index(CHOICE.answer) + 1) % len(shown)
    answered = client.post(f"/api/review/{card['id']}", {"answer": wrong}, "application/json",
                           **auth(raw)).json()  # fmt: skip
    assert answered["correct"] is False and answered["message"] and answered["explanation"]
    assert answered["due"] == (clock.now + timedelta(minutes=10)).isoformat()


def test_the_api_refuses_in_words(client, clock):
    assert client.get("/api/review").json()["error"] == "no-token"
    _, raw = make_token(client)
    assert client.post("/api/review", **auth(raw)).status_code == 405
    for card in ("1", "abc", "9" * 40, "١"):
        missing = client.post(f"/api/review/{card}", {"answer": 0}, "application/json",
                              **auth(raw))  # fmt: skip
        assert missing.status_code == 404 and missing.json()["error"] == "no-such-card"


def test_questions_answered_before_signing_up_become_cards(clock):
    visitor = Client(HTTP_HOST=HOST)
    visitor.post(QUESTION + MATCH.id, WRONG_MATCH)
    password = "a-long-passphrase-1"
    signed = visitor.post(
        "/accounts/signup/", {"username": "ada", "password1": password, "password2": password}
    )
    assert signed.status_code == 302
    clock.now = timezone.now()
    home = visitor.get("/").content.decode()
    assert "1 question to review today" in home
    user = get_user_model().objects.get(username="ada")
    assert ReviewCard.objects.get(user=user).question_id == MATCH.id


@FUZZ
@given(body=st.one_of(BODY, JSON_VALUE.map(lambda v: json.dumps({"answer": v}).encode())))
def test_hostile_review_answers_never_make_a_500(client, body):
    """As tests/web/test_fuzz.py does for the lessons' questions: any body to a real card of
    the API's review queue is answered below 500, in JSON."""
    user = get_user_model().objects.get_or_create(username="fuzz")[0]
    PersonalToken.objects.filter(user=user).delete()
    _, raw = api_tokens.token_create(user_id=user.pk, name="fuzz")
    first = review.first(False, timezone.now())
    card = ReviewCard.objects.update_or_create(
        user=user, lesson_uuid=FIRST.uuid, question_id=MATCH.id,
        defaults={"state": first.state, "due": first.due, "reviewed_at": timezone.now()},
    )[0]  # fmt: skip
    answer = client.post(f"/api/review/{card.id}", body, content_type="application/json",
                         **auth(raw))  # fmt: skip
    assert answer.status_code < 500, answer.content[:300]
    json.loads(answer.content)
