"""Drafts: what a signed-in learner types is kept on the server (the page's PUT with
its CSRF token, the API's with a token), shown on the next load while newer than the last run's
code, never graded, and bounded like code; bad bodies are 4xx in words."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from hypothesis import given
from hypothesis import strategies as st

from codeblanks.web.models import Draft, LessonProgress

from .conftest import FIRST, HOST, LAST
from .test_fuzz import BODY, FUZZ, SURROGATE_TEXT
from .test_learner_api import auth, make_token
from .test_run import _config

pytestmark = pytest.mark.django_db
DRAFT = "/lessons/{}/draft"
API_DRAFT = "/api/lessons/{}/draft"


def _signed_in(username="ada", csrf=False) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(username, password="a-long-passphrase-1")
    client = Client(HTTP_HOST=HOST, enforce_csrf_checks=csrf)
    client.force_login(user)
    return client, user


def _put(client, url, body, **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.put(url, data, content_type="application/json", **extra)


def test_a_draft_put_from_the_page_is_shown_on_the_next_load_marked_draft():
    client, user = _signed_in()
    answer = _put(client, DRAFT.format(FIRST.id), {"code": "print('half done')\n"})
    assert answer.status_code == 200 and "saved_at" in answer.json()
    assert Draft.objects.get(user=user).code == "print('half done')\n"
    page = client.get(f"/lessons/{FIRST.id}/").content.decode()
    assert "print(&#x27;half done&#x27;)" in page
    assert 'data-draft="1"' in page and 'data-draft-url="/lessons/first-steps/draft"' in page


def test_the_page_needs_its_csrf_token_to_keep_a_draft():
    client, user = _signed_in(csrf=True)
    refused = _put(client, DRAFT.format(FIRST.id), {"code": "x = 1\n"})
    assert refused.status_code == 403 and not Draft.objects.exists()
    client.get(f"/lessons/{FIRST.id}/")  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    kept = _put(client, DRAFT.format(FIRST.id), {"code": "x = 1\n"}, HTTP_X_CSRFTOKEN=token)
    assert kept.status_code == 200 and Draft.objects.get(user=user).code == "x = 1\n"


def test_an_anonymous_visitor_keeps_drafts_in_the_browser_only():
    client = Client(HTTP_HOST=HOST)
    refused = _put(client, DRAFT.format(FIRST.id), {"code": "x = 1\n"})
    assert refused.status_code == 403 and refused.json()["error"] == "not-signed-in"
    page = client.get(f"/lessons/{FIRST.id}/").content.decode()
    assert 'data-draft-key="codeblanks:draft:anon:' in page and "data-draft-url" not in page


def test_a_run_makes_the_draft_stale_and_the_run_code_is_shown(grader):
    client, user = _signed_in()
    _put(client, DRAFT.format(FIRST.id), {"code": "print('draft')\n"})
    client.post(f"/lessons/{FIRST.id}/run", {"code": "print('ran')\n"})
    page = client.get(f"/lessons/{FIRST.id}/").content.decode()
    assert "print(&#x27;ran&#x27;)" in page and "print(&#x27;draft&#x27;)" not in page
    assert 'data-draft="0"' in page
    assert grader.codes == ["print('ran')\n"], "a draft is never graded"


def test_a_draft_equal_to_the_run_code_is_dropped(grader):
    client, user = _signed_in()
    client.post(f"/lessons/{FIRST.id}/run", {"code": "print('ran')\n"})
    _put(client, DRAFT.format(FIRST.id), {"code": "print('typing')\n"})
    assert Draft.objects.filter(user=user).exists()
    _put(client, DRAFT.format(FIRST.id), {"code": "print('ran')\n"})
    assert not Draft.objects.filter(user=user).exists()


def test_a_reset_makes_the_draft_stale():
    client, user = _signed_in()
    _put(client, DRAFT.format(FIRST.id), {"code": "print('draft')\n"})
    client.post(f"/lessons/{FIRST.id}/reset")
    page = client.get(f"/lessons/{FIRST.id}/").content.decode()
    assert "print(&#x27;draft&#x27;)" not in page and FIRST.exercise.starter.strip() in page


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("{not json", 400, "bad-json"),
        ({"text": "x"}, 400, "missing-code"),
        ({"code": 5}, 400, "bad-code"),
        ({"code": "a\x00b"}, 422, "nul-character"),
        ('{"code": "\\ud800"}', 400, "bad-character"),
    ],
)
def test_bad_draft_bodies_are_refused_in_words(body, status, code):
    client, _ = _signed_in()
    answer = _put(client, DRAFT.format(FIRST.id), body)
    assert answer.status_code == status, answer.content
    assert answer.json()["error"] == code and answer.json()["message"]
    assert not Draft.objects.exists()


def test_a_draft_is_never_more_than_the_code_limits():
    client, user = _signed_in()
    with override_settings(CODEBLANKS=_config(max_code_bytes=50, learner_code_bytes=80)):
        big = _put(client, DRAFT.format(FIRST.id), {"code": "x" * 51})
        assert big.status_code == 413 and big.json()["error"] == "too-large"
        assert "50" in big.json()["message"]
        assert _put(client, DRAFT.format(FIRST.id), {"code": "y" * 50}).status_code == 200
        full = _put(client, DRAFT.format(LAST.id), {"code": "z" * 40})
        assert full.status_code == 413 and full.json()["error"] == "too-much-code"
        assert _put(client, DRAFT.format(LAST.id), {"code": "z" * 30}).status_code == 200
    assert sorted(Draft.objects.values_list("code", flat=True)) == ["y" * 50, "z" * 30]


def test_a_full_room_for_drafts_says_what_it_holds():
    """The drafts' room is checked by the one room check (quotas.room_refusal), in its own words."""
    client, _ = _signed_in()
    with override_settings(CODEBLANKS=_config(learner_code_bytes=80)):
        assert _put(client, DRAFT.format(FIRST.id), {"code": "y" * 50}).status_code == 200
        full = _put(client, DRAFT.format(LAST.id), {"code": "z" * 31})
    message = full.json()["message"]
    assert full.status_code == 413 and full.json()["error"] == "too-much-code"
    assert "drafts in other lessons take 50 bytes" in message and "at most 80 bytes" in message


def test_only_put_keeps_a_draft():
    client, _ = _signed_in()
    assert client.post(DRAFT.format(FIRST.id), {"code": "x"}).status_code == 405
    assert _put(client, DRAFT.format("no-such"), {"code": "x"}).status_code == 404


def test_the_api_keeps_and_shows_a_draft_with_a_token(client):
    user, raw = make_token(client)
    kept = _put(client, API_DRAFT.format(FIRST.id), {"code": "print(1)\n"}, **auth(raw))
    assert kept.status_code == 200
    lesson = client.get(f"/api/lessons/{FIRST.id}", **auth(raw)).json()
    assert lesson["draft"]["code"] == "print(1)\n" and lesson["draft"]["saved_at"]
    assert "draft" not in client.get(f"/api/lessons/{FIRST.id}").json()
    LessonProgress.objects.create(
        user=user, lesson_uuid=FIRST.uuid, code="print(2)\n", has_code=True,
        code_saved_at=Draft.objects.get().saved_at.replace(year=2100),
    )  # fmt: skip
    assert client.get(f"/api/lessons/{FIRST.id}", **auth(raw)).json()["draft"] is None


def test_the_api_draft_needs_a_token_and_puts_only(client):
    anonymous = _put(client, API_DRAFT.format(FIRST.id), {"code": "x"})
    assert anonymous.status_code == 401 and anonymous.json()["error"] == "no-token"
    _, raw = make_token(client)
    wrong = client.post(API_DRAFT.format(FIRST.id), "{}", "application/json", **auth(raw))
    assert wrong.status_code == 405 and wrong["Allow"] == "PUT"
    bad = _put(client, API_DRAFT.format(FIRST.id), "[1", **auth(raw))
    assert bad.status_code == 400 and bad.json()["error"] == "bad-json"


def test_a_draft_is_one_per_learner_and_lesson():
    ada, _ = _signed_in("ada")
    bob, _ = _signed_in("bob")
    _put(ada, DRAFT.format(FIRST.id), {"code": "ada = 1\n"})
    _put(ada, DRAFT.format(FIRST.id), {"code": "ada = 2\n"})
    _put(bob, DRAFT.format(FIRST.id), {"code": "bob = 1\n"})
    assert Draft.objects.count() == 2
    assert "ada = 2" in ada.get(f"/lessons/{FIRST.id}/").content.decode()
    assert "ada = " not in bob.get(f"/lessons/{FIRST.id}/").content.decode()


@FUZZ
@given(body=st.one_of(BODY, SURROGATE_TEXT.map(lambda t: json.dumps({"code": t}).encode())))
def test_hostile_draft_bodies_never_make_a_500(body):
    """As tests/web/test_fuzz.py does for the other endpoints: the page's (signed in) and the
    API's (a token) draft endpoints answer every body below 500, in JSON."""
    user = get_user_model().objects.get_or_create(username="fuzz")[0]
    client = Client(HTTP_HOST=HOST)
    client.force_login(user)
    for path in (DRAFT.format(FIRST.id), API_DRAFT.format(FIRST.id)):
        answer = client.put(path, body, content_type="application/json")
        assert answer.status_code < 500, answer.content[:300]
        assert answer["Content-Type"] == "application/json"
        json.loads(answer.content)
