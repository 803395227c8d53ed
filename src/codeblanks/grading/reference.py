"""Reference results: what the sample solution and each anticipated mistake do on every case.

They depend only on the lesson, so they are computed once per lesson version (all runs at once)
and kept; grading a learner's program is then one parallel burst of the learner's own runs.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from codeblanks.content.model import Lesson, Mistake
from codeblanks.grading.cases import VISIBLE, Case, cases_for
from codeblanks.grading.counting import count_capture
from codeblanks.grading.functests import test_capture
from codeblanks.sandbox import RunLimits, RunResult
from codeblanks.sandbox.result import BUSY, MEMORY_LIMIT, SANDBOX_ERROR, TIMEOUT

log = logging.getLogger("codeblanks.grading")

PLATFORM_FAILURES = (BUSY, SANDBOX_ERROR)  # not the program's fault: never cached, never judged


def limits_for(lesson: Lesson) -> RunLimits:
    """The sandbox's default limits with the lesson's overrides."""
    lim = lesson.exercise.grading.limits
    base = RunLimits()
    return RunLimits(
        wall_s=lim.wall_s if lim.wall_s is not None else base.wall_s,
        cpu_s=lim.cpu_s if lim.cpu_s is not None else base.cpu_s,
        memory_mb=lim.memory_mb if lim.memory_mb is not None else base.memory_mb,
        output_bytes=lim.output_bytes if lim.output_bytes is not None else base.output_bytes,
    )


def in_flight(sandbox) -> int:
    """How many runs one batch (a reference, a proof) keeps in the sandbox at once: enough to
    fill every slot, well under the queue after which the sandbox answers ``busy``."""
    return 2 * max(1, int(getattr(sandbox, "slots", 1) or 1))


async def run_one(
    sandbox,
    code: str,
    *,
    filename: str,
    limits: RunLimits,
    capture: tuple[str, ...],
    gate: asyncio.Semaphore | None = None,
    patient: bool = False,
    client: str | None = None,
) -> RunResult:
    """One run, optionally through ``gate``; ``patient`` runs (reference results and proofs,
    which nobody waits on interactively) try again a few times while the sandbox is busy.
    ``client`` (a learner's session, an address) is whom the sandbox's fair share counts it to."""
    tries = 6 if patient else 1
    run = RunResult(SANDBOX_ERROR)
    for attempt in range(tries):
        try:
            kwargs = {"filename": filename, "limits": limits, "capture": capture, "client": client}
            if gate is None:
                run = await sandbox.arun(code, **kwargs)
            else:
                async with gate:
                    run = await sandbox.arun(code, **kwargs)
        except Exception:  # the sandbox promises values; a bug there must not reach learners
            log.exception("the sandbox raised instead of returning a RunResult")
            return RunResult(SANDBOX_ERROR)
        if run.verdict != BUSY:
            return run
        if attempt < tries - 1:
            await asyncio.sleep(0.05 * 2**attempt)
    return run


async def run_cases(
    sandbox,
    lesson: Lesson,
    cases: Iterable[Case],
    capture: tuple[str, ...] = (),
    *,
    gate: asyncio.Semaphore | None = None,
    patient: bool = False,
    client: str | None = None,
    stop: Callable[[int, RunResult], bool] | None = None,
) -> dict[str, RunResult]:
    """Run the cases, in order, in one sandbox child (``Sandbox.arun_cases``: one slot, one
    fork) until ``stop(index, run)`` says so after one (None: every case runs). A sandbox
    without ``arun_cases`` runs each case on its own (as far as ``gate`` lets them)."""
    cases = list(cases)
    if not cases:
        return {}
    how = {
        "filename": lesson.exercise.filename,
        "limits": limits_for(lesson),
        "capture": _capture(capture, test_capture(lesson), count_capture(lesson)),
        "client": client,
    }
    if getattr(sandbox, "arun_cases", None) is None:
        return await _one_by_one(sandbox, cases, stop, gate=gate, patient=patient, **how)
    codes = [c.code for c in cases]
    runs = [RunResult(SANDBOX_ERROR)]
    for attempt in range(6 if patient else 1):
        try:
            if gate is None:
                runs = await sandbox.arun_cases(codes, stop=stop or _every_case, **how)
            else:
                async with gate:
                    runs = await sandbox.arun_cases(codes, stop=stop or _every_case, **how)
        except Exception:  # the sandbox promises values; a bug there must not reach learners
            log.exception("the sandbox raised instead of returning RunResults")
            runs = [RunResult(SANDBOX_ERROR)]
            break
        runs = runs or [RunResult(SANDBOX_ERROR)]
        if runs[0].verdict != BUSY:
            break
        if attempt < 5:
            await asyncio.sleep(0.05 * 2**attempt)
    return {c.name: r for c, r in zip(cases, runs, strict=False)}


def _every_case(index: int, run: RunResult) -> bool:
    return False


async def _one_by_one(sandbox, cases: list[Case], stop, **how) -> dict[str, RunResult]:
    """Each case a run of its own: the first alone when ``stop`` may end the batch after it,
    then the others all at once (kept up to where ``stop`` would have ended them)."""
    first = cases[:1] if stop is not None else cases
    runs = list(await asyncio.gather(*(run_one(sandbox, c.code, **how) for c in first)))
    if stop is not None and not stop(0, runs[0]) and len(cases) > 1:
        runs += await asyncio.gather(*(run_one(sandbox, c.code, **how) for c in cases[1:]))
    kept = []
    for index, run in enumerate(runs):
        kept.append(run)
        if stop is not None and stop(index, run):
            break
    return {c.name: r for c, r in zip(cases, kept, strict=False)}


def _capture(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for group in groups for name in group))


@dataclass(frozen=True)
class Reference:
    expected: dict[str, str]  # case -> the output expected there (visible: expected.txt)
    solution: dict[str, RunResult]  # case -> the solution's run
    mistakes: tuple[tuple[Mistake, dict[str, RunResult]], ...]

    @property
    def platform_failure(self) -> RunResult | None:
        for runs in (self.solution, *(r for _, r in self.mistakes)):
            for run in runs.values():
                if run.verdict in PLATFORM_FAILURES:
                    return run
        return None

    @property
    def solution_failure(self) -> tuple[str, RunResult] | None:
        """The first case the sample solution did not succeed on, with its run. `codeblanks
        check` proves the solution succeeds everywhere, so on a node serving learners this is
        the moment's failure (a timeout or the memory limit under load), not the lesson's."""
        for case, run in self.solution.items():
            if not run.ok:
                return case, run
        return None

    @property
    def settled(self) -> bool:
        """Whether this reference may be kept: no run failed for a reason of the moment (the
        platform, or a time or memory limit the load may have caused)."""
        if self.platform_failure is not None or self.solution_failure is not None:
            return False
        return not any(r.verdict in MOMENTARY for _, runs in self.mistakes for r in runs.values())

    def trusted(self) -> Reference:
        """The reference a learner's program is judged against: without the anticipated
        mistakes whose runs hit a time or memory limit (perhaps only because of the load)."""
        mistakes = tuple(
            (m, runs)
            for m, runs in self.mistakes
            if not any(r.verdict in MOMENTARY for r in runs.values())
        )
        return self if mistakes == self.mistakes else replace(self, mistakes=mistakes)


MOMENTARY = (TIMEOUT, MEMORY_LIMIT)  # a reference run's failures the load may cause
_CACHE: OrderedDict[tuple, Any] = OrderedDict()
_CACHE_SIZE = 1024  # a lesson's reference, and one run per blank question and setup
_LOCK = threading.Lock()
_FAILED = [0]  # references a grade could not trust (counted for the operator's metrics)


def failed_references() -> int:
    """How many grades found the sample solution's run failed, since the process started: the
    web's metrics report it (``codeblanks_reference_failures_total``)."""
    with _LOCK:
        return _FAILED[0]


def reference_failed(lesson: Lesson, case: str, run: RunResult) -> None:
    """Tell the operator (a log line, the counter above) that a grade could not be judged
    because the sample solution's run did not succeed."""
    with _LOCK:
        _FAILED[0] += 1
    log.warning(
        "the reference of lesson %s (%s) failed on case %s (%s): not kept; the learner was "
        "asked to try again",
        lesson.id,
        lesson.language,
        case,
        run.verdict,
    )


def cache_key(lesson: Lesson) -> tuple[str, str, str]:
    """What a reference depends on: the lesson's version and its language. A translated lesson
    has its own (its programs may print translated words, and the mistakes it pairs with their
    runs speak its language), so a reference, and the messages it carries, is never served to
    a learner of another language."""
    if lesson.version:
        return lesson.id, lesson.version, lesson.language
    ex = lesson.exercise
    digest = hashlib.sha256(
        repr(
            (ex.filename, ex.solution, ex.expected_output, ex.output_graded, ex.grading, ex.tests)
        ).encode()
    ).hexdigest()
    return lesson.id, "sha256:" + digest, lesson.language


def clear_cache() -> None:
    with _LOCK:
        _CACHE.clear()


def recall(key: tuple) -> Any:
    """What ``keep`` kept under ``key`` (None: nothing, or forgotten since)."""
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
        return hit


def keep(key: tuple, value: Any) -> None:
    """The one cache of reference results (a lesson's ``Reference``, a blank answer's run),
    least recently used forgotten first. Only results that succeeded are given to it."""
    with _LOCK:
        _CACHE[key] = value
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)


async def areference(lesson: Lesson, sandbox, gate: asyncio.Semaphore | None = None) -> Reference:
    key = cache_key(lesson)
    if (hit := recall(key)) is not None:
        return hit
    ex = lesson.exercise
    capture = ex.grading.values
    programs = [ex.solution] + [m.code for m in ex.grading.mistakes]
    gate = gate or asyncio.Semaphore(in_flight(sandbox))
    # Off the event loop: the lesson's programs are parsed and their variants made once per
    # version, but a large lesson must not stall the pages meanwhile.
    cases = await asyncio.to_thread(lambda: [cases_for(lesson, code)[0] for code in programs])
    all_runs = await asyncio.gather(
        *(run_cases(sandbox, lesson, c, capture, gate=gate, patient=True) for c in cases)
    )
    solution = all_runs[0]
    expected = {
        name: (ex.expected_output if name == VISIBLE else run.stdout)
        for name, run in solution.items()
    }
    ref = Reference(
        expected=expected,
        solution=solution,
        mistakes=tuple(zip(ex.grading.mistakes, all_runs[1:], strict=True)),
    )
    if ref.settled:
        keep(key, ref)
    return ref
