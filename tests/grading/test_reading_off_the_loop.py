"""The reference reads the lesson's programs, and a blank's answer is read, in a worker thread,
not on the event loop (eight 64 KiB programs once stalled /healthz for seconds). Proven
without timing: while the reading is held inside, a coroutine must still run on the loop; the
reading waits for it. On the loop, the wait could never end (it gives up after a long minute and
the test fails). A learner's short program is read in a thread too; a long one in a worker
process (test_reading_in_a_process.py and tests/web/test_grades_off_the_gil.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import threading

import pytest

from codeblanks.grading import acheck_blank, agrade

REFERENCE = importlib.import_module("codeblanks.grading.reference")
READING = importlib.import_module("codeblanks.grading.reading")

PATIENCE_S = 60.0  # only ever waited out when the reading blocks the loop


@pytest.mark.parametrize("module", [REFERENCE], ids=["reference"])
def test_the_loop_runs_while_a_program_is_read(softmax_lesson, monkeypatch, module):
    real = module.cases_for
    inside, probed = threading.Event(), threading.Event()
    waited: list[bool] = []

    def held(lesson, code):
        inside.set()
        waited.append(probed.wait(PATIENCE_S))
        return real(lesson, code)

    monkeypatch.setattr(module, "cases_for", held)
    lesson = dataclasses.replace(softmax_lesson, id=f"read-off-{module.__name__}", version="")
    long_program = lesson.exercise.solution + "".join(f"pad{i} = {i}\n" for i in range(6000))

    async def probe() -> None:
        while not inside.is_set():
            await asyncio.sleep(0.005)
        probed.set()  # this ran on the loop while the reading was held

    async def both():
        return await asyncio.gather(agrade(lesson, long_program), probe())

    g, _ = asyncio.run(both())
    assert waited and all(waited), "the program was read on the event loop"
    assert g.correct, g.feedback


def test_the_loop_runs_while_a_learners_short_program_is_read(softmax_lesson, monkeypatch):
    real = READING.cases_for
    inside, probed = threading.Event(), threading.Event()
    waited: list[bool] = []

    def held(lesson, code):
        inside.set()
        waited.append(probed.wait(PATIENCE_S))
        return real(lesson, code)

    monkeypatch.setattr(READING, "cases_for", held)
    lesson = dataclasses.replace(softmax_lesson, id="read-off-learner", version="")
    assert len(lesson.exercise.solution) <= READING.READ_HERE_CHARS

    async def probe() -> None:
        while not inside.is_set():
            await asyncio.sleep(0.005)
        probed.set()

    async def both():
        return await asyncio.gather(agrade(lesson, lesson.exercise.solution), probe())

    g, _ = asyncio.run(both())
    assert waited and all(waited), "the program was read on the event loop"
    assert g.correct, g.feedback


def test_the_loop_runs_while_a_blank_answer_is_read(qkv, monkeypatch):
    blanks = importlib.import_module("codeblanks.grading.blanks")
    real = blanks.fill
    inside, probed = threading.Event(), threading.Event()
    waited: list[bool] = []

    def held(question, answer):
        inside.set()
        waited.append(probed.wait(PATIENCE_S))
        return real(question, answer)

    monkeypatch.setattr(blanks, "fill", held)
    (question,) = [q for q in qkv.questions if q.id == "scores-line"]

    async def probe() -> None:
        while not inside.is_set():
            await asyncio.sleep(0.005)
        probed.set()

    async def both():
        return await asyncio.gather(acheck_blank(qkv, question, "K.T"), probe())

    verdict, _ = asyncio.run(both())
    assert waited and all(waited), "the answer was read on the event loop"
    assert verdict.correct, verdict
