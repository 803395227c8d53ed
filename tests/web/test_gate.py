"""The site's gate (``web/door/gate.py``): a few requests do their sync work at once, the others
wait in order, one whose client left is dropped unrun, and a Run lends its permit back while
the sandbox has its program, so pages are served past Runs waiting for the sandbox."""

from __future__ import annotations

import asyncio
import time

import pytest

from codeblanks.sandbox.testing import PATIENCE_S, FakeRunner, Signal
from codeblanks.web.door import asgi, gate
from codeblanks.web.door.middleware import CSP
from codeblanks.web.learner import store
from codeblanks.web.models import LessonProgress

from .test_run_path import FORM, RUN, TOKEN, Browser


async def settled(check, what: str) -> None:
    """Let the loop run until ``check()`` holds (a hang fails, after PATIENCE_S)."""

    async def poll():
        while not check():
            await asyncio.sleep(0.001)

    try:
        await asyncio.wait_for(poll(), PATIENCE_S)
    except TimeoutError:
        raise AssertionError(f"never happened: {what}") from None


class Work:
    """A request's sync part, stood in for: notes when it starts, ends when told."""

    def __init__(self, name: str, started: list[str]) -> None:
        self.name, self.started = name, started
        self.go = asyncio.Event()

    async def __call__(self) -> str:
        self.started.append(self.name)
        await self.go.wait()
        return self.name


async def behind_the_run(door, page: Work, late: Work, running, served) -> None:
    """While ``page`` holds the permit a Run lent, the Run waits to take it back; a ``late``
    page arrives behind it. Then both pages are let finish, and everything ends."""
    await settled(lambda: door.waiting == 1, "the run waiting to take its permit back")
    queued = asyncio.create_task(gate.through(door, late))
    await settled(lambda: door.waiting == 2, "a later page waiting too")
    page.go.set()
    late.go.set()
    await asyncio.wait_for(asyncio.gather(running, served, queued), PATIENCE_S)


def test_a_few_at_once_the_others_in_order_of_arrival():
    async def scenario():
        door, started = gate.Gate(2), []
        works = [Work(str(k), started) for k in range(5)]
        tasks = []
        for work in works:
            tasks.append(asyncio.create_task(gate.through(door, work)))
            await asyncio.sleep(0)  # they arrive in this order
        await settled(lambda: len(started) == 2, "two started")
        assert started == ["0", "1"] and door.waiting == 3 and door.in_use == 2
        works[1].go.set()
        await settled(lambda: len(started) == 3, "the third started")
        assert started == ["0", "1", "2"]
        for work in works:
            work.go.set()
        assert await asyncio.gather(*tasks) == ["0", "1", "2", "3", "4"]
        assert door.in_use == 0 and door.waiting == 0

    asyncio.run(scenario())


def test_a_request_whose_client_left_while_waiting_is_dropped_unrun():
    async def scenario():
        door, started = gate.Gate(1), []
        first, second, third = (
            Work("first", started),
            Work("second", started),
            Work("third", started),
        )
        holding = asyncio.create_task(gate.through(door, first))
        waiting = asyncio.create_task(gate.through(door, second))
        after = asyncio.create_task(gate.through(door, third))
        await settled(lambda: door.waiting == 2, "two waiting")
        waiting.cancel()  # the client went away
        first.go.set()
        third.go.set()
        assert await holding == "first" and await after == "third"
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert started == ["first", "third"] and door.in_use == 0

    asyncio.run(scenario())


def test_a_permit_handed_to_a_waiter_cancelled_at_that_moment_is_passed_on():
    async def scenario():
        door = gate.Gate(1)
        await door.acquire()
        waiter = asyncio.create_task(door.acquire())
        after = asyncio.create_task(door.acquire())
        await settled(lambda: door.waiting == 2, "two waiting")
        door.release()  # handed to the first waiter ...
        waiter.cancel()  # ... which is cancelled before it could run
        with pytest.raises(asyncio.CancelledError):
            await waiter
        await asyncio.wait_for(after, PATIENCE_S)  # the next one got it
        assert door.in_use == 1 and door.waiting == 0
        door.release()
        assert door.in_use == 0

    asyncio.run(scenario())


def test_a_request_cancelled_while_its_thread_works_keeps_the_permit_until_done():
    async def scenario():
        door, started = gate.Gate(1), []
        work, later = Work("work", started), Work("later", started)
        running = asyncio.create_task(gate.through(door, work))
        await settled(lambda: started == ["work"], "the work started")
        running.cancel()  # the client left; a thread cannot be stopped, so its work goes on
        with pytest.raises(asyncio.CancelledError):
            await running
        queued = asyncio.create_task(gate.through(door, later))
        await settled(lambda: door.waiting == 1, "the next one waiting")
        assert door.in_use == 1 and started == ["work"]
        work.go.set()  # the thread's work ends: now the permit is free
        later.go.set()
        assert await asyncio.wait_for(queued, PATIENCE_S) == "later"
        assert door.in_use == 0

    asyncio.run(scenario())


def test_a_lent_permit_comes_back_before_the_requests_that_arrived_meanwhile():
    async def scenario():
        door, order = gate.Gate(1, wait_s=PATIENCE_S), []  # no deadline to race
        in_sandbox, sandbox_done = asyncio.Event(), asyncio.Event()

        async def run():  # a Run: works, waits for the sandbox with its permit lent, works again
            order.append("run starts")
            async with gate.lent():
                in_sandbox.set()
                await sandbox_done.wait()
            order.append("run ends")

        page, late = Work("page", order), Work("late page", order)
        running = asyncio.create_task(gate.through(door, run))
        await asyncio.wait_for(in_sandbox.wait(), PATIENCE_S)
        served = asyncio.create_task(gate.through(door, page))  # takes the lent permit
        await settled(lambda: "page" in order, "the page served while the run waits")
        sandbox_done.set()
        await behind_the_run(door, page, late, running, served)
        assert order == ["run starts", "page", "run ends", "late page"]
        assert door.in_use == 0

    asyncio.run(scenario())


def test_a_run_back_from_the_sandbox_waits_for_its_permit_at_most_the_gate_wait():
    """A Run holds its site thread while the sandbox has its program. When such Runs hold every
    site thread, the requests that took the permits meanwhile wait for a thread, and a Run that
    waited for a permit to come back would wait for ever: the node answered every later request
    503 (seen under a crowd past the knee, docs/changelog.md). It waits the gate's wait, then
    finishes without one, which frees its thread."""

    async def scenario():
        door, order = gate.Gate(1, wait_s=0.05), []
        in_sandbox, sandbox_done = asyncio.Event(), asyncio.Event()
        thread_free = asyncio.Event()  # the one site thread, held by the Run until it ends

        async def run():
            async with gate.lent():
                in_sandbox.set()
                await sandbox_done.wait()
            order.append("run ends")
            thread_free.set()

        async def page():  # its permit taken, it waits for a site thread
            await thread_free.wait()
            order.append("page")

        running = asyncio.create_task(gate.through(door, run))
        await asyncio.wait_for(in_sandbox.wait(), PATIENCE_S)
        served = asyncio.create_task(gate.through(door, page))
        await settled(lambda: door.in_use == 1, "the page holding the lent permit")
        sandbox_done.set()
        await asyncio.wait_for(asyncio.gather(running, served), PATIENCE_S)
        assert order == ["run ends", "page"]
        assert door.in_use == 0 and door.waiting == 0

    asyncio.run(scenario())


def test_a_permit_lent_in_a_thread_goes_to_the_loop_and_comes_back_ahead_of_arrivals():
    """A Run driven in its site thread lends its permit there (``outside``, no hop to the loop):
    a page already waiting on the loop is woken with it; the Run takes it back, in its thread,
    ahead of a page that arrived later."""
    from asgiref.sync import sync_to_async

    async def scenario():
        door, order = gate.Gate(1, wait_s=PATIENCE_S), []  # no deadline to race
        in_sandbox, sandbox_done, page_waits = Signal(), Signal(), Signal()

        def run():  # in a site thread, as the page's Run
            page_waits.wait_here()
            with gate.outside():
                in_sandbox.set()
                sandbox_done.wait_here()
            order.append("run ends")

        page, late = Work("page", order), Work("late page", order)
        running = asyncio.create_task(
            gate.through(door, sync_to_async(run, thread_sensitive=False))
        )
        served = asyncio.create_task(gate.through(door, page))
        await settled(lambda: door.waiting == 1, "the page waiting on the loop")
        page_waits.set()
        await settled(lambda: "page" in order, "the page woken with the lent permit")
        sandbox_done.set()
        await behind_the_run(door, page, late, running, served)
        assert order == ["page", "run ends", "late page"]
        assert door.in_use == 0 and door.waiting == 0

    asyncio.run(scenario())


def test_a_thread_takes_its_permit_back_waiting_at_most_the_gate_wait():
    from asgiref.sync import sync_to_async

    async def scenario():
        door, order = gate.Gate(1, wait_s=0.05), []
        in_sandbox = Signal()

        def run():
            with gate.outside():
                in_sandbox.set()
                while "page" not in order:  # the page took the lent permit and holds it
                    time.sleep(0.001)
            order.append("run ends")  # went on without one

        page = Work("page", order)
        running = asyncio.create_task(
            gate.through(door, sync_to_async(run, thread_sensitive=False))
        )
        await asyncio.wait_for(in_sandbox.wait(), PATIENCE_S)
        served = asyncio.create_task(gate.through(door, page))
        await asyncio.wait_for(running, PATIENCE_S)
        assert order == ["page", "run ends"] and door.in_use == 1 and door.waiting == 0
        page.go.set()
        await asyncio.wait_for(served, PATIENCE_S)
        assert door.in_use == 0

    asyncio.run(scenario())


def test_a_request_that_waits_too_long_is_not_run():
    async def scenario():
        door, started = gate.Gate(1, wait_s=0.05), []
        first, second = Work("first", started), Work("second", started)
        holding = asyncio.create_task(gate.through(door, first))
        await settled(lambda: started == ["first"], "the first started")
        with pytest.raises(gate.Full):
            await gate.through(door, second)
        assert door.waiting == 0 and started == ["first"]
        first.go.set()
        await holding
        assert door.in_use == 0

    asyncio.run(scenario())


def test_without_a_gate_the_work_just_runs():
    async def scenario():
        started = []
        work = Work("work", started)
        work.go.set()
        return await gate.through(None, work)

    assert asyncio.run(scenario()) == "work"


@pytest.fixture
def one_permit(monkeypatch):
    door = gate.Gate(1)
    monkeypatch.setattr(asgi, "_gate", door)
    return door


@pytest.mark.django_db(transaction=True)
def test_pages_are_served_while_a_run_waits_on_the_sandbox_with_one_permit(monkeypatch, one_permit):
    """The Run's request holds the only permit until its program is handed to the sandbox; it
    lends it back there, so a page is answered meanwhile; then the Run ends and all is free."""

    async def scenario():
        sandbox = FakeRunner(hold=True)
        monkeypatch.setattr(store, "get_sandbox", lambda: sandbox)
        form = f"code=print(1)&csrfmiddlewaretoken={TOKEN}".encode()
        run = asyncio.create_task(Browser().arequest("POST", RUN, form, FORM))
        await asyncio.wait_for(sandbox.asked.wait(), PATIENCE_S)
        assert one_permit.in_use == 0  # lent
        page = await asyncio.wait_for(Browser().arequest("GET", "/lessons/last-steps/"), PATIENCE_S)
        assert page.status == 200 and not run.done()
        sandbox.release()
        answer = await asyncio.wait_for(run, PATIENCE_S)
        assert one_permit.in_use == 0 and one_permit.waiting == 0
        return answer

    answer = asyncio.run(scenario())
    assert answer.status == 200 and "data-verdict=" in answer.body.decode()


@pytest.mark.django_db(transaction=True)
def test_a_page_waits_for_a_permit_and_is_then_served(one_permit):
    async def scenario():
        await one_permit.acquire()  # all the permits are in use
        page = asyncio.create_task(Browser().arequest("GET", "/lessons/first-steps/"))
        await settled(lambda: one_permit.waiting == 1, "the page waiting at the gate")
        one_permit.release()
        return await asyncio.wait_for(page, PATIENCE_S)

    assert asyncio.run(scenario()).status == 200
    assert one_permit.in_use == 0


@pytest.mark.django_db(transaction=True)
def test_the_probe_and_static_files_never_wait_for_a_permit(monkeypatch, one_permit, sandbox):
    async def scenario():
        await one_permit.acquire()  # all the permits are in use
        probe = await asyncio.wait_for(Browser().arequest("GET", "/healthz"), PATIENCE_S)
        style = await asyncio.wait_for(
            Browser().arequest("GET", "/static/codeblanks/app.css"), PATIENCE_S
        )
        assert one_permit.waiting == 0
        one_permit.release()
        return probe, style

    probe, style = asyncio.run(scenario())
    assert probe.status == 200 and probe.json()["status"] == "ok"
    assert style.status == 200 and len(style.body) > 1000


def test_the_gate_has_the_configured_permits():
    from django.conf import settings

    assert asgi._gate is not None and asgi._gate.permits == settings.CONFIG.site_permits


@pytest.mark.django_db(transaction=True)
def test_past_the_wait_a_run_is_refused_in_words_and_nothing_is_kept(monkeypatch):
    door = gate.Gate(1, wait_s=0.05)
    monkeypatch.setattr(asgi, "_gate", door)
    sandbox = FakeRunner()
    monkeypatch.setattr(store, "get_sandbox", lambda: sandbox)

    async def scenario():
        await door.acquire()  # the node is full
        form = f"code=print(1)&csrfmiddlewaretoken={TOKEN}".encode()
        turkish = [*FORM, (b"accept-language", b"tr")]
        run = await Browser().arequest("POST", RUN, form, turkish)
        page = await Browser().arequest("GET", "/lessons/first-steps/")
        door.release()
        return run, page

    run, page = asyncio.run(scenario())
    assert run.status == 503 and run.headers["retry-after"] == "5"
    body = run.body.decode()
    assert 'data-verdict="refused"' in body and "Aynı anda çok fazla öğrenci var" in body
    assert "<html" not in body  # the run region's partial, for htmx
    assert run.headers["content-language"] == "tr"
    for answer in (run, page):  # made on the loop, with the site's security headers all the same
        assert answer.headers["content-security-policy"] == CSP
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert int(answer.headers["content-length"]) == len(answer.body)  # not chunked
    assert page.status == 503 and "<html" in page.body.decode()
    assert "Too many learners at once" in page.body.decode()
    assert sandbox.requests == [] and not LessonProgress.objects.exists()
    assert door.in_use == 0 and door.waiting == 0


class StalledLms:
    """An HTTP server on a free loopback port that answers each request only once released:
    an LMS that is slow to answer."""

    def __init__(self) -> None:
        import http.server
        import threading

        self.asked, self.release = threading.Event(), threading.Event()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                outer.asked.set()
                outer.release.wait(PATIENCE_S)
                body = b'{"keys": []}'
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/jwks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def test_a_request_waiting_on_a_slow_lms_lends_its_permit():
    """A site thread calling the LMS (the session every LMS call goes through) gives its
    permit back while it waits, so the site is served meanwhile; then takes it back."""
    from asgiref.sync import sync_to_async

    from codeblanks.web.teaching.lti_hosts import TimedSession

    lms = StalledLms()

    async def scenario():
        door, started = gate.Gate(1), []
        call = sync_to_async(
            lambda: TimedSession().get(lms.url).status_code, thread_sensitive=False
        )
        launch = asyncio.create_task(gate.through(door, call))
        await asyncio.wait_for(asyncio.to_thread(lms.asked.wait, PATIENCE_S), PATIENCE_S)
        page = Work("page", started)
        page.go.set()
        assert await asyncio.wait_for(gate.through(door, page), PATIENCE_S) == "page"
        assert not launch.done()
        lms.release.set()
        assert await asyncio.wait_for(launch, PATIENCE_S) == 200
        assert door.in_use == 0 and door.waiting == 0

    try:
        asyncio.run(scenario())
    finally:
        lms.close()


def test_a_wait_outside_inside_another_lends_the_permit_once():
    """Nested waits on outside servers lend the one permit once and take it back once."""
    from asgiref.sync import sync_to_async

    async def scenario():
        door = gate.Gate(2)  # two: a second permit taken by mistake shows, rather than waits
        seen = []

        def nested():
            with gate.outside():
                seen.append(door.in_use)
                with gate.outside():
                    seen.append(door.in_use)
                seen.append(door.in_use)
            seen.append(door.in_use)

        await gate.through(door, sync_to_async(nested, thread_sensitive=False))
        assert seen == [0, 0, 0, 1] and door.in_use == 0

    asyncio.run(scenario())


def test_outside_a_request_the_lms_session_just_calls():
    from codeblanks.web.teaching.lti_hosts import TimedSession

    lms = StalledLms()
    lms.release.set()
    try:
        assert TimedSession().get(lms.url).status_code == 200
    finally:
        lms.close()
