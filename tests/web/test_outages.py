"""outages.py on its own: a gap is logged once at each end; a 500 while the database does not
answer becomes a 503 in words (JSON under /api); a 500 with the database up stays ours. The
real outages (PostgreSQL restarted, Redis stopped) are in tests/deploy/test_cluster.py."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from codeblanks.web.door import outages


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
