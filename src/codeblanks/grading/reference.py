"""Reference results: what the sample solution and each anticipated mistake do on every case.

They depend only on the lesson, so they are computed once per lesson version (the solution and
each mistake a batch of its own, the batches at once) and kept; grading a learner's program is
then one batch of the learner's own runs: its cases in one sandbox child, in order.

Every run goes through a ``Runner`` (``codeblanks.sandbox.result``): the real sandbox, or a test
double implementing the same Protocol. Nothing here asks a runner what it can do.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from codeblanks.content.model import Lesson, Mistake
from codeblanks.grading.cases import VISIBLE, Case, cases_for
from codeblanks.grading.counting import count_capture
from codeblanks.grading.functests import test_capture
from codeblanks.grading.inputs import setup_cases
from codeblanks.grading.verdicts import platform_failed
from codeblanks.sandbox import RunLimits, RunResult
from codeblanks.sandbox.result import (
    BUSY,
    MEMORY_LIMIT,
    SANDBOX_ERROR,
    TIMEOUT,
    Runner,
    RunRequest,
    Stop,
)

log = logging.getLogger("codeblanks.grading")

# A patient run (a reference, a proof) has this many times its lesson's wall clock. Nobody waits
# on it, and on a loaded machine (a proof beside the whole suite, a node under a crowd) a program
# that needs 0.2 s of CPU can wait seconds for a core: its verdict must not depend on that. The
# CPU limit is the lesson's own, so an endless loop still ends as it does for a learner, and the
# words a learner reads quote the lesson's limits (``limits_for``), never these.
PATIENT_WALL = 4


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


def in_flight(runner: Runner) -> int:
    """How many runs one batch (a reference, a proof) keeps in the sandbox at once: enough to
    fill every slot, well under the queue after which the sandbox answers ``busy``."""
    return 2 * max(1, runner.slots)


async def _patiently(
    runner: Runner, request: RunRequest, gate: asyncio.Semaphore | None, patient: bool
) -> list[RunResult]:
    """``runner.arun_cases(request)`` through ``gate``; ``patient`` batches (reference results
    and proofs, which nobody waits on interactively) try again a few times while the sandbox is
    busy, under a longer wall clock (``PATIENT_WALL``). A runner that raises is a
    ``sandbox-error``: the sandbox promises values, and a bug there must not reach learners."""
    tries = 6 if patient else 1
    if patient:
        request = replace(
            request, limits=replace(request.limits, wall_s=request.limits.wall_s * PATIENT_WALL)
        )
    runs = [RunResult(SANDBOX_ERROR)]
    for attempt in range(tries):
        try:
            if gate is None:
                runs = await runner.arun_cases(request)
            else:
                async with gate:
                    runs = await runner.arun_cases(request)
        except Exception:
            log.exception("the sandbox raised instead of returning RunResults")
            return [RunResult(SANDBOX_ERROR)]
        runs = runs or [RunResult(SANDBOX_ERROR)]
        if runs[0].verdict != BUSY:
            return runs
        if attempt < tries - 1:
            await asyncio.sleep(0.05 * 2**attempt)
    return runs


async def run_one(
    runner: Runner,
    code: str,
    *,
    filename: str,
    limits: RunLimits,
    capture: tuple[str, ...],
    gate: asyncio.Semaphore | None = None,
    patient: bool = False,
    client: str | None = None,
    stdin: str = "",
) -> RunResult:
    """One run, optionally through ``gate`` (``patient``: see ``_patiently``). ``client`` (a
    learner's session, an address) is whom the sandbox's fair share counts it to; ``stdin``
    what the program reads as its standard input."""
    given = (stdin,) if stdin else ()
    request = RunRequest((code,), filename, limits, capture, client, stdins=given)
    return (await _patiently(runner, request, gate, patient))[0]


async def run_cases(
    runner: Runner,
    lesson: Lesson,
    cases: Iterable[Case],
    capture: tuple[str, ...] = (),
    *,
    gate: asyncio.Semaphore | None = None,
    patient: bool = False,
    client: str | None = None,
    stop: Stop | None = None,
) -> dict[str, RunResult]:
    """Run the cases, in order, in one sandbox child (``Runner.arun_cases``: one slot, one
    fork) until ``stop(index, run)`` says so after one (None: every case runs)."""
    cases = list(cases)
    if not cases:
        return {}
    request = RunRequest(
        codes=tuple(c.code for c in cases),
        filename=lesson.exercise.filename,
        limits=limits_for(lesson),
        capture=_capture(capture, test_capture(lesson), count_capture(lesson)),
        client=client,
        stop=stop or _every_case,
        stdins=tuple(c.stdin for c in cases) if any(c.stdin for c in cases) else (),
    )
    runs = await _patiently(runner, request, gate, patient)
    return {c.name: r for c, r in zip(cases, runs, strict=False)}


def _every_case(index: int, run: RunResult) -> bool:
    return False


def _capture(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for group in groups for name in group))


@dataclass(frozen=True)
class Reference:
    expected: dict[str, str]  # case -> the output expected there (visible: expected.txt)
    solution: dict[str, RunResult]  # case -> the solution's run
    mistakes: tuple[tuple[Mistake, dict[str, RunResult]], ...]
    # hidden case -> what its inputs hold (``inputs.setup_cases``), for the verdict's words
    inputs: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def platform_failure(self) -> RunResult | None:
        for runs in (self.solution, *(r for _, r in self.mistakes)):
            for run in runs.values():
                if platform_failed(run):
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
_CACHE: OrderedDict[tuple[str, ...], Reference | RunResult] = OrderedDict()
_CACHE_SIZE = 1024  # a lesson's reference, and one run per blank question and setup
_LOCK = threading.Lock()
_FAILED = [0]  # references a grade could not trust, in this process
# Called once for each such grade, in the process that graded it: the web's metrics count them
# there (``codeblanks_reference_failures_total``), so that a node of several web processes sums
# its workers' counts the way it sums their requests.
FAILURE_WATCHERS: list[Callable[[], None]] = []


def failed_references() -> int:
    """How many grades found the sample solution's run failed, since this process started."""
    with _LOCK:
        return _FAILED[0]


def reference_failed(lesson: Lesson, case: str, run: RunResult) -> None:
    """Tell the operator (a log line, the counter above, the watchers) that a grade could not
    be judged because the sample solution's run did not succeed."""
    with _LOCK:
        _FAILED[0] += 1
    for watcher in FAILURE_WATCHERS:
        watcher()
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


def recall(key: tuple[str, ...]) -> Reference | RunResult | None:
    """What ``keep`` kept under ``key`` (None: nothing, or forgotten since)."""
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
        return hit


def keep(key: tuple[str, ...], value: Reference | RunResult) -> None:
    """The one cache of reference results (a lesson's ``Reference``, a blank answer's run),
    least recently used forgotten first. Only results that succeeded are given to it."""
    with _LOCK:
        _CACHE[key] = value
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)


def kept_reference(lesson: Lesson) -> Reference | None:
    """The lesson's reference if it is kept already (nearly every grade), else None."""
    hit = recall(cache_key(lesson))
    return hit if isinstance(hit, Reference) else None


async def areference(
    lesson: Lesson, sandbox: Runner, gate: asyncio.Semaphore | None = None
) -> Reference:
    key = cache_key(lesson)
    if isinstance(hit := recall(key), Reference):
        return hit
    ex = lesson.exercise
    capture = ex.grading.values
    programs = [ex.solution] + [m.code for m in ex.grading.mistakes]
    gate = gate or asyncio.Semaphore(in_flight(sandbox))
    # Off the event loop: the lesson's programs are parsed and their variants made once per
    # version, but a large lesson must not stall the pages meanwhile.
    cases = await asyncio.to_thread(lambda: [cases_for(lesson, code)[0] for code in programs])
    setups = await asyncio.to_thread(setup_cases, lesson)
    inputs = ex.grading.inputs
    *all_runs, built = await asyncio.gather(
        *(run_cases(sandbox, lesson, c, capture, gate=gate, patient=True) for c in cases),
        run_cases(sandbox, lesson, setups, inputs, gate=gate, patient=True),
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
        inputs={name: run.values for name, run in built.items() if run.ok},
    )
    # Only the words of a failing case depend on ``built``: a run of it the moment spoilt
    # leaves this reference unkept, so that the next grade tries again.
    momentary = any(platform_failed(r) or r.verdict in MOMENTARY for r in built.values())
    if ref.settled and not momentary:
        keep(key, ref)
    return ref
