"""outages.py on its own: a gap is logged once at each end; a 500 while the database does not
answer becomes a 503 in words (JSON under /api); a 500 with the database up stays ours; a
request the database was too busy for (a real lock held by another connection) is the same 503,
and loses nothing saved. The real outages (PostgreSQL restarted, Redis stopped) are in
tests/deploy/test_cluster.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import types

import pytest
from django.core.handlers.exception import response_for_exception
from django.db import connection
from django.db.utils import DatabaseErrorWrapper, IntegrityError
from django.http import HttpResponse
from django.test import RequestFactory

from codeblanks.web.door import outages
from codeblanks.web.models import LessonProgress

from .conftest import FIRST


def test_a_gap_is_logged_once_when_it_begins_and_once_when_it_ends(caplog):
    gap = outages.Gap("the thing")
    with caplog.at_level(logging.WARNING, logger="codeblanks.web"):
        gap.answered()  # nothing to say: it never went away
        for _ in range(50):
            try:
                raise ConnectionError("refused")
            except ConnectionError:
                gap.failed("we carry on")
        gap.answered()
        gap.answered()
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "the thing is not answering: we carry on (said once; its return is logged)",
        "the thing answers again",
    ]
    assert caplog.records[0].exc_info[0] is ConnectionError  # the first failure's cause


def _through(monkeypatch, path, answers: bool, status=500, **headers):
    monkeypatch.setattr(outages, "database_answers", lambda: answers)
    middleware = outages.database_outage(lambda request: HttpResponse("boom", status=status))
    return middleware(RequestFactory().get(path, **headers))


@pytest.mark.parametrize("answers, status", [(False, 503), (True, 500)])
def test_a_500_is_a_503_only_while_the_database_does_not_answer(monkeypatch, answers, status):
    response = _through(monkeypatch, "/progress/", answers)
    assert response.status_code == status
    if status == 503:
        page = response.content.decode()
        assert "The database is not answering" in page and "What you saved before" in page
        assert response["Retry-After"] == "5"


def test_other_answers_are_left_alone_without_asking_the_database(monkeypatch):
    def never():
        raise AssertionError("asked the database for a 200")

    monkeypatch.setattr(outages, "database_answers", never)
    middleware = outages.database_outage(lambda request: HttpResponse("fine"))
    assert middleware(RequestFactory().get("/")).status_code == 200


def test_htmx_gets_the_partial_and_the_api_gets_json(monkeypatch):
    partial = _through(monkeypatch, "/lessons/x/run", False, HTTP_HX_REQUEST="true")
    assert partial.status_code == 503
    assert b"<html" not in partial.content and b'data-verdict="refused"' in partial.content
    api = _through(monkeypatch, "/api/lessons", False)
    assert api.status_code == 503
    assert json.loads(api.content)["error"] == "database-unavailable"


def test_the_async_path_asks_off_the_event_loop(monkeypatch):
    monkeypatch.setattr(outages, "database_answers", lambda: False)

    async def inner(request):
        return HttpResponse(status=500)

    middleware = outages.database_outage(inner)
    response = asyncio.run(middleware(RequestFactory().get("/")))
    assert response.status_code == 503


@pytest.mark.django_db
def test_database_answers_with_a_fresh_connection():
    assert outages.database_answers() is True


def _sqlite_locked(tmp_path) -> BaseException:
    """SQLite's own "database is locked", as Django raises it: a write while another connection
    holds the write lock, past a busy timeout of 0, through Django's error wrapper (given SQLite's
    module, whatever database the suite runs on)."""
    path = tmp_path / "held.sqlite3"
    holder = sqlite3.connect(path, timeout=0, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    writer = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with DatabaseErrorWrapper(types.SimpleNamespace(Database=sqlite3)):
            writer.execute("INSERT INTO t VALUES (1)")
    except Exception as error:
        return error
    finally:
        writer.close()
        holder.close()
    raise AssertionError("the write was not refused")


def _answer_to(error: BaseException, path: str, **headers):
    """What Django's own handling of an uncaught exception answers (the site's handler500)."""
    request = RequestFactory().post(path, **headers)
    try:
        raise error
    except Exception as exc:
        return response_for_exception(request, exc)


def test_busy_knows_the_database_too_busy_from_other_failures(tmp_path):
    locked = _sqlite_locked(tmp_path)
    assert type(locked).__module__ == "django.db.utils" and "locked" in str(locked)
    assert outages.busy(locked)
    assert not outages.busy(IntegrityError("UNIQUE constraint failed"))
    assert not outages.busy(ValueError("a bug of ours"))
    assert not outages.busy(None)
    psycopg_errors = pytest.importorskip("psycopg.errors")
    for refusal in ("LockNotAvailable", "DeadlockDetected", "SerializationFailure"):
        assert outages.busy(getattr(psycopg_errors, refusal)())
    assert not outages.busy(psycopg_errors.UniqueViolation())


def test_a_request_the_database_was_too_busy_for_is_a_503_in_words(tmp_path):
    locked = _sqlite_locked(tmp_path)
    partial = _answer_to(locked, "/lessons/x/run", HTTP_HX_REQUEST="true")
    assert partial.status_code == 503 and partial["Retry-After"] == "5"
    assert b'data-verdict="refused"' in partial.content and b"<html" not in partial.content
    page = _answer_to(locked, "/lessons/x/run")
    assert page.status_code == 503 and b"The database is not answering" in page.content
    api = _answer_to(locked, "/api/lessons/x/grade")
    assert api.status_code == 503 and json.loads(api.content)["error"] == "database-unavailable"
    # Any other failure is still ours, said as such.
    assert _answer_to(ValueError("a bug"), "/lessons/x/run").status_code == 500


@contextlib.contextmanager
def _database_held():
    """Another connection holds what a Run writes, and this one gives up waiting after 0.1 s
    (SQLite: its write lock and busy timeout; PostgreSQL: the table's lock and lock_timeout)."""
    table = LessonProgress._meta.db_table
    if connection.vendor == "sqlite":
        holder = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        timeout_ms = int(connection.settings_dict["OPTIONS"].get("timeout", 5) * 1000)
        wait, back = "PRAGMA busy_timeout = 100", f"PRAGMA busy_timeout = {timeout_ms}"
    else:
        import psycopg

        params = connection.get_connection_params()
        holder = psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"})
        holder.execute(f'LOCK TABLE "{table}" IN ACCESS EXCLUSIVE MODE')
        wait, back = "SET lock_timeout = '100ms'", "RESET lock_timeout"
    with connection.cursor() as cursor:
        cursor.execute(wait)
    try:
        yield
    finally:
        holder.rollback()
        holder.close()
        with connection.cursor() as cursor:
            cursor.execute(back)


@pytest.mark.django_db(transaction=True)
def test_a_run_the_database_is_too_busy_for_says_so_and_keeps_what_was_saved(client, grader):
    client.raise_request_exception = False  # as the site answers, not as a test re-raises
    run, htmx = f"/lessons/{FIRST.id}/run", {"HTTP_HX_REQUEST": "true"}
    assert client.post(run, {"code": "print('kept')"}, **htmx).status_code == 200
    with _database_held():
        refused = client.post(run, {"code": "print('new')"}, **htmx)
    html = refused.content.decode()
    assert refused.status_code == 503 and refused["Retry-After"] == "5"
    assert 'data-verdict="refused"' in html and "What you saved before is safe" in html
    row = LessonProgress.objects.get(lesson_uuid=FIRST.uuid)
    assert row.code == "print('kept')" and row.runs == 1  # nothing half-written
    # Once the database has room again, the same Run goes through.
    assert client.post(run, {"code": "print('new')"}, **htmx).status_code == 200
    assert LessonProgress.objects.get(lesson_uuid=FIRST.uuid).code == "print('new')"
