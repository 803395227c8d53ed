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

These answers are written before there is a request to read a language from, so they are
plain English, like uvicorn's own "Invalid HTTP request received."
"""

from __future__ import annotations

import asyncio
from collections import Counter

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr


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


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request head and a cap per address. The
    settings and the count of open connections per address are class attributes, set by
    ``guarded()``: one class per server."""

    head_timeout_s: float = 10.0
    per_address: int = 0  # 0: no cap
    exempt: frozenset[str] = frozenset()
    open_from: Counter[str] = Counter()

    _address: str | None = None  # counted in open_from while the connection is open
    _head_timer: asyncio.TimerHandle | None = None

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
        self._await_head(fresh=True)

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
        super().data_received(data)
        self._await_head(fresh=False)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_head(fresh=True)

    def _await_head(self, *, fresh: bool) -> None:
        """Start (``fresh``: start again) the head's deadline while the connection waits for a
        request head; stop it once a head has come."""
        waiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if fresh or not waiting:
            self._stop_waiting()
        if waiting and self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_late)

    def _stop_waiting(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.conn.trailing_data[0]:  # part of a head came: say why the connection ends
            self.transport.write(TOO_SLOW)
        self.transport.close()


def guarded(*, head_timeout_s: float, per_address: int, exempt: str) -> type[H11Protocol]:
    """The protocol class for one server. ``exempt``: CODEBLANKS_FORWARDED_ALLOW_IPS (``*``
    exempts every address)."""
    names = frozenset(x.strip() for x in exempt.split(",") if x.strip())
    return type(
        "GuardedH11Protocol",
        (GuardedH11Protocol,),
        {
            "head_timeout_s": head_timeout_s,
            "per_address": 0 if "*" in names else per_address,
            "exempt": names,
            "open_from": Counter(),
        },
    )
