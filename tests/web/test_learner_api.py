"""Personal tokens and the learner's API endpoints (what `codeblanks learn` uses): tokens are
made and revoked on the progress page, stored hashed, act only on their own learner's progress,
and a bad or revoked token is refused in words."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from django.contrib.auth import get_user_model

from codeblanks.content.public import meaning_order
from codeblanks.web.models import LessonProgress, PersonalToken, QuestionAnswer
from codeblanks.web.pages import selectors

from .conftest import COURSE, FIRST, MATCH

pytestmark = pytest.mark.django_db

HINTED = dataclasses.replace(
    FIRST, exercise=dataclasses.replace(FIRST.exercise, hints=("Print twice.", "print('a')"))
)


class HintedCatalog:
    courses = (dataclasses.replace(COURSE, lessons=(HINTED,) + COURSE.lessons[1:]),)
    problems = ()

    def lesson(self, lesson_id):
        return {x.id: x for x in self.courses[0].lessons}.get(lesson_id)

    def lessons(self):
        return list(self.courses[0].lessons)


@pytest.fixture(autouse=True)
def hinted_catalog(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: HintedCatalog())


def make_token(client, username="ada") -> tuple[object, str]:
    user = get_user_model().objects.create_user(username, password="a-long-passphrase-1")
    client.force_login(user)
    page = client.post("/progress/tokens", {"name": "laptop"})
    assert page.status_code == 200
    raw = re.search(r'<code class="token-text">(cbt_[^<]+)</code>', page.content.decode())
    assert raw, "the new token is shown on the page"
    client.logout()
    return user, raw.group(1)


def auth(token: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def test_a_token_is_shown_once_and_stored_only_hashed(client):
    user, raw = make_token(client)
    stored = PersonalToken.objects.get(user=user)
    assert raw not in (stored.digest, stored.prefix) and raw.startswith(stored.prefix)
    client.force_login(user)
    assert raw not in client.get("/progress/").content.decode()  # the list shows the prefix only
    assert stored.prefix in client.get("/progress/").content.decode()


def test_me_names_the_tokens_learner_and_refuses_others(client):
    _, raw = make_token(client)
    assert client.get("/api/me", **auth(raw)).json() == {"username": "ada"}
    wrong = client.get("/api/me", **auth(raw[:-2] + "xx"))
    assert wrong.status_code == 401 and "unknown" in wrong.json()["message"]
    odd = client.get("/api/me", HTTP_AUTHORIZATION="Basic abc")
    assert odd.status_code == 401 and odd.json()["error"] == "bad-token"
    assert client.get("/api/me").json()["error"] == "no-token"


def test_a_revoked_token_is_refused_with_a_clear_message(client):
    user, raw = make_token(client)
    client.force_login(user)
    token = PersonalToken.objects.get(user=user)
    assert client.post(f"/progress/tokens/{token.pk}/revoke").status_code == 302
    client.logout()
    answer = client.get("/api/lessons", **auth(raw))
    assert answer.status_code == 401
    assert "revoked" in answer.json()["message"] and "progress page" in answer.json()["message"]


def test_one_cannot_revoke_anothers_token(client):
    _, raw = make_token(client, "ada")
    eve = get_user_model().objects.create_user("eve", password="another-passphrase-2")
    client.force_login(eve)
    ada_token = PersonalToken.objects.get(user__username="ada")
    client.post(f"/progress/tokens/{ada_token.pk}/revoke")
    ada_token.refresh_from_db()
    assert ada_token.revoked_at is None
    client.logout()
    assert client.get("/api/me", **auth(raw)).status_code == 200


def test_anonymous_visitors_cannot_make_tokens(client):
    assert client.post("/progress/tokens", {"name": "x"}).status_code == 302  # to log in
    assert not PersonalToken.objects.exists()


def test_a_grade_with_a_token_keeps_progress_as_the_web_does(client, grader):
    user, raw = make_token(client)
    body = json.dumps({"code": FIRST.exercise.solution})
    graded = client.post("/api/lessons/first-steps/grade", body, "application/json", **auth(raw))
    assert graded.json()["verdict"] == "correct"
    row = LessonProgress.objects.get(user=user, lesson_uuid=FIRST.uuid)
    assert row.solved_at is not None and row.code == FIRST.exercise.solution
    listed = client.get("/api/lessons", **auth(raw)).json()["lessons"]
    assert listed[0]["progress"]["solved"] is True and listed[1]["progress"]["solved"] is False


def test_without_a_token_nothing_is_kept(client, grader):
    body = json.dumps({"code": FIRST.exercise.solution})
    graded = client.post("/api/lessons/first-steps/grade", body, "application/json")
    assert graded.status_code == 200
    assert not LessonProgress.objects.exists()
    assert "progress" not in client.get("/api/lessons").json()["lessons"][0]


def test_lesson_detail_gives_what_a_terminal_needs_but_no_answers(client):
    data = client.get("/api/lessons/first-steps").json()
    assert data["starter"] == FIRST.exercise.starter and data["hints"] == 2
    assert "solution" not in data
    kinds = {q["kind"]: q for q in data["questions"]}
    assert "answer" not in kinds["choice"] and "answer" not in kinds["blank"]
    assert kinds["match"]["meanings"] == [MATCH.pairs[i][1] for i in meaning_order(MATCH)]
    assert client.get("/api/lessons/nope").status_code == 404


def test_hints_one_by_one_and_solution_are_recorded(client):
    user, raw = make_token(client)
    first = client.post("/api/lessons/first-steps/hint", '{"number": 1}', "application/json")
    assert first.json() == {"number": 1, "of": 2, "text": "Print twice."}
    past = client.post("/api/lessons/first-steps/hint", '{"number": 3}', "application/json")
    assert past.status_code == 200 and past.json() == {"number": 3, "of": 2, "text": None}
    bad = client.post("/api/lessons/first-steps/hint", '{"number": 0}', "application/json")
    assert bad.status_code == 400 and bad.json()["error"] == "bad-number"
    second = client.post(
        "/api/lessons/first-steps/hint", '{"number": 2}', "application/json", **auth(raw)
    )
    assert second.json()["text"] == "print('a')"
    assert LessonProgress.objects.get(user=user, lesson_uuid=FIRST.uuid).hints_revealed == 2
    shown = client.post("/api/lessons/first-steps/solution", "{}", "application/json", **auth(raw))
    assert shown.json()["solution"] == FIRST.exercise.solution
    assert LessonProgress.objects.get(user=user, lesson_uuid=FIRST.uuid).revealed_at is not None


def test_answers_are_judged_and_kept_for_the_token(client):
    user, raw = make_token(client)
    url = "/api/lessons/first-steps/questions/"
    shown = client.get("/api/lessons/first-steps", **auth(raw)).json()["questions"]
    options = next(q["options"] for q in shown if q["id"] == "pick")
    body = json.dumps({"answer": options.index("two")})  # by its place in the learner's order
    right = client.post(url + "pick", body, "application/json", **auth(raw)).json()
    assert right["correct"] is True and right["explanation"] == "Two is 2."
    offered = meaning_order(MATCH)
    picks = [offered.index(i) for i in range(len(MATCH.pairs))]
    body = json.dumps({"answer": picks})
    matched = client.post(url + "pairs", body, "application/json", **auth(raw)).json()
    assert matched["correct"] is True and matched["per_term"] == [True, True, True]
    saved = {a.question_id: a.correct for a in QuestionAnswer.objects.filter(progress__user=user)}
    assert saved == {"pick": True, "pairs": True}


@pytest.mark.parametrize(
    ("question", "body"),
    [
        ("pick", '{"answer": 7}'),
        ("pick", '{"answer": "1"}'),
        ("pick", '{"answer": true}'),
        ("pairs", '{"answer": [0, 1]}'),
        ("pairs", '{"answer": [0, 1, 99]}'),
        ("fill", '{"answer": ""}'),
        ("fill", '{"answer": 3}'),
        ("fill", "[1]"),
    ],
)
def test_bad_answers_are_400_in_words(client, question, body):
    answer = client.post(f"/api/lessons/first-steps/questions/{question}", body, "application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "bad-answer"
    assert answer.json()["message"].startswith('"answer" must')


def test_review_shows_answers_and_explanations(client):
    data = client.get("/api/lessons/first-steps/review").json()["questions"]
    by_id = {q["id"]: q for q in data}
    assert by_id["pick"]["answer"] == "two" and by_id["fill"]["answer"] == "y = x + 1"
    assert by_id["pairs"]["answer"][0] == ["Query", "what I look for"]


def test_each_learner_gets_choices_in_their_own_order_and_answers_in_it(client):
    """The order is the learner's (their account), the same on every request and in review; an
    answer is the index in that order, judged as the option shown there."""
    from codeblanks.content.public import option_order

    from .conftest import CHOICE

    user, raw = make_token(client)
    url = "/api/lessons/first-steps"

    def options(path=""):
        found = client.get(url + path, **auth(raw)).json()["questions"]
        return next(q["options"] for q in found if q["id"] == "pick")

    order = [CHOICE.options[i] for i in option_order(CHOICE, f"user:{user.pk}")]
    assert options() == order == options() == options("/review")
    for position, text in enumerate(order):
        body = json.dumps({"answer": position})
        got = client.post(url + "/questions/pick", body, "application/json", **auth(raw)).json()
        assert got["correct"] is (text == "two"), (position, text)
    anonymous = client.get(url).json()["questions"]  # no token: one order for all such callers
    assert next(q["options"] for q in anonymous if q["id"] == "pick") == [
        CHOICE.options[i] for i in option_order(CHOICE, "")
    ]
