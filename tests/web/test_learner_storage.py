"""What anonymous visitors may store. A client that drops its cookie is a new
learner on every request; each may keep only so much code; and learners who will not come
back are deleted (``codeblanks manage expire_learners``, and now and then on its own)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone

from codeblanks.web.learner import store
from codeblanks.web.learner.learners import Learner
from codeblanks.web.models import Attempt, LessonProgress, QuestionAnswer

from .conftest import FIRST, HOST, LAST
from .test_run import _config

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
RUN = "/lessons/{}/run"


def _cookieless(**extra):
    """A request from a client that keeps no cookie: a new session, a new learner."""
    return Client(HTTP_HOST=HOST, **extra)


def test_a_client_that_drops_its_cookie_starts_only_so_many_learners(grader):
    with override_settings(CODEBLANKS=_config(new_learners_per_hour=3, run_rate=0)):
        statuses = [
            _cookieless().post(RUN.format(FIRST.id), {"code": "x = 1"}, **HTMX).status_code
            for _ in range(6)
        ]
        answer = _cookieless().post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})
        page = answer.content.decode()
        elsewhere = _cookieless(REMOTE_ADDR="10.0.0.8")
        other = elsewhere.post(RUN.format(FIRST.id), {"code": "x = 2"}, **HTMX).status_code
    assert statuses == [200, 200, 200, 429, 429, 429]  # before the fix: a learner each time
    assert answer.status_code == 429 and "Too many new visitors" in page and "<html" in page
    assert other == 200  # another address has its own share
    assert LessonProgress.objects.count() == 4 and Session.objects.count() == 4
    assert not QuestionAnswer.objects.exists() and len(grader.codes) == 4


def test_a_learner_who_keeps_the_cookie_is_not_counted_again(client, grader):
    with override_settings(CODEBLANKS=_config(new_learners_per_hour=1, run_rate=0)):
        for n in range(5):
            assert client.post(RUN.format(FIRST.id), {"code": f"x = {n}"}).status_code == 200
        assert client.post(f"/lessons/{FIRST.id}/hint").status_code in (200, 302)
    assert LessonProgress.objects.count() == 1


def test_one_learner_keeps_only_so_much_code(client, grader):
    with override_settings(CODEBLANKS=_config(learner_code_bytes=100, run_rate=0)):
        assert client.post(RUN.format(FIRST.id), {"code": "a" * 60}, **HTMX).status_code == 200
        refused = client.post(RUN.format(LAST.id), {"code": "b" * 60}, **HTMX)
        again = client.post(RUN.format(FIRST.id), {"code": "c" * 90}, **HTMX)  # replaces its own
    assert refused.status_code == 413, refused.content[:300]
    text = refused.content.decode()
    assert "take 60 bytes and this one 60" in text and "at most 100 bytes" in text
    assert again.status_code == 200
    kept = dict(LessonProgress.objects.values_list("lesson_uuid", "code"))
    assert kept == {FIRST.uuid: "c" * 90} and len(grader.codes) == 2


def test_the_bound_counts_bytes_not_characters():
    """Turkish letters and symbols take 2–4 bytes each, counted as stored (UTF-8)."""
    learner = Learner(anon_key="u" * 32)
    store.code_save(learner=learner, lesson=FIRST, code="ğ" * 30 + "🙂" * 5)  # 60 + 20 bytes
    with override_settings(CODEBLANKS=_config(learner_code_bytes=100)):
        assert store._room_refusal(learner, LAST, "x" * 20) is None
        refused = store._room_refusal(learner, LAST, "x" * 21)
    assert refused is not None and "take 80 bytes and this one 21" in refused.message


def test_the_bound_holds_for_a_token_too(client, grader):
    from .test_learner_api import make_token

    _, token = make_token(client)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    with override_settings(CODEBLANKS=_config(learner_code_bytes=100, run_rate=0)):
        for lesson, status in ((FIRST, 200), (LAST, 413)):
            r = client.post(
                f"/api/lessons/{lesson.id}/grade",
                {"code": "d" * 60},
                content_type="application/json",
                **auth,
            )
            assert r.status_code == status, r.content[:300]
    assert r.json()["error"] == "too-much-code"


def _anon(key: str, lesson=FIRST, days_ago: float = 0, **fields) -> LessonProgress:
    row = LessonProgress.objects.create(anon_key=key, lesson_uuid=lesson.uuid, **fields)
    Attempt.objects.create(anon_key=key, lesson_uuid=lesson.uuid, verdict="incorrect")
    when = timezone.now() - timedelta(days=days_ago)
    LessonProgress.objects.filter(pk=row.pk).update(updated_at=when)
    return row


def _setting_the_scene():
    """Who stays and who goes, with CODEBLANKS_IDLE_LEARNER_DAYS=7 and 90-day sessions."""
    old = timezone.now() - timedelta(days=8)
    _anon("idle", days_ago=8, code="x = 1", has_code=True)  # goes: no progress, 8 days
    _anon("idle", lesson=LAST, days_ago=9)
    _anon("recent", days_ago=1, code="x = 1", has_code=True)  # stays: written yesterday
    _anon("solver", days_ago=8, solved_at=old)  # stays: it solved something
    _anon("hinted", days_ago=8, hints_revealed=1)  # stays: it saw a hint
    answered = _anon("answerer", days_ago=8)
    QuestionAnswer.objects.create(progress=answered, question_id="pick", answered_at=old, answer=1)
    _anon("gone", days_ago=100, solved_at=old)  # goes: its session ended long ago
    user = get_user_model().objects.create_user("ada", password="a-long-passphrase-1")
    row = LessonProgress.objects.create(user=user, lesson_uuid=FIRST.uuid)
    LessonProgress.objects.filter(pk=row.pk).update(updated_at=old - timedelta(days=400))


def _anon_keys() -> set[str]:
    return set(LessonProgress.objects.filter(user__isnull=True).values_list("anon_key", flat=True))


KEPT = {"recent", "solver", "hinted", "answerer"}


def test_expire_learners_deletes_only_those_who_will_not_come_back(capsys):
    _setting_the_scene()
    with override_settings(CODEBLANKS=_config(idle_learner_days=7)):
        call_command("expire_learners")
    assert _anon_keys() == KEPT
    assert set(Attempt.objects.values_list("anon_key", flat=True)) == KEPT
    assert LessonProgress.objects.filter(user__isnull=False).count() == 1
    assert "2 anonymous learners deleted" in capsys.readouterr().out


def test_a_new_learner_now_and_then_clears_them_out_too(grader):
    _setting_the_scene()
    with override_settings(CODEBLANKS=_config(idle_learner_days=7, run_rate=0)):
        assert _cookieless().post(RUN.format(FIRST.id), {"code": "x = 1"}).status_code == 200
        _anon("idle-again", days_ago=8)
        assert _cookieless().post(RUN.format(FIRST.id), {"code": "x = 1"}).status_code == 200
    keys = _anon_keys()
    assert keys > KEPT and "idle" not in keys and "gone" not in keys
    assert "idle-again" in keys  # once an hour, not on every new learner
