"""logs.py, requestlog.py, metrics.py and draining.py at the ASGI door, without a server: a JSON
line per request with its id (the balancer's when it is sane), the sandbox's line under the same
id, metrics counted, and a draining node's answers. The same through HAProxy with real nodes:
tests/deploy/test_cluster.py."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import pytest

from codeblanks.web.door import draining, logs, metrics, requestlog
from codeblanks.web.door.inprocess import asgi_request


def _call(app, path="/api/lessons", headers=()):
    """The messages ``app`` sent back to one GET."""
    answer = asyncio.run(asgi_request(app, "GET", path, headers, client="10.0.0.9"))
    return answer.messages


def _app(status=200, also=None):
    async def app(scope, receive, send):
        if also:
            also()
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    return app


@pytest.fixture
def lines():
    """Everything codeblanks logs meanwhile, as the JSON formatter writes it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    root = logging.getLogger("codeblanks")
    root.addHandler(handler)
    before = root.level
    root.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(x) for x in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)
        root.setLevel(before)


def test_one_json_line_per_request_with_the_balancers_id(lines):
    sandbox_line = lambda: logging.getLogger("codeblanks.sandbox").info(  # noqa: E731
        "run ok", extra={"run": {"verdict": "ok"}}
    )
    sent = _call(requestlog.observed(_app(also=sandbox_line)), headers=[(b"x-request-id", b"AB12")])
    assert (b"x-request-id", b"AB12") in sent[0]["headers"]
    got = lines()
    assert [x["request_id"] for x in got] == ["AB12", "AB12"]
    assert got[0]["run"] == {"verdict": "ok"} and got[0]["logger"] == "codeblanks.sandbox"
    request = got[1]["request"]
    assert (request["path"], request["status"], request["view"], request["client"]) == (
        "/api/lessons", 200, "api-lessons", "10.0.0.9"
    )  # fmt: skip


@pytest.mark.parametrize("given", [b"", b"x" * 65, b"a b", b"<script>"])
def test_an_unusable_id_is_replaced(given, lines):
    sent = _call(requestlog.observed(_app()), headers=[(b"x-request-id", given)])
    made = dict(sent[0]["headers"])[b"x-request-id"]
    assert made != given and len(made) == 32
    assert lines()[-1]["request_id"] == made.decode()


def test_requests_are_counted_by_status_and_view():
    before = metrics.requests.labels("418")._value.get()
    _call(requestlog.observed(_app(418)), path="/no/such/page")
    assert metrics.requests.labels("418")._value.get() == before + 1
    assert requestlog._view("/no/such/page") == "other"
    assert requestlog._view("/static/codeblanks/app.css") == "static"
    assert requestlog._view("/lessons/x/run") == "lesson-run"


def test_text_on_a_terminal_json_elsewhere():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert logs.formatter_name("auto", Tty()) == "text"
    assert logs.formatter_name("auto", io.StringIO()) == "json"
    assert logs.formatter_name("json", Tty()) == "json"


def test_a_draining_node_serves_until_the_grace_ends_then_refuses_in_words():
    drain = draining.Drain()
    app = drain.guard(_app())
    drain.begin(grace_s=60)
    health = _call(app, "/healthz")
    assert health[0]["status"] == 503 and json.loads(health[1]["body"]) == {"status": "stopping"}
    assert _call(app, "/api/lessons")[0]["status"] == 200  # the balancer has not noticed yet
    drain.begin(grace_s=0)
    api = _call(app, "/api/run")
    assert api[0]["status"] == 503 and json.loads(api[1]["body"])["error"] == "stopping"
    page = _call(app, "/lessons/")
    assert page[0]["status"] == 503 and b"restarting" in page[1]["body"]
    assert (b"retry-after", b"1") in page[0]["headers"]
    assert drain.in_flight == 0 and drain.wait_idle(0.1)


def test_metrics_count_runs_by_verdict():
    from codeblanks.sandbox import RunResult

    before = metrics.runs.labels("busy")._value.get(), metrics.busy._value.get()
    metrics.watch_run(RunResult("busy"))
    assert (metrics.runs.labels("busy")._value.get(), metrics.busy._value.get()) == (
        before[0] + 1,
        before[1] + 1,
    )


def test_metrics_report_the_grades_a_failed_reference_left_unjudged():
    from codeblanks.content import catalog
    from codeblanks.grading.reference import reference_failed
    from codeblanks.sandbox import RunResult

    def reported() -> float:
        return metrics.REGISTRY.get_sample_value("codeblanks_reference_failures_total") or 0.0

    before = reported()
    reference_failed(catalog().lesson("query-key-value"), "visible", RunResult("timeout"))
    assert reported() == before + 1
