"""Who runs next: a fair, bounded queue in front of the sandbox's slots.

A run asks for a slot with the name of its client (a learner's session, an API caller's
address). The rules, in order:

* at most ``slots`` runs at once on the node (more than cores: see docs/sandbox.md), and of
  those, when ``fresh`` is set (off by default), at most that many still *fresh*: not yet
  demoted past their CPU slice nor long in wall time (``settle``). Fresh runs compete for the
  cores at full weight, so when they pile up (the cores are contended) the next ones wait in
  the queue instead of sharing the cores ever thinner; settled runs no longer count;
* at most ``per_client`` of them for one client, so one learner's sleeping or looping programs
  can hold only that many slots, whatever they submit;
* waiting runs are served round-robin between clients: a client's tenth run waits behind
  every other client's first, never in front of it;
* at most ``client_queue`` runs of one client and ``queue`` runs in all may wait; a run that
  waits longer than its caller allows is withdrawn. Past those bounds the answer is ``busy``.

Runs without a client (reference results, health checks) are each a client of their own.
Pure bookkeeping: no processes, no clock, thread-safe; the caller waits (``Sandbox``).
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(eq=False)
class Ticket:
    """One run's place: waiting until ``granted``, then holding a slot until ``finish``."""

    client: object
    on_grant: Callable[[Ticket], None]
    granted: bool = False
    done: bool = False
    fresh: bool = False  # granted and not yet settled: counts against ``fresh``


@dataclass
class _Client:
    running: int = 0
    waiting: collections.deque[Ticket] = field(default_factory=collections.deque)


class Scheduler:
    def __init__(
        self, *, slots: int, per_client: int, queue: int, client_queue: int, fresh: int = 0
    ) -> None:
        self.slots, self.per_client = max(1, slots), max(1, per_client)
        self.fresh_cap = fresh if fresh > 0 else self.slots  # 0: only ``slots`` bounds
        self.fresh = 0
        self.queue, self.client_queue = max(0, queue), max(0, client_queue)
        self._lock = threading.Lock()
        self._clients: dict[object, _Client] = {}
        self._turns: collections.deque[object] = collections.deque()  # clients with waiting runs
        self.running = 0
        self.waiting = 0

    def submit(self, client: str | None, on_grant: Callable[[Ticket], None]) -> Ticket | None:
        """A ticket (granted at once if a slot is free, ``on_grant`` called when it is), or None
        when the client's or the node's queue is full: ``busy``."""
        key: object = client if client is not None else object()
        ticket = Ticket(key, on_grant)
        with self._lock:
            state = self._clients.setdefault(key, _Client())
            full = len(state.waiting) >= self.client_queue or self.waiting >= self.queue
            free = state.running < self.per_client and self._room()
            if full and not (free and not state.waiting):
                self._forget(key, state)
                return None
            if not state.waiting:
                self._turns.append(key)
            state.waiting.append(ticket)
            self.waiting += 1
            granted = self._dispatch()
        self._notify(granted)
        return ticket

    def withdraw(self, ticket: Ticket) -> bool:
        """Take back a ticket that waited too long. False if it was granted meanwhile: then it
        holds a slot and the caller must run (or ``finish``) it."""
        with self._lock:
            if ticket.granted or ticket.done:
                return False
            state = self._clients[ticket.client]
            state.waiting.remove(ticket)
            self.waiting -= 1
            ticket.done = True
            if not state.waiting:
                self._turns.remove(ticket.client)
            self._forget(ticket.client, state)
        return True

    def finish(self, ticket: Ticket) -> None:
        """The run ended: free its slot and hand it on."""
        with self._lock:
            if not ticket.granted or ticket.done:
                return
            ticket.done = True
            if ticket.fresh:
                ticket.fresh = False
                self.fresh -= 1
            state = self._clients[ticket.client]
            state.running -= 1
            self.running -= 1
            self._forget(ticket.client, state)
            granted = self._dispatch()
        self._notify(granted)

    def settle(self, ticket: Ticket) -> None:
        """The run was demoted, or has run long in wall time: it keeps its slot but no longer
        counts as fresh, so the next waiting run may start."""
        with self._lock:
            if not ticket.fresh:
                return
            ticket.fresh = False
            self.fresh -= 1
            granted = self._dispatch()
        self._notify(granted)

    def _room(self) -> bool:
        return self.running < self.slots and self.fresh < self.fresh_cap

    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def _forget(self, key: object, state: _Client) -> None:
        if not state.running and not state.waiting:
            del self._clients[key]

    def _dispatch(self) -> list[Ticket]:
        """Grant free slots round-robin to the clients that wait and are under their share."""
        granted: list[Ticket] = []
        skipped = 0
        while self._room() and skipped < len(self._turns):
            key = self._turns[0]
            state = self._clients[key]
            if state.running >= self.per_client:
                self._turns.rotate(-1)
                skipped += 1
                continue
            ticket = state.waiting.popleft()
            self.waiting -= 1
            state.running += 1
            self.running += 1
            self.fresh += 1
            ticket.granted = ticket.fresh = True
            granted.append(ticket)
            self._turns.popleft()
            if state.waiting:
                self._turns.append(key)  # its next run goes to the back of the line
            skipped = 0
        return granted

    @staticmethod
    def _notify(granted: list[Ticket]) -> None:
        for ticket in granted:
            ticket.on_grant(ticket)
