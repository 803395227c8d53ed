"""Connections, before any request: what ``codeblanks serve`` gives uvicorn as its HTTP protocol.

uvicorn times out a keep-alive connection only after it has answered on it: a connection that
never finishes its first request head (or sends nothing at all) is held for ever, and about a
thousand of them use up a node's file descriptors. So each connection gets a deadline for its
request head (``CODEBLANKS_HEAD_TIMEOUT``), counted from when it opened or from the end of the
last answer, and not put off by bytes that trickle in; past it the connection is closed (with a
408 when part of a head had come). And one client address may hold only so many connections
at once (``CODEBLANKS_CONNECTIONS_PER_ADDRESS``); the next is answered 503 and closed at once.
A trusted proxy's addresses (``CODEBLANKS_FORWARDED_ALLOW_IPS``) are not capped: every learner
comes through them.

A request head over ``MAX_HEAD`` bytes is refused with 431 and the connection closed, before the
parser has buffered more of it; a head sent behind a request still being answered (pipelined) is
not read until that answer has gone.

These answers are written before there is a request to read a language from, so they are
plain English, like uvicorn's own "Invalid HTTP request received."

The parser is httptools (llhttp, in C), uvicorn's faster protocol: h11, its pure-Python one,
cost about 0.1 ms more of CPU a request (docs/performance.md, "HTTP in C").
"""

from __future__ import annotations

import asyncio
from collections import Counter

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import get_remote_addr

MAX_HEAD = 16 * 1024  # bytes of a request head (its line and its fields)


def _plain(status: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


TOO_MANY = _plain(
    "503 Service Unavailable", "Too many connections from your address at once; close some.\n"
)
TOO_SLOW = _plain("408 Request Timeout", "The request's head did not arrive in time.\n")
TOO_LARGE = _plain(
    "431 Request Header Fields Too Large",
    f"The request's head is longer than {MAX_HEAD // 1024} KiB.\n",
)


class _HeadTooLarge(Exception):
    """Raised in a parser callback to stop the parse; the protocol answers TOO_LARGE."""


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for each request head, a cap on its size and
    a cap per address. The settings and the count of open connections per address are class
    attributes, set by ``guarded()``: one class per server.

    A head is awaited from when the connection opens and again after each answer, unless the
    next request's head was read meanwhile (pipelined)."""

    head_timeout_s: float = 10.0
    per_address: int = 0  # 0: no cap
    exempt: frozenset[str] = frozenset()
    open_from: Counter[str] = Counter()

    _address: str | None = None  # counted in open_from while the connection is open
    _head_timer: asyncio.TimerHandle | None = None
    # Where the parser is: between two requests (or before the first), or inside a head.
    _between = True
    _in_head = False
    _heads = 0  # heads read whole on this connection
    _head_bytes = 0  # bytes of the head being read, from the pieces that held nothing else
    _head_size = 0  # the bytes of its line and fields, as the parser hands them over
    _too_large = False
    _held = False  # reading stopped while the request before a pipelined head is answered

    def connection_made(self, transport) -> None:
        peer = get_remote_addr(transport)
        address = peer[0] if peer else ""
        capped = self.per_address and address and address not in self.exempt
        if capped and self.open_from[address] >= self.per_address:
            transport.write(TOO_MANY)
            transport.close()
            return
        self._address = address
        self.open_from[address] += 1
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc) -> None:
        if self._address is None:  # refused in connection_made: uvicorn never saw it
            return
        self.open_from[self._address] -= 1
        if self.open_from[self._address] <= 0:
            del self.open_from[self._address]
        self._address = None
        self._stop_waiting()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # A piece that starts between requests or inside a head, and after which that head is
        # still unfinished, is all head: counted, so that what the parser holds of a head is
        # bounded here (llhttp buffers a field's value without limit). A piece that also held
        # the request before it cannot be counted so: that request is being answered, and the
        # connection is not read until it is (on_message_begin).
        if self._held:  # resumed meanwhile (uvicorn's flow control, by a view's wait): hold again
            self.transport.pause_reading()
        head_only, heads = self._between or self._in_head, self._heads
        super().data_received(data)
        if head_only and self._in_head and self._heads == heads:
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD:
                self._refuse(TOO_LARGE)

    def send_400_response(self, msg: str) -> None:
        if self._too_large:  # the parse was stopped by _HeadTooLarge
            self._refuse(TOO_LARGE)
        else:
            super().send_400_response(msg)

    def on_message_begin(self) -> None:
        self._between, self._in_head = False, True
        self._head_bytes = self._head_size = 0
        if self.cycle is not None and not self.cycle.response_complete:
            # A pipelined head: no more is read until the request before it is answered. The
            # transport itself is held, not uvicorn's flow control, which a view's wait for
            # a disconnect would resume.
            self._held = True
            self.transport.pause_reading()
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._heads += 1
        self._stop_waiting()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._between = True
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._held and not self.transport.is_closing():
            self._held = False
            self.transport.resume_reading()
        # a pipelined request whose head was read already is in hand: nothing is awaited
        if self.cycle is None or self.cycle.response_complete:
            self._await_head()

    def _count(self, size: int) -> None:
        self._head_size += size
        if self._head_size > MAX_HEAD:
            self._too_large = True
            raise _HeadTooLarge

    def _refuse(self, answer: bytes) -> None:
        """Answer and close; while a request before it is still being answered (a pipelined
        head), close without a word: an answer now would read as that request's."""
        self._stop_waiting()
        if not self.transport.is_closing():
            if self.cycle is None or self.cycle.response_complete:
                self.transport.write(answer)
            self.transport.close()

    def _await_head(self) -> None:
        """(Re)start the head's deadline: a connection waits for a request head."""
        self._stop_waiting()
        if not self.transport.is_closing():
            self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_late)

    def _stop_waiting(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():  # (a head read whole stopped this timer: _stop_waiting)
            return
        if self._in_head:  # part of a head came: say why the connection ends
            self.transport.write(TOO_SLOW)
        self.transport.close()


def guarded(*, head_timeout_s: float, per_address: int, exempt: str) -> type[GuardedProtocol]:
    """The protocol class for one server. ``exempt``: CODEBLANKS_FORWARDED_ALLOW_IPS (``*``
    exempts every address)."""
    names = frozenset(x.strip() for x in exempt.split(",") if x.strip())
    return type(
        "GuardedProtocol",
        (GuardedProtocol,),
        {
            "head_timeout_s": head_timeout_s,
            "per_address": 0 if "*" in names else per_address,
            "exempt": names,
            "open_from": Counter(),
        },
    )
