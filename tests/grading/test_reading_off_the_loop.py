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


def _held_while_the_loop_runs(monkeypatch, module, name: str, work):
    """``work()``'s result, with ``module.name`` held inside until a coroutine has run on the
    loop: on the loop, the hold could never end (it gives up after ``PATIENCE_S``)."""
    real = getattr(module, name)
    inside, probed = threading.Event(), threading.Event()
    waited: list[bool] = []

    def held(*args):
        inside.set()
        waited.append(probed.wait(PATIENCE_S))
        return real(*args)

    monkeypatch.setattr(module, name, held)

    async def probe() -> None:
        while not inside.is_set():
            await asyncio.sleep(0.005)
        probed.set()  # this ran on the loop while the reading was held

    async def both():
        return await asyncio.gather(work(), probe())

    result, _ = asyncio.run(both())
    assert waited and all(waited), "the reading ran on the event loop"
    return result


# The reference's programs, padded past any threshold; a learner's, short (a long one is read in
# a worker process, where this process's patch does not reach).
@pytest.mark.parametrize(
    ("module", "padding"), [(REFERENCE, 6000), (READING, 0)], ids=["reference", "learner"]
)
def test_the_loop_runs_while_a_program_is_read(softmax_lesson, monkeypatch, module, padding):
    lesson = dataclasses.replace(softmax_lesson, id=f"read-off-{module.__name__}", version="")
    program = lesson.exercise.solution + "".join(f"pad{i} = {i}\n" for i in range(padding))
    if module is READING:
        assert len(program) <= READING.READ_HERE_CHARS
    g = _held_while_the_loop_runs(monkeypatch, module, "cases_for", lambda: agrade(lesson, program))
    assert g.correct, g.feedback


def test_the_loop_runs_while_a_blank_answer_is_read(qkv, monkeypatch):
    blanks = importlib.import_module("codeblanks.grading.blanks")
    (question,) = [q for q in qkv.questions if q.id == "scores-line"]
    verdict = _held_while_the_loop_runs(
        monkeypatch, blanks, "fill", lambda: acheck_blank(qkv, question, "K.T")
    )
    assert verdict.correct, verdict
