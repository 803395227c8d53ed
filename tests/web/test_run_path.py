"""The Run on its own path (``web/door/runpath.py``), through ``asgi.application`` as uvicorn calls
it: the same learner (anonymous or signed in), CSRF, limits, progress and language as the rest
of the site, with only ``RUN_MIDDLEWARE`` and no URL resolver."""

from __future__ import annotations

import asyncio
import re
import threading
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import resolve

from codeblanks.sandbox.testing import PATIENCE_S, PRINTS_42, Signal
from codeblanks.web.door import asgi, runpath
from codeblanks.web.door.middleware import CSP
from codeblanks.web.learner.learners import SESSION_KEY
from codeblanks.web.models import Attempt, LessonProgress

from .conftest import FIRST, HOST
from .test_api_fast_path import acall
from .test_run import _config

pytestmark = pytest.mark.django_db(transaction=True)

RUN = "/lessons/first-steps/run"
PAGE = "/lessons/first-steps/"
TOKEN = "a" * 32  # a CSRF secret, sent as the cookie and in the form
FORM = [(b"content-type", b"application/x-www-form-urlencoded"), (b"hx-request", b"true")]


def _scope(method: str, path: str) -> dict:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}


class Browser:
    """One visitor's cookies, sent back as a browser does."""

    def __init__(self, cookies: dict[str, str] | None = None) -> None:
        self.cookies = {"csrftoken": TOKEN, **(cookies or {})}

    async def arequest(self, method, path, body=b"", headers=(), query=b""):
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items()).encode()
        answer = await acall(asgi.application, method, path, body,
                             headers=[(b"cookie", cookie), *headers], query=query)  # fmt: skip
        for name, morsel in answer.cookies.items():
            self.cookies[name] = morsel.value
        return answer

    def request(self, *args, **kwargs):
        return asyncio.run(self.arequest(*args, **kwargs))

    def run(self, code: str, token: str | None = TOKEN, headers=FORM, query=b""):
        fields = f"code={code}" + (f"&csrfmiddlewaretoken={token}" if token else "")
        return self.request("POST", RUN, fields.encode(), headers, query)


def test_the_run_paths_are_the_urlconfs():
    """The door finds the view Django's resolver would, with the same arguments and name."""
    for path in (RUN, "/lessons/x_2-y/run", "/api/run", "/api/lessons/first-steps/grade"):
        routes = runpath.PAGE_ROUTES if path.startswith("/lessons/") else runpath.API_ROUTES
        django = resolve(path)
        ours = runpath._resolve(routes, asgi.page_run.views | asgi.api_run.views, path)
        assert (ours.func, ours.kwargs, ours.url_name) == (
            django.func, django.kwargs, django.url_name)  # fmt: skip
        assert ours.route == django.route


def test_only_a_posted_run_takes_the_door():
    assert asgi.handler_for(_scope("POST", RUN)) is asgi.page_run
    assert asgi.handler_for(_scope("POST", "/api/run")) is asgi.api_run
    assert asgi.handler_for(_scope("POST", "/api/lessons/x/grade")) is asgi.api_run
    assert asgi.handler_for(_scope("GET", RUN)) is asgi.site  # its 405, as before
    assert asgi.handler_for(_scope("POST", "/lessons/first-steps/reset")) is asgi.site
    assert asgi.handler_for(_scope("POST", "/lessons/a/b/run")) is asgi.site
    assert asgi.handler_for(_scope("POST", "/api/lessons/x/draft")) is asgi.api
    assert asgi.handler_for(_scope("GET", "/api/run")) is asgi.api
    assert Browser().request("GET", RUN).status == 405


def test_the_page_run_has_only_its_middleware():
    chain = [f.__self__ for f in asgi.page_run._view_middleware]
    assert [type(m).__name__ for m in chain] == ["CsrfViewMiddleware"]
    assert set(settings.RUN_MIDDLEWARE) < set(settings.MIDDLEWARE)
    left_out = set(settings.MIDDLEWARE) - set(settings.RUN_MIDDLEWARE)
    assert {name.rsplit(".", 1)[1] for name in left_out} == {
        "StaticFiles", "MessageMiddleware", "AxesMiddleware"}  # fmt: skip
    order = [settings.MIDDLEWARE.index(name) for name in settings.RUN_MIDDLEWARE]
    assert order == sorted(order)


def test_an_anonymous_learner_starts_on_the_first_run_and_stays(grader):
    browser = Browser()
    first = browser.run("print:a")
    assert first.status == 200 and 'data-verdict="incorrect"' in first.body.decode()
    assert "sessionid" in first.cookies and first.cookies["sessionid"]["httponly"]
    second = browser.run(FIRST.exercise.solution.replace("\n", "%0A"))
    assert second.status == 200 and 'data-verdict="correct"' in second.body.decode()
    assert "sessionid" not in second.cookies  # the same session, nothing new to set
    row = LessonProgress.objects.get()  # one learner, one row
    assert row.anon_key and row.user is None and row.runs == 2 and row.solved_at is not None
    assert row.code == FIRST.exercise.solution
    assert [a.verdict for a in Attempt.objects.order_by("id")] == ["incorrect", "correct"]
    assert grader.clients == [f"anon:{row.anon_key}"] * 2
    # the page, through the site's own handler, shows the same learner's work
    page = browser.request("GET", PAGE).body.decode()
    assert "Exercise solved" in page


def test_a_signed_in_learner_runs_as_themselves(grader):
    user = User.objects.create_user("ada", password="x" * 12)
    django = Client(HTTP_HOST=HOST)
    django.force_login(user)
    browser = Browser({"sessionid": django.cookies["sessionid"].value})
    assert browser.run("print:a").status == 200
    row = LessonProgress.objects.get()
    assert row.user_id == user.pk and row.anon_key == "" and row.runs == 1
    assert Attempt.objects.get().user_id == user.pk and grader.clients == [f"user:{user.pk}"]


def test_without_a_csrf_token_the_run_is_refused_and_nothing_runs(grader):
    for token in (None, "b" * 32):
        answer = Browser().run("print:a", token=token)
        assert answer.status == 403 and "This page is out of date" in answer.body.decode()
        assert "sessionid" not in answer.cookies
    assert grader.codes == [] and not LessonProgress.objects.exists()


def test_a_refused_run_says_why_and_when_to_retry_and_saves_nothing(grader):
    browser = Browser()
    with override_settings(CODEBLANKS=_config(run_rate=1)):
        assert browser.run("print:a").status == 200
        refused = browser.run("print:b")
    assert refused.status == 429 and 0 < int(refused.headers["retry-after"]) <= 60
    assert "You have run 1 programs this minute" in refused.body.decode()
    assert grader.codes == ["print:a"] and LessonProgress.objects.get().code == "print:a"
    with override_settings(CODEBLANKS=_config(max_code_bytes=10)):
        too_big = browser.run("print:" + "x" * 20)
    assert too_big.status == 413 and "retry-after" not in too_big.headers
    assert LessonProgress.objects.get().code == "print:a"


def test_the_run_answers_in_the_language_chosen(grader):
    solution = FIRST.exercise.solution.replace("\n", "%0A")
    browser = Browser()
    by_header = browser.run(solution, headers=[*FORM, (b"accept-language", b"tr")])
    assert by_header.headers["content-language"] == "tr" and "Doğru" in by_header.body.decode()
    by_query = browser.run(solution, query=b"lang=tr")  # and remembered in the session
    assert by_query.headers["content-language"] == "tr"
    assert browser.run(solution).headers["content-language"] == "tr"
    english = browser.run(solution, query=b"lang=en")
    assert english.headers["content-language"] == "en" and "Correct" in english.body.decode()


def test_the_run_answer_has_every_header_and_checks_the_host(grader):
    answer = Browser().run("print:a")
    assert answer.headers["content-security-policy"] == CSP
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "Cookie" in answer.headers["vary"] and "Accept-Language" in answer.headers["vary"]
    cookie = [(b"cookie", f"csrftoken={TOKEN}".encode()), *FORM]
    form = f"code=1&csrfmiddlewaretoken={TOKEN}".encode()
    evil = asyncio.run(
        acall(asgi.application, "POST", RUN, form, headers=cookie, host="evil.example")
    )
    assert evil.status == 400 and grader.codes == ["print:a"]


def test_without_javascript_the_whole_page_comes_back(grader):
    answer = Browser().run("print:a", headers=FORM[:1])
    html = answer.body.decode()
    assert answer.status == 200 and "<html" in html and "Not quite" in html
    assert re.search(r"<textarea[^>]*>\s*print:a", html)  # the posted code in the editor


def test_a_slow_run_does_not_hold_up_other_pages(monkeypatch):
    """While one learner's program runs (its request's thread waits), other pages are served."""
    from codeblanks.grading import Grade
    from codeblanks.learning import tutor

    async def scenario():
        entered, release = Signal(), Signal()

        async def slow(lesson, code, sandbox=None, client=None):
            entered.set()
            await release.wait()  # in the Run's thread, which it holds meanwhile
            return Grade("correct", "a\nb\n", "", "a\nb\n")

        monkeypatch.setattr(tutor, "agrade", slow)
        form = f"code=x&csrfmiddlewaretoken={TOKEN}".encode()
        run = asyncio.create_task(Browser().arequest("POST", RUN, form, FORM))
        await asyncio.wait_for(entered.wait(), PATIENCE_S)
        page = Browser().arequest("GET", "/lessons/last-steps/")
        other = await asyncio.wait_for(page, PATIENCE_S)
        assert other.status == 200 and not run.done()
        release.set()
        return await run

    assert asyncio.run(scenario()).status == 200


def test_the_page_run_happens_on_its_requests_thread(monkeypatch):
    """The code's save, the sandbox's run and the attempt's record, one thread, no loop in it:
    the Run is driven there (``codeblanks.inline``), with no hand-off to the event loop."""
    from codeblanks import inline
    from codeblanks.sandbox.testing import FakeRunner
    from codeblanks.web.learner import store

    where = []

    def noted(step, func):
        def call(*args, **kwargs):
            where.append((step, threading.get_ident(), inline.on_loop()))
            return func(*args, **kwargs)

        return call

    def answer(request):
        if "6*7" in request.codes[0]:  # the learner's (the lesson's first grade runs its reference)
            where.append(("run", threading.get_ident(), inline.on_loop()))
        return [PRINTS_42]

    fake = FakeRunner(answer)
    monkeypatch.setattr(store, "get_sandbox", lambda: fake)
    monkeypatch.setattr(store, "code_save", noted("save", store.code_save))
    monkeypatch.setattr(store, "attempt_record", noted("record", store.attempt_record))
    answer = Browser().run("print(6*7)")
    assert answer.status == 200 and "data-verdict=" in answer.body.decode()
    assert [step for step, _, _ in where] == ["save", "run", "record"]
    assert len({thread for _, thread, _ in where}) == 1 and threading.get_ident() not in {
        thread for _, thread, _ in where}  # fmt: skip
    assert not any(loop for _, _, loop in where)


def test_a_session_key_left_by_the_run_is_the_pages_learner(grader):
    browser = Browser()
    browser.run("print:a")
    store = import_module(settings.SESSION_ENGINE).SessionStore(browser.cookies["sessionid"])
    assert store[SESSION_KEY] == LessonProgress.objects.get().anon_key


def test_a_run_of_no_lesson_is_the_sites_404(grader):
    browser = Browser()
    answer = browser.request("POST", "/lessons/nope/run", f"code=1&csrfmiddlewaretoken={TOKEN}"
                             .encode(), FORM)  # fmt: skip
    assert answer.status == 404 and "<html" in answer.body.decode() and grader.codes == []
    api = browser.request("POST", "/api/lessons/nope/grade", b'{"code": "1"}',
                          [(b"content-type", b"application/json")])  # fmt: skip
    assert api.status == 404 and api.json()["error"] == "no-such-lesson"
