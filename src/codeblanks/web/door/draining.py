"""Graceful stop: on SIGTERM a node answers /healthz 503 at once, so that HAProxy takes it out,
but keeps serving new requests for ``CODEBLANKS_DRAIN_SECONDS`` (the balancer's checks need that
long to notice); after that it answers every new request 503, which HAProxy sends on to another
node (deploy/haproxy.cfg retries a 503). The requests in flight, runs included, finish (bounded
by ``CODEBLANKS_STOP_TIMEOUT``); then it exits (serve.py). Nothing is cut half-way unless the
bound is reached."""

from __future__ import annotations

import json
import threading
import time
from urllib.parse import parse_qs

from codeblanks import i18n
from codeblanks.i18n import gettext as _

RETRY_AFTER_S = 1


def _page() -> str:
    title = _("This server is restarting")
    text = _(
        "It is finishing the work it has and takes no more. Nothing you saved is lost: reload "
        "the page in a moment and another server will answer."
    )
    return (
        f"<!doctype html><html lang={i18n.current()}><meta charset=utf-8><title>{title}</title>"
        f"<h1>{title}</h1><p>{text}</p></html>"
    )


def _message() -> str:
    return _("This server is restarting and takes no new work; send the request again.")


def _language(scope) -> str:
    """The request's language as languages.py would choose it without a session: ``?lang=``,
    then ``Accept-Language`` (this answer comes before Django sees the request)."""
    from django.utils.translation.trans_real import parse_accept_lang_header

    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    asked = query.get("lang", [""])[0]
    if i18n.supported(asked):
        return i18n.normalize(asked)
    headers = dict(scope.get("headers") or ())
    header = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(header):
        if i18n.supported(code):
            return i18n.normalize(code)
    return i18n.DEFAULT


class Drain:
    """Whether this node is stopping, and how many requests it is still serving."""

    def __init__(self) -> None:
        self.last_arrival = 0.0  # monotonic time of the last request (not /healthz)
        self.stopping = False
        self.refuse_at = float("inf")  # when new requests start to get 503
        self.in_flight = 0
        self._idle = threading.Condition()

    def begin(self, grace_s: float = 0.0) -> None:
        self.refuse_at = time.monotonic() + grace_s
        self.stopping = True

    @property
    def refusing(self) -> bool:
        return self.stopping and time.monotonic() >= self.refuse_at

    def wait_idle(self, timeout: float, quiet_s: float = 0.0) -> bool:
        """Until no request is in flight and none arrived for ``quiet_s`` (the balancer has
        stopped sending: no kept-alive connection of its own is cut by the exit) (True), or
        ``timeout`` seconds (False)."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while True:
                now = time.monotonic()
                quiet_for = quiet_s - (now - self.last_arrival)
                if not self.in_flight and quiet_for <= 0:
                    return True
                left = deadline - now
                if left <= 0:
                    return False
                self._idle.wait(min(left, max(quiet_for, 0.05), 0.5))

    def _enter(self) -> None:
        with self._idle:
            self.in_flight += 1

    def _leave(self) -> None:
        with self._idle:
            self.in_flight -= 1
            self._idle.notify_all()

    def guard(self, app):
        """ASGI middleware: refuse new requests while stopping; count the ones in flight."""

        async def guarded(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            if scope.get("path") != "/healthz":
                self.last_arrival = time.monotonic()
            if self.stopping and (scope.get("path") == "/healthz" or self.refusing):
                return await _refuse(scope, send)
            self._enter()
            try:
                await app(scope, receive, send)
            finally:
                self._leave()

        return guarded


async def _refuse(scope, send) -> None:
    path = scope.get("path", "")
    with i18n.language(_language(scope)) as code:
        if path == "/healthz":
            body, kind = json.dumps({"status": "stopping"}).encode(), b"application/json"
        elif path.startswith("/api/"):
            body = json.dumps({"error": "stopping", "message": _message()}).encode()
            kind = b"application/json"
        else:
            body, kind = _page().encode(), b"text/html; charset=utf-8"
    headers = [
        (b"content-language", code.encode()),
        (b"content-type", kind),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(RETRY_AFTER_S).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


drain = Drain()  # the process's
