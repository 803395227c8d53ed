"""SharedRuns (grading/shared.py): a batch a proof asks for again is answered from the one run,
exactly as the sandbox would answer it, and only when the run ended for the program's reasons."""

from __future__ import annotations

import asyncio

from codeblanks.grading.shared import SharedRuns
from codeblanks.sandbox import RunLimits
from codeblanks.sandbox.result import RunRequest
from codeblanks.sandbox.testing import CountedCases, FakeRunner

CASES = ("print(1)", "raise ValueError('two')", "print(3)")


def _every_case(index, run) -> bool:
    return False


def _seen(runs) -> list[tuple[str, str]]:
    return [(r.verdict, r.stdout) for r in runs]


async def _asked(runner, *requests):
    return [await runner.arun_cases(r) for r in requests]


def test_a_stopped_batch_is_read_from_the_every_case_one(sandbox):
    counted = CountedCases(sandbox)
    every = RunRequest(CASES, stop=_every_case)
    stopped = RunRequest(CASES)  # the sandbox's default: at the first failing case
    full, prefix = asyncio.run(_asked(SharedRuns(counted), every, stopped))
    assert counted.reported == 3
    assert [r.verdict for r in full] == ["ok", "error", "ok"]
    alone = asyncio.run(sandbox.arun_cases(stopped))
    assert _seen(prefix) == _seen(alone) == [("ok", "1\n"), ("error", "")]


def test_a_batch_asked_twice_at_once_runs_once(sandbox):
    counted = CountedCases(sandbox)
    runner = SharedRuns(counted)
    request = RunRequest(CASES, stop=_every_case)

    async def both():
        return await asyncio.gather(runner.arun_cases(request), runner.arun_cases(request))

    first, second = asyncio.run(both())
    assert counted.reported == 3
    assert _seen(first) == _seen(second)


def test_a_stopped_batch_does_not_answer_a_longer_one(sandbox):
    counted = CountedCases(sandbox)
    runner = SharedRuns(counted)
    stopped, every = RunRequest(CASES), RunRequest(CASES, stop=_every_case)
    prefix, full, *again = asyncio.run(_asked(runner, stopped, every, stopped, every))
    assert (len(prefix), len(full)) == (2, 3)
    # The longer run is kept from then on: it answers both.
    assert counted.reported == 5
    assert [_seen(r) for r in again] == [_seen(prefix), _seen(full)]


def test_a_run_the_load_may_have_ended_is_run_again(sandbox):
    counted = CountedCases(sandbox)
    looping = RunRequest(("while True: pass",), limits=RunLimits(wall_s=2.0, cpu_s=0.2))
    first, second = asyncio.run(_asked(SharedRuns(counted), looping, looping))
    assert first[0].verdict == second[0].verdict == "timeout"
    assert counted.reported == 2


def test_a_batch_whose_sandbox_raised_is_run_again_for_the_one_waiting_on_it(sandbox):
    """The first asker gets the sandbox's exception; the one waiting on that run asks again."""
    asked = []

    async def answer(request):
        asked.append(request)
        if len(asked) == 1:
            raise RuntimeError("broken sandbox")
        return await sandbox.arun_cases(request)

    runner = SharedRuns(FakeRunner(answer))
    request = RunRequest(CASES, stop=_every_case)

    async def both():
        return await asyncio.gather(
            runner.arun_cases(request), runner.arun_cases(request), return_exceptions=True
        )

    first, second = asyncio.run(both())
    assert isinstance(first, RuntimeError)
    assert [r.verdict for r in second] == ["ok", "error", "ok"] and len(asked) == 2
