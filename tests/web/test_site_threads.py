"""The site's request path through ``asgi.application``: the sync part of a page runs
in one hop to a reused thread, not a new thread per request, and Django's request signals run on
that same thread, so its database connection is closed or kept as the settings say."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.core import signals
from django.db import connections

from codeblanks.sandbox.testing import FakeRunner
from codeblanks.web.door import asgi

from .test_api_fast_path import acall, call


@pytest.fixture
def seen(monkeypatch):
    """Per request: (signal, the thread it ran on, that thread's connection wrapper), and
    ("checked", thread, wrapper) each time a thread's connection is closed if old or broken
    (the test database is in memory, where Django never really closes one)."""
    events = []
    wrapper_class = type(connections["default"])
    check = wrapper_class.close_if_unusable_or_obsolete

    def checked(self):
        events.append(("checked", threading.current_thread(), self))
        return check(self)

    monkeypatch.setattr(wrapper_class, "close_if_unusable_or_obsolete", checked)

    def started(**kwargs):
        connections["default"].ensure_connection()  # as a page that reads the database does
        events.append(("started", threading.current_thread(), connections["default"]))

    def finished(**kwargs):
        events.append(("finished", threading.current_thread(), connections["default"]))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)  # after Django's close_old_connections
    yield events
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)


@pytest.mark.django_db(transaction=True)
def test_pages_are_served_by_a_few_reused_threads(seen):
    for _ in range(20):
        assert call("GET", "/lessons/first-steps/").status == 200
    assert len([e for e in seen if e[0] == "started"]) == 20
    served = {t for kind, t, _ in seen if kind == "started"}
    assert served <= set(asgi._threads._threads)  # the pool's, kept
    # One request at a time: an idle thread takes each. (A new one may start now and then, when
    # a request comes before the thread that answered the last has said it is idle again.)
    assert len(served) <= 5


@pytest.mark.django_db(transaction=True)
def test_request_signals_run_on_the_request_thread_and_check_its_connection(seen):
    assert call("GET", "/lessons/first-steps/").status == 200
    kinds = [kind for kind, _, _ in seen]
    # Django's close_old_connections runs first at each signal, before the test's receivers
    assert kinds[-3:] == ["started", "checked", "finished"]
    threads = {id(thread) for _, thread, _ in seen[-3:]}
    wrappers = {id(wrapper) for _, _, wrapper in seen[-3:]}
    assert len(threads) == 1 and len(wrappers) == 1  # the request's own thread and connection


@pytest.mark.django_db(transaction=True)
def test_a_static_file_streams_and_then_finishes_the_request(seen):
    answer = call("GET", "/static/codeblanks/app.css")
    assert answer.status == 200 and len(answer.body) > 1000
    start = max(i for i, event in enumerate(seen) if event[0] == "started")
    _, thread, wrapper = seen[start]
    after = seen[start + 1 :]
    # the request's thread checked its connection once the response was made ...
    assert after[0][0] == "checked" and after[0][1] is thread and after[0][2] is wrapper
    # ... and the request finished once streamed, from a pool thread. That thread's own
    # connection is checked first by Django if it has one (it has, if it served a page
    # before: which thread closes is the pool's choice), so one check may come between.
    assert after[-1][0] == "finished" and [kind for kind, _, _ in after[1:-1]] in ([], ["checked"])


def test_the_site_threads_are_a_bounded_pool():
    assert asgi._threads._max_workers == asgi.THREADS


@pytest.mark.django_db(transaction=True)
def test_an_async_view_waits_on_the_loop_while_pages_are_served(monkeypatch):
    """/healthz (an async view) waits for the sandbox on the server's loop, holding only its own
    request's thread: pages are answered meanwhile, and its own database check came back to
    its thread (sync_to_async from the view)."""
    from codeblanks.web.views import health

    async def scenario():
        # Answers once the test releases it: its events are this loop's, so a view that awaits
        # them from any other loop fails.
        sandbox = FakeRunner(hold=True)
        monkeypatch.setattr(health, "get_sandbox", lambda: sandbox)
        probe = asyncio.create_task(acall(asgi.application, "GET", "/healthz"))
        await sandbox.asked.wait()
        pages = await asyncio.gather(
            *(acall(asgi.application, "GET", "/lessons/first-steps/") for _ in range(5))
        )
        assert [p.status for p in pages] == [200] * 5 and not probe.done()
        sandbox.release()
        return await probe

    answer = asyncio.run(scenario())
    assert answer.status == 200 and answer.json()["database"] == "ok"
