"""One JSON request to a CodeBlanks server on the learner's behalf, never at the server's mercy:
the whole exchange within ``DEADLINE_S`` (a server that answers a byte at a time is cut off, not
only one that goes quiet), no answer longer than ``MAX_BODY``, a redirect followed only within
the server's own origin (so the token and the learner's code go to no one else), http and https
only. Every way it can go wrong is a ``UsageError`` in words that names the server."""

from __future__ import annotations

import contextlib
import contextvars
import http.client
import json
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from codeblanks.cli.console import UsageError, visible
from codeblanks.cli.learn.untrusted import one_line, shown
from codeblanks.i18n import gettext as _

# A grade waits for every case of a slow program (each up to its time limit) and for a free
# sandbox; nothing a server rightly does takes longer.
DEADLINE_S = 120.0
MAX_BODY = 4 * 1024 * 1024  # the whole catalogue, or a grade with its diff, is far smaller
MAX_REDIRECTS = 4


def origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and port: what a redirect must keep for the token to go along."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:  # a port that is not a number: the origin of no server
        return "", "", None
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), port or {"http": 80, "https": 443}.get(scheme)


def check_server(address: str) -> str:
    """``address`` without its last slash when it is an http or https address of a server;
    else a usage error saying what one looks like."""
    try:
        parts = urllib.parse.urlsplit(address)
        fine = (
            parts.scheme.lower() in ("http", "https")
            and bool(parts.hostname)
            and parts.port != 0
            and not (parts.username or parts.password or parts.query or parts.fragment)
            and not any(c.isspace() for c in address)
            and visible(address) == address
        )
    except ValueError:  # a port that is not a number, a bracket left open
        fine = False
    if not fine:
        raise UsageError(
            _(
                "{address} is not a server's address: give one such as https://codeblanks.example.org"
            ).format(address=shown(address))  # fmt: skip
        )
    return address.rstrip("/")


def request_json(
    method: str, url: str, server: str, body: Any = None, headers: dict[str, str] | None = None
) -> Any:
    """The JSON the server answers to ``method url``; ``server`` names it in the messages."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, method=method)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    deadline = DEADLINE_S
    connections = _Connections()
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def exchange() -> None:
        try:
            outcome["answer"] = _exchange(request, connections, server, deadline)
        except BaseException as problem:  # handed to the caller's thread
            outcome["problem"] = problem
        finally:
            done.set()

    # in a copy of this context, so its messages speak the learner's language (codeblanks.i18n)
    context = contextvars.copy_context()
    worker = threading.Thread(
        target=context.run, args=(exchange,), name="codeblanks-learn-request", daemon=True
    )
    worker.start()
    try:
        finished = done.wait(deadline)
    finally:
        if not done.is_set():
            connections.cut()  # the exchange stops reading; its thread ends with the socket
    if not finished:
        raise UsageError(
            _("{server} did not finish answering within {seconds} seconds: try again later").format(
                server=visible(server), seconds=f"{deadline:g}"
            )
        )
    if "problem" in outcome:
        raise outcome["problem"]
    return outcome["answer"]


class _Connections:
    """The sockets of one exchange, so the deadline can shut them from another thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        self.closed = False

    def add(self, sock: socket.socket) -> None:
        with self.lock:
            self.sockets.append(sock)
            if self.closed:
                _shut(sock)

    def cut(self) -> None:
        with self.lock:
            self.closed = True
            for sock in self.sockets:
                _shut(sock)

    def kind(self, base: type[http.client.HTTPConnection]):
        """``base`` (an HTTP or HTTPS connection) that reports its socket once connected."""
        connections = self

        class Watched(base):  # type: ignore[valid-type, misc]  # a class chosen at run time
            def connect(self) -> None:
                super().connect()
                connections.add(self.sock)

        return Watched


def _shut(sock: socket.socket) -> None:
    # the plain socket's shutdown, under TLS too: it wakes a read blocked in another thread
    with contextlib.suppress(OSError):  # already closed
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _Elsewhere(Exception):
    def __init__(self, target: str) -> None:
        self.target = target


class _SameOrigin(urllib.request.HTTPRedirectHandler):
    """Follows a redirect within the server's origin only; any other is refused."""

    max_redirections = MAX_REDIRECTS

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if origin(newurl) != origin(req.full_url):
            fp.close()
            raise _Elsewhere(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _opener(connections: _Connections) -> urllib.request.OpenerDirector:
    """http and https (through the environment's proxy, if any), nothing else: no file: URLs."""
    plain, secure = connections.kind(http.client.HTTPConnection), None
    if hasattr(http.client, "HTTPSConnection"):
        secure = connections.kind(http.client.HTTPSConnection)

    class Plain(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(plain, req)

    opener = urllib.request.OpenerDirector()
    handlers = [
        urllib.request.ProxyHandler(),
        urllib.request.UnknownHandler(),
        Plain(),
        urllib.request.HTTPDefaultErrorHandler(),
        _SameOrigin(),
        urllib.request.HTTPErrorProcessor(),
    ]
    if secure is not None:

        class Secure(urllib.request.HTTPSHandler):
            def https_open(self, req):
                return self.do_open(secure, req, context=self._context)

        handlers.append(Secure())
    for handler in handlers:
        opener.add_handler(handler)
    return opener


def _exchange(request, connections: _Connections, server: str, deadline: float) -> Any:
    where = visible(server)
    try:
        with _opener(connections).open(request, timeout=deadline) as answer:
            data = _read(answer, server)
    except urllib.error.HTTPError as failure:
        with failure:
            raise UsageError(_refusal(failure)) from None
    except _Elsewhere as moved:
        raise UsageError(
            _(
                "{server} sent the request on to {target}, another server: not followed, so "
                "your token and code stay with {server}; if that is the right server, name it "
                "with --server URL"
            ).format(server=where, target=shown(moved.target))
        ) from None
    except (urllib.error.URLError, OSError) as failure:
        reason = getattr(failure, "reason", failure)
        raise UsageError(
            _(
                "no CodeBlanks server answers at {server} ({reason}); start one with "
                "`codeblanks serve`, or name another with --server URL"
            ).format(server=where, reason=one_line(reason))
        ) from None
    except http.client.HTTPException as failure:  # a broken status line, headers or body
        raise UsageError(
            _("{server} sent a broken answer ({reason}): is it CodeBlanks?").format(
                server=where, reason=one_line(type(failure).__name__)
            )
        ) from None
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested past all reason
        raise UsageError(
            _("{server} did not answer with JSON: is it CodeBlanks?").format(server=where)
        ) from None


def _read(answer, server: str) -> bytes:
    """The body, refused as soon as it is known to be longer than ``MAX_BODY``."""
    limit = MAX_BODY
    length = (answer.headers.get("Content-Length") or "").strip()
    data = b"" if length.isdigit() and int(length) > limit else answer.read(limit + 1)
    if len(data) > limit or (length.isdigit() and int(length) > limit):
        raise UsageError(
            _("{server} sent an answer longer than {size} MB: refused").format(
                server=visible(server), size=limit // (1024 * 1024)
            )
        )
    return data


def _refusal(failure: urllib.error.HTTPError) -> str:
    """What the server says in refusing (its JSON ``message``, else its status line's reason)."""
    try:
        raw = failure.read(MAX_BODY + 1)
        data = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_BODY else {}
        message = data.get("message") or data.get("error") or failure.reason
    except (ValueError, RecursionError, AttributeError, OSError, http.client.HTTPException):
        message = failure.reason
    message = one_line(message)
    message = message if len(message) <= 300 else message[:299] + "…"
    if failure.code == 401:
        return _(
            "the server refused your token ({message}): create a new one on your progress "
            "page and run `codeblanks learn login`"
        ).format(message=message)
    return _("the server answered {status}: {message}").format(status=failure.code, message=message)
