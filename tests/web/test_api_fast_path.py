"""The request path through ``codeblanks.web.door.asgi.application`` (what uvicorn calls): /api/
goes to the API's own handler (security headers, no session or CSRF cookie, the same answers), every
other page to the full site (sessions and CSRF as before); the run rate is counted exactly."""

from __future__ import annotations

import asyncio
import json
import threading
from http.cookies import SimpleCookie

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from codeblanks.web.door import asgi
from codeblanks.web.door.inprocess import asgi_request
from codeblanks.web.door.middleware import CSP
from codeblanks.web.learner import quotas

from .conftest import HOST
from .test_run import _config

# The API does no database work, but Django's request signals check the connections of the
# thread they run on, and earlier tests (Django's test client) may have left one on that thread.
pytestmark = pytest.mark.django_db

RUN = "/api/run"
GRADE = "/api/lessons/first-steps/grade"
SOLUTION = json.dumps({"code": "print('a')\nprint('b')\n"}).encode()


class Answer:
    def __init__(self, messages):
        start = messages[0]
        self.status = start["status"]
        self.headers: dict[str, str] = {}
        self.cookies = SimpleCookie()
        for name, value in start["headers"]:
            name, value = name.decode().lower(), value.decode("latin1")
            if name == "set-cookie":
                self.cookies.load(value)
            else:
                self.headers[name] = value
        self.body = b"".join(m.get("body", b"") for m in messages[1:])

    def json(self):
        return json.loads(self.body)


async def acall(
    app,
    method,
    path,
    body=b"",
    headers=(),
    scheme="http",
    client="127.0.0.1",
    host=HOST,
    query=b"",
):
    answer = await asgi_request(
        app, method, path, headers, body, host=host, client=client, scheme=scheme, query=query
    )
    return Answer(answer.messages)


def call(method, path, body=b"", app=None, **kw):
    return asyncio.run(acall(app or asgi.application, method, path, body, **kw))


def post(path, body, **kw):
    return call("POST", path, body, headers=[(b"content-type", b"application/json")], **kw)


def test_only_api_paths_take_the_api_handler():
    scope = {"type": "http", "root_path": ""}
    assert asgi.is_api({**scope, "path": "/api/run"})
    assert asgi.is_api({**scope, "path": "/app/api/run", "root_path": "/app"})
    assert not asgi.is_api({**scope, "path": "/apis/x"})
    assert not asgi.is_api({**scope, "path": "/lessons/x/"})
    assert not asgi.is_api({"type": "websocket", "path": "/api/run"})


def test_api_answers_carry_the_security_headers_and_no_cookie(sandbox, grader):
    browser = [(b"cookie", b"sessionid=abc; csrftoken=def"), (b"content-type", b"text/plain")]
    for r in (
        call("GET", "/api/lessons"),
        post(RUN, b'{"code": "print(6 * 7)"}'),
        call("POST", GRADE, SOLUTION, headers=browser),
        call("GET", "/api/nothing/here"),
        call("GET", RUN),
    ):
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"
        assert r.headers["cross-origin-opener-policy"] == "same-origin"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["content-type"] == "application/json"
        # no session, so nothing varies by cookie; the words follow the caller's language
        assert not r.cookies and r.headers["vary"] == "Accept-Language"
        assert r.headers["content-language"] == "en"


def test_api_answers_are_the_same_through_the_asgi_app(sandbox, grader):
    r = post(RUN, b'{"code": "print(6 * 7)"}')
    assert r.status == 200 and r.json()["stdout"] == "42\n" and sandbox.codes == ["print(6 * 7)"]
    r = post(GRADE, SOLUTION)
    assert r.status == 200 and r.json()["verdict"] == "correct"
    ids = [x["id"] for x in call("GET", "/api/lessons").json()["lessons"]]
    assert ids == ["first-steps", "last-steps"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "error"),
    [
        ("POST", RUN, b"{", 400, "bad-json"),
        ("POST", GRADE, b'{"cod": 1}', 400, "missing-code"),
        ("POST", GRADE, b'{"code": 1}', 400, "bad-code"),
        ("POST", "/api/lessons/nope/grade", SOLUTION, 404, "no-such-lesson"),
        ("GET", "/api/nothing/here", b"", 404, "not-found"),
        ("GET", GRADE, b"", 405, "method-not-allowed"),
    ],
)
def test_api_errors_through_the_asgi_app(sandbox, grader, method, path, body, status, error):
    r = call(method, path, body)
    assert r.status == status and r.json()["error"] == error
    assert sandbox.codes == [] and grader.codes == []


def test_too_large_is_413_through_the_asgi_app(sandbox):
    with override_settings(CODEBLANKS=_config(max_code_bytes=100)):
        r = post(RUN, json.dumps({"code": "é" * 51}).encode())
    assert r.status == 413 and r.json()["error"] == "too-large"
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000):
        r = post(RUN, json.dumps({"code": "x" * 5000}).encode())
    assert r.status == 413 and r.json()["error"] == "too-large" and sandbox.codes == []


def test_too_many_runs_is_429_per_client_through_the_asgi_app(sandbox):
    with override_settings(CODEBLANKS=_config(run_rate=2)):
        codes = [post(RUN, b'{"code": "1"}').status for _ in range(3)]
        other = post(RUN, b'{"code": "1"}', client="10.0.0.9")
    assert codes == [200, 200, 429] and other.status == 200
    assert len(sandbox.codes) == 3


def test_the_api_still_checks_the_host(sandbox):
    r = post(RUN, b'{"code": "1"}', host="evil.example")
    assert r.status == 400 and sandbox.codes == []


def test_https_settings_apply_to_the_api(sandbox):
    with override_settings(SECURE_HSTS_SECONDS=3600, SECURE_SSL_REDIRECT=True):
        api = asgi.ApiHandler()  # Django's middleware reads these when it is built
        plain = call("POST", RUN, b'{"code": "1"}', app=api)
        secure = call("POST", RUN, b'{"code": "1"}', app=api, scheme="https")
    assert plain.status == 301 and plain.headers["location"] == f"https://{HOST}{RUN}"
    assert secure.status == 200 and secure.headers["strict-transport-security"] == "max-age=3600"


def test_the_api_handler_refuses_sync_middleware():
    sync = ["django.middleware.common.CommonMiddleware"]
    with override_settings(API_MIDDLEWARE=sync), pytest.raises(ImproperlyConfigured, match="async"):
        asgi.ApiHandler()


@pytest.fixture
def signal_threads():
    """The thread each of Django's request signals was sent in, in order."""
    from django.core import signals

    sent: list[tuple[str, int]] = []

    def started(**kwargs):
        sent.append(("started", threading.get_ident()))

    def finished(**kwargs):
        sent.append(("finished", threading.get_ident()))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    yield sent
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)


def test_without_a_token_the_request_signals_stay_on_the_loop(sandbox, grader, signal_threads):
    """No token, no database: Django's request signals are sent on the event loop's thread, no
    hand-off to asgiref's thread and back."""
    here = threading.get_ident()  # asyncio.run runs the loop in this thread
    assert post(RUN, b'{"code": "print(6 * 7)"}').status == 200
    assert post(GRADE, SOLUTION).status == 200
    assert call("GET", "/api/lessons").status == 200
    assert signal_threads == [("started", here), ("finished", here)] * 3


def test_with_a_token_the_request_signals_go_to_the_database_thread(sandbox, signal_threads):
    """A token is looked up in asgiref's thread: the signals that look after that thread's
    database connection are sent there, as Django sends them."""
    bad = [(b"content-type", b"application/json"), (b"authorization", b"Bearer cbt_nope")]
    r = call("POST", RUN, b'{"code": "1"}', headers=bad)
    assert r.status == 200  # /api/run takes no token: it is ignored
    r = call("POST", GRADE, SOLUTION, headers=bad)
    assert r.status == 401 and r.json()["error"] == "bad-token"
    assert [name for name, _ in signal_threads] == ["started", "finished"] * 2
    assert all(thread != threading.get_ident() for _, thread in signal_threads)


def test_a_client_that_leaves_cancels_its_run(monkeypatch, signal_threads):
    """The view races the client's disconnect, as in Django's own handler: a caller that goes
    away stops its run, and nothing is sent to it."""
    from codeblanks.web.learner import store

    started, cancelled = asyncio.Event(), []

    class Hanging:
        async def arun_cases(self, request):
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(request.codes)
                raise

    monkeypatch.setattr(store, "get_sandbox", Hanging)
    scope = {
        "type": "http",
        "method": "POST",
        "scheme": "http",
        "path": RUN,
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", HOST.encode()), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 40000),
    }
    sent = []

    async def receive():
        if not sent:
            sent.append("body")
            return {"type": "http.request", "body": b'{"code": "1"}', "more_body": False}
        await started.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(asyncio.wait_for(asgi.api(scope, receive, send), 5))
    assert cancelled == [("1",)] and sent == ["body"]
    assert [name for name, _ in signal_threads] == ["started", "finished"]


@pytest.mark.django_db(transaction=True)
def test_pages_still_get_a_session_and_csrf_through_the_asgi_app():
    page = call("GET", "/lessons/first-steps/")
    assert page.status == 200 and page.headers["content-security-policy"] == CSP
    token = page.cookies["csrftoken"].value
    form = [
        (b"cookie", f"csrftoken={token}".encode()),
        (b"content-type", b"application/x-www-form-urlencoded"),
    ]
    r = call("POST", "/lessons/first-steps/reset", b"", headers=form)
    assert r.status == 403 and "sessionid" not in r.cookies  # no CSRF token: refused, as before
    # the refusal's page has the language switcher's form, whose token is the same secret
    assert "csrftoken" not in r.cookies or r.cookies["csrftoken"].value == token
    r = call("POST", "/lessons/first-steps/reset", f"csrfmiddlewaretoken={token}".encode(),
             headers=form)  # fmt: skip
    assert r.status == 302 and "sessionid" in r.cookies  # the learner's session starts
    assert r.cookies["sessionid"]["httponly"] and r.headers["x-frame-options"] == "DENY"


# ---- the run rate ----------------------------------------------------------------------------


async def _refusals(n: int) -> int:
    refusals = await asyncio.gather(*(quotas.rate_refusal("10.1.2.3") for _ in range(n)))
    return sum(r is not None for r in refusals)


def test_the_rate_is_counted_on_the_event_loop_with_locmem(monkeypatch):
    def no_thread(*args, **kwargs):
        raise AssertionError("the in-process cache needs no worker thread")

    monkeypatch.setattr(quotas, "sync_to_async", no_thread)
    with override_settings(CODEBLANKS=_config(run_rate=10)):
        assert asyncio.run(_refusals(25)) == 15


def test_the_rate_is_counted_exactly_with_redis():
    redis = pytest.importorskip("redis")
    url = "redis://127.0.0.1:6379/14"
    try:
        redis.Redis.from_url(url, socket_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    backend = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": f"test-api-fast-path-{threading.get_ident()}",
    }
    from django.core.cache import cache

    with override_settings(CACHES={"default": backend}, CODEBLANKS=_config(run_rate=10)):
        try:
            cache.clear()
            assert asyncio.run(_refusals(25)) == 15  # concurrent, in worker threads: atomic
        finally:
            cache.clear()


def test_static_files_stream_through_the_asgi_app_without_a_warning(recwarn):
    """Django warns on every static file whose body is a sync iterator (the issue's server log);
    the body is read in a worker thread instead, byte for byte."""
    from pathlib import Path

    import codeblanks.web

    answer = call("GET", "/static/codeblanks/app.css")
    assert answer.status == 200
    css = Path(codeblanks.web.__file__).parent / "static" / "codeblanks" / "app.css"
    assert answer.body == css.read_bytes()
    streaming = [w for w in recwarn if "StreamingHttpResponse" in str(w.message)]
    assert streaming == []
