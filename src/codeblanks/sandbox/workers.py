"""A small pool of worker processes for the trusted side's own CPU-bound work (reading a
learner's long program: ``grading/reading.py``; judging one: ``grading/grade.py`` ``ajudge``),
off the web process's GIL.

Only trusted code runs here: functions of CodeBlanks, on data it checked (a program's text is
parsed, never run). The pool is started on first use, from a fork server (never a fork of the
threaded web process), with a few workers. Work that fails (it raised, its worker died, or it
took longer than its time) gives None, for the caller to say as the platform's failure; a pool
whose worker was too slow or died is left to finish and end, and the next call starts a new
one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from typing import Any, TypeVar

from codeblanks import inline
from codeblanks.sandbox.cores import NODE_CPUS

log = logging.getLogger("codeblanks.sandbox")
T = TypeVar("T")

# Work at once: each piece is short, and the cores are the sandbox runs' first (two at least, so
# that one piece stuck until its time is up does not hold up all the others).
WORKERS = max(2, min(4, (os.cpu_count() or 1) // 2))

# The workers' niceness, added to the web process's: under CPU contention its event loop (every
# request's latency) and the sandbox's runs come before a reading.
NICENESS = 5


def _start_worker(niceness: int, cpus: list[int]) -> None:
    """In each worker as it starts: below the web process in the queue for a core, and on every
    core the node was given (its fork server was started by the web process, whose threads may
    be held on one: web/door/cpus.py)."""
    os.nice(niceness)
    with contextlib.suppress(OSError):  # none of them left (a shrunk cpuset): those it has
        os.sched_setaffinity(0, cpus)


_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def pool(preload: str | None = None) -> ProcessPoolExecutor:
    """The pool, started on first use; its fork server imports ``preload`` (a module name) once
    for every worker, rather than the web process's __main__ (the default)."""
    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("forkserver")
            if preload:
                context.set_forkserver_preload([preload])
            _pool = ProcessPoolExecutor(
                WORKERS,
                mp_context=context,
                initializer=_start_worker,
                initargs=(NICENESS, sorted(NODE_CPUS)),
            )
        return _pool


def end() -> None:
    """Before a process leaves with ``os._exit`` (a web worker, door/workers.py): kill the
    pool's processes, since nothing else will. Each holds its fork server's pipe open, so
    both would outlive the process for good. They are this process's only ``multiprocessing``
    children, so ``active_children`` finds them without the executor's private table."""
    global _pool
    with _lock:
        _pool = None
    for child in multiprocessing.active_children():
        child.kill()


def _discard(stopped: ProcessPoolExecutor) -> None:
    """Stop using a pool whose work ran past its time or whose worker died; the next call
    starts a new one. Its workers are not killed: they run trusted code on bounded input, so
    they finish their piece and exit, whereas a worker killed while it writes its reply leaves
    the pool's result pipe holding half a message, which its manager thread then waits on for
    good (seen as a hang at exit). Work queued there and not started is cancelled."""
    global _pool
    with _lock:
        if _pool is stopped:
            _pool = None
    stopped.shutdown(wait=False, cancel_futures=True)


def _submit(
    fn: Callable[..., T], args: tuple[Any, ...]
) -> tuple[ProcessPoolExecutor, Future[T]] | None:
    """``fn(*args)`` started in the pool: in a new pool if this one broke while idle (a worker
    killed between calls); None if that fails too."""
    for _attempt in range(2):
        current = pool(fn.__module__)
        try:
            return current, current.submit(fn, *args)
        except BrokenExecutor:
            _discard(current)
        except RuntimeError:  # another call's failure stopped this pool a moment ago
            pass
    return None


async def offload(fn: Callable[..., T], *args: Any, timeout: float) -> T | None:
    """``fn(*args)`` in a worker process (``fn`` and its arguments picklable), within
    ``timeout`` seconds; None when the pool failed at it (its worker died or hangs)."""
    if (started := _submit(fn, args)) is None:
        return None
    current, future = started
    try:
        if not inline.on_loop():  # driven on a thread of its own: wait here
            return future.result(timeout)
        return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
    except TimeoutError:
        log.warning("%s took over %g s in a worker process", fn.__qualname__, timeout)
    except BrokenExecutor:
        log.warning("the worker process running %s died", fn.__qualname__)
    except Exception:  # the work's own failure: the worker is fine, the caller says so
        log.exception("%s failed in a worker process", fn.__qualname__)
        return None
    _discard(current)
    return None
