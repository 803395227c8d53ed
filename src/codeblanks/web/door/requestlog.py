"""One log line and the metrics for every HTTP request, at the ASGI door (both Django handlers,
static files and refusals alike), under one request id: the balancer's ``X-Request-ID`` when it
is a sane token, else one made here. The id is sent back in ``X-Request-ID`` and carried by every
log line written meanwhile (logs.py), the sandbox's included."""

from __future__ import annotations

import functools
import logging
import re
import time
import uuid

from django.conf import settings
from django.urls import Resolver404, get_urlconf, resolve

from codeblanks.web.door import metrics
from codeblanks.web.door.logs import request_id

log = logging.getLogger("codeblanks.web.request")

_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
GRADE_VIEWS = {"lesson-run", "api-grade"}
# A password-reset link's token is as good as the password while it lasts: never logged.
# (Django's confirm view swaps it for "set-password" at once; that one is harmless.)
_RESET_TOKEN = re.compile(r"^(/accounts/reset/[^/]*/)(?!set-password/)[^/]+")


def _logged(path: str) -> str:
    """The path as the log line shows it: a reset link's token blanked out."""
    return _RESET_TOKEN.sub(r"\1[token]", path)


def _incoming_id(scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = value.decode("latin-1")
            if _SANE_ID.fullmatch(text):
                return text
    return uuid.uuid4().hex


def _view(path: str) -> str:
    """A bounded label: the URL's name, ``static``, or ``other`` (never the raw path)."""
    if path.startswith("/static/"):
        return "static"
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    if len(path) > _REMEMBERED_PATH:
        return _resolved(path, urlconf)
    return _remembered(path, urlconf)


def _resolved(path: str, urlconf: str) -> str:
    try:
        return resolve(path, urlconf).url_name or "other"
    except Resolver404:
        return "other"


# The URL is resolved once by Django and once more here: the label of a path seen lately is
# remembered instead (a few hundred bytes a path, at most _REMEMBERED of them).
_REMEMBERED, _REMEMBERED_PATH = 1024, 256
_remembered = functools.lru_cache(maxsize=_REMEMBERED)(_resolved)


def observed(app):
    async def observe(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        rid = _incoming_id(scope)
        token = request_id.set(rid)
        status = 500  # unless the app answers
        start = time.perf_counter()

        async def send_with_id(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", rid.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - start
            path = scope.get("path", "")
            view = _view(path)
            path = _logged(path)
            metrics.requests.labels(str(status)).inc()
            metrics.request_seconds.labels(view).observe(seconds)
            if view in GRADE_VIEWS:
                metrics.grade_seconds.labels(view).observe(seconds)
            client = scope.get("client") or ("", 0)
            log.info(
                "%s %s %s %.0f ms", scope.get("method", ""), path, status, seconds * 1000,
                extra={"request": {"method": scope.get("method", ""), "path": path,
                                   "view": view, "status": status,
                                   "ms": round(seconds * 1000, 1), "client": client[0]}},
            )  # fmt: skip
            request_id.reset(token)

    return observe
