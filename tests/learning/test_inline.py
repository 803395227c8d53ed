"""``codeblanks.inline``: the tutor's coroutine driven to its end on a thread without an event
loop, each blocking step done in place; one that would wait for a loop is refused, not left
half done. The tutor's run, driven, grades with the real sandbox on the caller's thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from codeblanks import inline
from codeblanks.content import load_courses
from codeblanks.learning import NoProgress, Tutor
from codeblanks.sandbox import get_sandbox

VALID = Path(__file__).parents[1] / "content" / "fixtures" / "valid"
(COURSE,), _ = load_courses([VALID])
(SUM,) = COURSE.lessons


def test_drive_returns_what_the_coroutine_returns():
    async def add(a, b):
        return a + await inline.call(lambda: b)

    assert inline.drive(add(2, 3)) == 5


def test_a_coroutine_that_waits_for_a_loop_is_closed_and_named():
    ended = []

    async def waits():
        try:
            await asyncio.sleep(0)  # hands control back to a loop: there is none
        finally:
            ended.append("finally")

    with pytest.raises(inline.Suspended, match="waits"):
        inline.drive(waits())
    assert ended == ["finally"]  # what it held was given back


def test_drive_is_refused_on_a_loop():
    async def nothing():
        return 1

    async def on_the_loop():
        with pytest.raises(RuntimeError, match="without an event loop"):
            inline.drive(nothing())

    asyncio.run(on_the_loop())


def test_a_step_runs_in_place_when_driven_and_off_the_loop_otherwise():
    async def where():
        return await inline.call(threading.get_ident)

    here = threading.get_ident()
    assert inline.drive(where()) == here
    assert asyncio.run(where()) != here  # asyncio.to_thread: a worker, not the loop's thread


def test_a_step_that_needs_a_loop_gets_one_when_driven():
    async def on_loop():
        await asyncio.sleep(0)
        return inline.on_loop()

    async def driven():
        return await inline.on_a_loop(on_loop)

    assert inline.drive(driven()) is True


def test_the_tutor_driven_grades_in_the_real_sandbox_on_this_thread():
    """The run's slot, the child's results and the judging all on the caller's thread: the
    sandbox tells its watchers where each run ended."""
    sandbox, seen = get_sandbox(), []

    def watch(result):
        seen.append(threading.get_ident())

    sandbox.watchers.append(watch)
    try:
        tutor = Tutor(NoProgress(), get_sandbox, "en")
        right = inline.drive(tutor.run(SUM, SUM.exercise.solution, "driven"))
        seen.clear()  # the first grade of a lesson also ran its reference (on a loop)
        wrong = inline.drive(tutor.run(SUM, SUM.exercise.solution.replace("a + b", "a * b"), "d"))
    finally:
        sandbox.watchers.remove(watch)
    assert right.grade is not None and right.grade.correct
    assert wrong.grade is not None and not wrong.grade.correct
    assert seen and set(seen) == {threading.get_ident()}


def test_a_long_program_driven_is_read_in_a_worker_process_and_graded():
    """Past ``READ_HERE_CHARS`` a program is read in a worker process (sandbox/workers.py):
    driven, the thread waits for that worker itself, with no loop to await it on."""
    from codeblanks.grading.reading import READ_HERE_CHARS

    long = SUM.exercise.solution + "\n# " + "x" * READ_HERE_CHARS + "\n"
    tutor = Tutor(NoProgress(), get_sandbox, "en")
    outcome = inline.drive(tutor.run(SUM, long, "driven"))
    assert outcome.grade is not None and outcome.grade.correct
