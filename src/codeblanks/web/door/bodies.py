"""Request bodies, read whole in memory before Django sees them, with two bounds: size
(``CODEBLANKS_MAX_BODY_BYTES``) and time (``CODEBLANKS_BODY_TIMEOUT``).

Django's ASGI handler reads every body to the end, spooling it to a temporary file, before any
view can refuse it: a body announced as 1 GiB would cost a GiB of disk first, and one that
trickles would hold a request open for ever. Here a ``Content-Length`` above the limit is
refused before one byte is read, a body that grows past the limit is refused as soon as it does,
and one that takes longer than the timeout is cut. A refused request still goes through Django
(with an empty body), so the answer is an ordinary page or JSON error with every header; the
``refusal`` middleware gives it. Both handlers (site and API) get the same treatment (asgi.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from django.conf import settings

SCOPE_KEY = "codeblanks.body_refusal"


@dataclass(frozen=True)
class BodyRefusal:
    status: int  # 413 or 408
    error: str  # "too-large" or "too-slow"


TOO_LARGE = BodyRefusal(413, "too-large")
TOO_SLOW = BodyRefusal(408, "too-slow")


def _announced(scope) -> int | None:
    """The Content-Length header as a number (None when absent or unreadable: the parser refuses
    those itself, and the size bound below applies anyway)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            text = value.strip()
            return int(text) if text.isdigit() and len(text) < 19 else None
    return None


def _replay(body: bytes, receive):
    """A ``receive`` that hands Django the body read already, then passes on what the server
    says next (a disconnect, which Django listens for while a view runs). With ``receive``
    None (a refused body, still unread) it never says more: the answer comes at once, and
    the rest of the body is not read to look for a disconnect behind it."""
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        if receive is None:
            await asyncio.Event().wait()  # Django cancels this once it has answered
        return await receive()

    return replayed


def _with_length(scope, size: int, **extra):
    """``scope`` with its Content-Length the size of the body Django gets (what the client
    announced may be absent, wrong or unreadable: Django would call ``int()`` on it)."""
    headers = [
        (k, v)
        for k, v in scope.get("headers", ())
        if k.lower() not in (b"content-length", b"transfer-encoding")
    ]
    headers.append((b"content-length", str(size).encode()))
    return {**scope, "headers": headers, **extra}


def _refused(scope, refusal: BodyRefusal):
    return _with_length(scope, 0, **{SCOPE_KEY: refusal}), _replay(b"", None)


async def bounded(scope, receive):
    """The ``(scope, receive)`` to give Django for an HTTP request: the body read whole, or the
    scope marked with why it was refused."""
    config = settings.CODEBLANKS
    limit, seconds = config.max_body_bytes, config.body_timeout_s
    announced = _announced(scope)
    if announced is not None and announced > limit:
        return _refused(scope, TOO_LARGE)
    chunks, size = [], 0
    try:
        async with asyncio.timeout(seconds):
            while True:
                message = await receive()
                if message["type"] != "http.request":  # the client went away: Django sees it
                    return scope, _replay_disconnect(message)
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    return _refused(scope, TOO_LARGE)
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
    except TimeoutError:
        return _refused(scope, TOO_SLOW)
    body = b"".join(chunks)
    return _with_length(scope, len(body)), _replay(body, receive)


def _replay_disconnect(message):
    async def replayed():
        return message

    return replayed
