"""Reading a learner's program before it runs: parsing it, making its cases (``cases_for``) and
finding what the task's rules look for (``rules.lesson_facts``), in a small pool of worker
processes.

Parsing and walking the tree of a 64 KiB program is CPU work that holds the GIL: in a thread of
the web process, eight such grades at once stalled every other request (/healthz) for seconds
(security review S7). In a process of its own it stalls nothing. The pool is started on the
first grade, from a fork server (never a fork of the threaded web process), with a few workers;
the program's size is capped before it gets here (``CODEBLANKS_MAX_CODE_BYTES``). A reading that
fails (its worker died, or it took longer than ``READ_S``) is the platform's failure, said as
such, never the learner's.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from dataclasses import dataclass

from codeblanks.content.model import Lesson
from codeblanks.grading.cases import Case, MissingInputs, cases_for
from codeblanks.grading.rules import Facts, lesson_facts, traced

log = logging.getLogger("codeblanks.grading")

# The most a grade waits for its reading (a 64 KiB program takes well under a second): past it
# the learner is asked to try again, never judged on less.
READ_S = 30.0
# Readings at once: each is short, and the cores are the sandbox's first.
WORKERS = max(1, min(4, (os.cpu_count() or 1) // 2))


@dataclass(frozen=True)
class Reading:
    """A program read: its cases (traced where a rule requires a construct to run), the inputs
    it does not assign, and what the rules read in it."""

    cases: list[Case]
    missing: MissingInputs | None
    facts: Facts


def read(lesson: Lesson, code: str) -> Reading:
    """The reading itself (in a worker process; plain and picklable both ways)."""
    cases, missing = cases_for(lesson, code)
    found = lesson_facts(lesson, code)
    cases = traced(cases, lesson.exercise.filename, found.watch(lesson))
    return Reading(cases, missing, found)


_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def _executor() -> ProcessPoolExecutor:
    """The pool, started on first use."""
    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("forkserver")
            # The workers need the grading modules, imported once in the fork server, not the
            # web process's __main__ (the default).
            context.set_forkserver_preload([__name__])
            _pool = ProcessPoolExecutor(WORKERS, mp_context=context)
        return _pool


def _discard(pool: ProcessPoolExecutor) -> None:
    """Stop a pool whose worker hangs or died; the next reading starts a new one. (Readings in
    flight there fail as platform errors: rare, and better than a worker stuck for good.)"""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    # The executor has no public way to end a busy worker.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def _submit(lesson: Lesson, code: str) -> tuple[ProcessPoolExecutor, Future[Reading]] | None:
    """The reading, started in the pool: in a new pool if this one broke while idle (a worker
    killed between readings); None if that fails too."""
    for _attempt in range(2):
        pool = _executor()
        try:
            return pool, pool.submit(read, lesson, code)
        except BrokenExecutor:
            _discard(pool)
        except RuntimeError:  # another grade's failure stopped this pool a moment ago
            pass
    return None


async def aread(lesson: Lesson, code: str, timeout: float | None = None) -> Reading | None:
    """``read`` in the pool, within ``timeout`` (None: ``READ_S``); None when the pool failed
    at it (its worker died or hangs: that pool is stopped)."""
    limit = READ_S if timeout is None else timeout
    if (started := _submit(lesson, code)) is None:
        return None
    pool, future = started
    try:
        return await asyncio.wait_for(asyncio.wrap_future(future), limit)
    except TimeoutError:
        log.warning("reading a program of %d characters took over %g s", len(code), limit)
    except BrokenExecutor:
        log.warning("the worker reading a program of %d characters died", len(code))
    _discard(pool)
    return None
