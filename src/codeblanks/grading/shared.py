"""One proof run asks the sandbox for the same batch many times: a mistake runs in the reference
on every case and again as a learner's program, and a translation's programs are mostly the
very programs of its original. ``SharedRuns`` runs each batch once per ``aprove_all``.

A batch's cases run in order in one child and a ``stop`` is asked only after a case, so what a
batch with a stop returns is the prefix of the every-case batch that ends where that stop says:
the longer batch answers the shorter one. Only runs that ended for the program's own reasons are
shared; a platform failure, a busy queue, a time or memory limit (the load may cause those) or
a sandbox that raised is run again for whoever asks next, as it would be without sharing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from dataclasses import dataclass

from codeblanks.grading.reference import MOMENTARY
from codeblanks.grading.verdicts import platform_failed
from codeblanks.sandbox.execute import stop_at_failure
from codeblanks.sandbox.result import BUSY, Runner, RunRequest, RunResult, Stop


def _key(request: RunRequest) -> Hashable:
    """What a batch's outcomes depend on, its ``stop`` aside."""
    return (
        request.codes,
        request.filename,
        request.limits,
        request.capture,
        request.client,
        request.stdins,
    )


def _shareable(runs: list[RunResult]) -> bool:
    return not any(platform_failed(r) or r.verdict in (BUSY, *MOMENTARY) for r in runs)


def _answered(request: RunRequest, runs: list[RunResult]) -> list[RunResult] | None:
    """What ``request`` would have returned, read from ``runs`` (a batch of the same cases run
    until its own stop), or None when ``runs`` ended before ``request``'s stop would."""
    stop: Stop = request.stop or stop_at_failure
    for index, run in enumerate(runs):
        if stop(index, run):
            return runs[: index + 1]
    return list(runs) if len(runs) == len(request.codes) else None


@dataclass
class SharedRuns:
    """A ``Runner`` that hands a batch it has run (or is running) to whoever asks for it again."""

    inner: Runner

    def __post_init__(self) -> None:
        self._runs: dict[Hashable, asyncio.Task[list[RunResult]]] = {}

    @property
    def slots(self) -> int:
        return self.inner.slots

    async def arun_cases(self, request: RunRequest) -> list[RunResult]:
        key = _key(request)
        if (known := self._runs.get(key)) is not None:
            try:
                runs = await asyncio.shield(known)
            except Exception:  # the sandbox raised for its asker: this one asks it again
                runs = []
            if _shareable(runs) and (found := _answered(request, runs)) is not None:
                return found
        task = asyncio.ensure_future(self.inner.arun_cases(request))
        self._runs.setdefault(key, task)
        try:
            runs = await asyncio.shield(task)
        except Exception:
            self._forget(key, task)
            raise
        if not _shareable(runs):
            self._forget(key, task)
        elif self._longer(key, runs):
            self._runs[key] = task
        return runs

    def _forget(self, key: Hashable, task: asyncio.Task[list[RunResult]]) -> None:
        if self._runs.get(key) is task:
            del self._runs[key]

    def _longer(self, key: Hashable, runs: list[RunResult]) -> bool:
        """Whether ``runs`` answer more than what is kept under ``key`` (the longer is kept)."""
        kept = self._runs.get(key)
        if kept is None:
            return True
        if not kept.done():
            return False
        if kept.cancelled() or kept.exception() is not None:
            return True
        return len(kept.result()) < len(runs)


def shared(runner: Runner) -> SharedRuns:
    """``runner`` as a ``SharedRuns`` (itself if it is one already)."""
    return runner if isinstance(runner, SharedRuns) else SharedRuns(runner)
