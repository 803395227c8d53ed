"""Coroutines driven to their end on a thread of their own, without an event loop.

The learning core is written once, async (``learning.tutor``), for every door. On the event loop
each blocking step it reaches (a database write, reading the program, the sandbox's run, the
judge) is handed to a thread and back: a hand-off costs a wake-up of the loop or of a thread,
and a page's Run makes a dozen (docs/performance.md, "The Run on one thread"). A door that is
already on a thread of its own (the lesson page's Run, in a site thread) drives the same
coroutine here instead, with ``drive``: there is no running loop, so each of those steps does its
work in place (``call``), and the coroutine never waits for anything. A step that must have a
loop (the lesson's first reference, which runs many programs at once) goes to one with
``on_a_loop``.

Imports no layer: every layer may use it (docs/architecture.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

T = TypeVar("T")
P = ParamSpec("P")


class Suspended(RuntimeError):
    """A coroutine driven by ``drive`` waited for something only an event loop delivers."""


def on_loop() -> bool:
    """Whether an event loop runs this thread's code (else: driven by ``drive``, or plain)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def drive(coro: Coroutine[Any, Any, T]) -> T:
    """``coro``'s result, run to its end on this thread, which runs no event loop. Every step
    it reaches must finish in place (``call``); one that suspends is closed and ``Suspended``
    raised, never left half done."""
    if on_loop():
        coro.close()
        raise RuntimeError("drive() is for a thread without an event loop")
    try:
        coro.send(None)
    except StopIteration as end:
        return end.value
    coro.close()  # runs its ``finally`` blocks: what it held is given back
    raise Suspended(f"{getattr(coro, '__qualname__', coro)} waited for an event loop")


async def call(
    func: Callable[P, T],
    /,
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """``func(*args, **kwargs)``, which blocks: in a worker thread when awaited on the loop
    (``asyncio.to_thread``), in place when driven."""
    if on_loop():
        return await asyncio.to_thread(func, *args, **kwargs)
    return func(*args, **kwargs)


async def hop(
    through: Callable[[Callable[..., T]], Callable[..., Awaitable[T]]],
    func: Callable[..., T],
    /,
    *args: Any,
    **kwargs: Any,
) -> T:
    """``call`` with the loop's hand-off chosen by the caller: ``through(func)`` makes the
    awaitable (asgiref's ``sync_to_async``, so that database work goes to the request's own
    thread). Driven, ``func`` runs in place: that is the request's own thread."""
    if on_loop():
        return await through(func)(*args, **kwargs)
    return func(*args, **kwargs)


async def on_a_loop(
    func: Callable[P, Coroutine[Any, Any, T]], *args: P.args, **kwargs: P.kwargs
) -> T:
    """``await func(...)`` on an event loop: this one, or (driven) the loop of the thread that
    handed this one its work (asgiref's ``async_to_sync``: the server's loop for a site
    thread), or a new one."""
    if on_loop():
        return await func(*args, **kwargs)
    from asgiref.sync import async_to_sync

    return async_to_sync(func)(*args, **kwargs)
