"""Reading a learner's program before it runs: parsing it, making its cases (``cases_for``) and
finding what the task's rules look for (``rules.lesson_facts``), in a worker process
(``codeblanks.sandbox.workers``).

Parsing and walking the tree of a 64 KiB program is CPU work that holds the GIL: in a thread of
the web process, eight such grades at once stalled every other request (/healthz) for seconds
(security review S7). In a process of its own it stalls nothing. The program's size is capped
before it gets here (``CODEBLANKS_MAX_CODE_BYTES``). A reading that fails (its worker died, or it
took longer than ``READ_S``) is the platform's failure, said as such, never the learner's.
"""

from __future__ import annotations

from dataclasses import dataclass

from codeblanks.content.model import Lesson
from codeblanks.grading.cases import Case, MissingInputs, cases_for
from codeblanks.grading.rules import Facts, lesson_facts, traced
from codeblanks.sandbox.workers import offload

# The most a grade waits for its reading (a 64 KiB program takes well under a second): past it
# the learner is asked to try again, never judged on less.
READ_S = 30.0


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


async def aread(lesson: Lesson, code: str) -> Reading | None:
    """``read`` in a worker process, within ``READ_S``; None when that failed."""
    return await offload(read, lesson, code, timeout=READ_S)
