"""How many of the site's requests do their sync work at once, in one web process.

uvicorn takes every request it is sent, and the site's threads would run them all at once on
one interpreter. Past what a node holds, each then slows every other: answers come later than
learners wait, and work goes on for clients that have left (docs/performance.md, "The site's
gate"). So a request's sync part (middleware, view, database) first takes one of a few permits,
in arrival order, on the event loop; a request whose client leaves while it waits is dropped
unrun. A Run lends its permit back while the sandbox has its program (``Lending``), so Runs
queued for a sandbox slot never hold pages up, and it takes one again ahead of the requests
still waiting: it has work in hand. So does a request's thread while it waits on a server
outside the node (``outside``: an LMS), so that a slow LMS cannot hold the site up. A request's
thread lends and takes back in place (the gate's lock), with no hop to the loop. Taking it
back waits at most ``CODEBLANKS_SITE_WAIT`` and then goes on without one (``take_back``): such a
request holds a site thread, and the permits may all be held by requests waiting for a thread.

A request that waits longer than ``CODEBLANKS_SITE_WAIT`` is not run but answered 503 in words
at once (``Full``; outages.overloaded): past what a node holds, the wait of every request served
stays that short, and the rest are told to come back instead of timing out.
``CODEBLANKS_SITE_PERMITS`` sets how many permits; 0: no gate. The balancer's probe (/healthz)
and static files never wait for one (asgi.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TypeVar

from codeblanks import inline
from codeblanks.sandbox.result import Runner, RunRequest, RunResult

T = TypeVar("T")


class Full(Exception):
    """A request waited longer than the gate's ``wait_s``: not run."""


class _LoopWaiter:
    """A request waiting on the event loop for a permit (``Gate.acquire``)."""

    def __init__(self, gate: Gate, loop: asyncio.AbstractEventLoop) -> None:
        self.gate, self.loop = gate, loop
        self.future: asyncio.Future[None] = loop.create_future()

    def grant(self) -> bool:
        """Hand it the permit; False if it can no longer take it (the caller passes it on)."""
        if _on_loop(self.loop):
            if self.future.done():  # cancelled while queued
                return False
            self.future.set_result(None)
            return True
        try:  # released on a thread (a Run's or an LMS wait's): delivered on the loop
            self.loop.call_soon_threadsafe(self._deliver)
        except RuntimeError:  # the loop is closed: nobody waits there any more
            return False
        return True

    def _deliver(self) -> None:
        if self.future.done():  # cancelled meanwhile: pass it on
            self.gate.release()
        else:
            self.future.set_result(None)


class _ThreadWaiter:
    """A request's thread waiting to take its lent permit back (``Permit.take_back_here``)."""

    def __init__(self) -> None:
        self.granted = threading.Event()

    def grant(self) -> bool:
        self.granted.set()
        return True


class Gate:
    """A semaphore with two queues: permits handed back go to a request that lent its own first
    (``returning``), then to arrivals, each queue in order. Arrivals wait on the event loop; a
    request's thread gives its permit back and takes it again in place, without a hop to the
    loop unless a waiter there must be woken (one lock guards the counts and the queues)."""

    def __init__(self, permits: int, wait_s: float = 5.0) -> None:
        self.permits = permits
        self.wait_s = wait_s
        self._free = permits
        self._lock = threading.Lock()
        self._returning: deque[_LoopWaiter | _ThreadWaiter] = deque()
        self._arriving: deque[_LoopWaiter | _ThreadWaiter] = deque()

    @property
    def waiting(self) -> int:
        return len(self._returning) + len(self._arriving)

    @property
    def in_use(self) -> int:
        return self.permits - self._free

    def _take_free(self) -> bool:
        """Under the lock: a free permit taken. A free permit means nobody waits: ``release``
        hands permits to waiters directly."""
        if self._free:
            self._free -= 1
            return True
        return False

    async def acquire(self, *, returning: bool = False) -> None:
        """On the loop: a permit, waiting in order for one."""
        with self._lock:
            if self._take_free():
                return
            waiter = _LoopWaiter(self, asyncio.get_running_loop())
            queue = self._returning if returning else self._arriving
            queue.append(waiter)
        try:
            await waiter.future
        except asyncio.CancelledError:
            if waiter.future.done() and not waiter.future.cancelled():
                self.release()  # handed over just as the waiter was cancelled: pass it on
            else:
                with self._lock, contextlib.suppress(ValueError):
                    queue.remove(waiter)  # not queued: a grant is on its way, and passes it on
            raise

    def take_here(self, timeout: float) -> bool:
        """In a thread: a permit, ahead of arrivals, waiting at most ``timeout`` s; whether."""
        with self._lock:
            if self._take_free():
                return True
            waiter = _ThreadWaiter()
            self._returning.append(waiter)
        if waiter.granted.wait(timeout):
            return True
        with self._lock:
            try:
                self._returning.remove(waiter)
            except ValueError:  # granted just as the wait ended
                return True
        return False

    def release(self) -> None:
        """From the loop or any thread: the permit to the next waiter, else free."""
        while True:
            with self._lock:
                queue = self._returning or self._arriving
                if not queue:
                    self._free += 1
                    return
                waiter = queue.popleft()
            if waiter.grant():
                return


class Permit:
    """One request's hold on the gate, lent and taken back by its Run, closed when the request's
    sync part has ended (whatever happened to the request meanwhile)."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.loop = asyncio.get_running_loop()  # where it was taken
        self.held = False
        self.closed = False

    async def take(self, *, returning: bool = False) -> None:
        await self.gate.acquire(returning=returning)
        self._took()

    def _took(self) -> None:
        if self.closed:  # the request ended while this waited
            self.gate.release()
        else:
            self.held = True

    async def take_back(self) -> None:
        """On the loop: take a permit again after lending it (ahead of arrivals), waiting at
        most the gate's ``wait_s``, then going on without one. The request holds a site thread
        meanwhile, and when Runs away at the sandbox hold every site thread, every permit can be
        held by requests waiting for a thread: waiting longer would wait for ever
        (docs/performance.md, "The site's gate")."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.gate.wait_s):
                await self.take(returning=True)

    def take_back_here(self) -> None:
        """``take_back`` in the request's thread, without a hop to the loop."""
        if not self.closed and self.gate.take_here(self.gate.wait_s):
            self._took()

    def give_back(self) -> None:
        if self.held:
            self.held = False
            self.gate.release()

    def close(self) -> None:
        self.closed = True
        self.give_back()


_permit: contextvars.ContextVar[Permit | None] = contextvars.ContextVar("permit", default=None)


async def through(gate: Gate | None, work: Callable[[], Awaitable[T]]) -> T:
    """``await work()`` (a request's hop to a site thread) holding a permit of ``gate``; ``Full``
    after ``gate.wait_s`` without one. If the request is cancelled while the thread works, the
    permit is kept until the thread is done."""
    if gate is None:
        return await work()
    permit = Permit(gate)
    try:
        async with asyncio.timeout(gate.wait_s):
            await permit.take()  # cancelled here: dropped unrun
    except TimeoutError:
        raise Full from None
    token = _permit.set(permit)  # seen by the thread and by what it hands to the loop
    try:
        running = asyncio.ensure_future(work())
    except BaseException:
        permit.close()
        raise
    finally:
        _permit.reset(token)
    running.add_done_callback(lambda _: permit.close())
    return await asyncio.shield(running)


@contextlib.asynccontextmanager
async def lent() -> AsyncIterator[None]:
    """On the loop, the current request's permit handed back for the block (a wait on the
    sandbox)."""
    permit = _permit.get()
    if permit is None or not permit.held:
        yield
        return
    permit.give_back()
    try:
        yield
    finally:
        if not permit.closed:
            await permit.take_back()


@contextlib.contextmanager
def outside() -> Iterator[None]:
    """In a request's thread, around a wait on something outside its own work (a server outside
    the node: an LMS; a Run's program in the sandbox): its permit is lent for the block, and
    taken back (ahead of arrivals) after it, in place. Elsewhere it does nothing."""
    permit = _permit.get()
    if permit is None or not permit.held or _on_loop(permit.loop):
        yield  # no request, an outer block lent it already, or on the loop (``lent``)
        return
    permit.give_back()
    try:
        yield
    finally:
        permit.take_back_here()


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class Lending:
    """A runner that lends the request's permit back while the sandbox runs its program: on the
    loop (``lent``), or in the request's thread when the tutor is driven there
    (``codeblanks.inline``, ``outside``)."""

    def __init__(self, runner: Runner) -> None:
        self._runner = runner

    @property
    def slots(self) -> int:
        return self._runner.slots

    async def arun_cases(self, request: RunRequest) -> list[RunResult]:
        if inline.on_loop():
            async with lent():
                return await self._runner.arun_cases(request)
        with outside():
            return await self._runner.arun_cases(request)


def from_settings() -> Gate | None:
    from django.conf import settings

    config = settings.CONFIG
    return Gate(config.site_permits, config.site_wait_s) if config.site_permits else None
