"""Reading a learner's program before it runs: parsing it, making its cases (``cases_for``) and
finding what the task's rules look for (``rules.lesson_facts``).

Parsing and walking the tree is CPU work that holds the GIL for as long as the program is big:
in a thread of the web process, eight grades of a 64 KiB program at once stalled every other
request (/healthz) for seconds (security review S7). So a program past ``READ_HERE_CHARS`` is
read in a worker process (``codeblanks.sandbox.workers``), where it stalls nothing. A shorter one,
which is nearly every program a learner writes, is read in a thread of this process: its
reading holds the GIL for about as long as a page's rendering, where the hop to a worker cost
the node more CPU than the reading itself (docs/performance.md). The program's size is capped
before it gets here (``CODEBLANKS_MAX_CODE_BYTES``). A reading that fails (it raised, its worker
died, or it took longer than ``READ_S``) is the platform's failure, said as such, never the
learner's.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from codeblanks import inline
from codeblanks.content.model import Lesson
from codeblanks.grading.cases import Case, MissingInputs, cases_for
from codeblanks.grading.rules import Facts, lesson_facts, traced
from codeblanks.sandbox.workers import offload

log = logging.getLogger("codeblanks.grading")

# A program up to this long is read in a thread here; a longer one in a worker process. Measured
# on a 2-core VM: a built-in lesson's solution (about 1 KiB) reads in 0.2-2 ms, and the costliest
# shapes found for 2 KiB (a chain of 1,000 `+1`, of attributes, of calls, of comparisons) in
# 9-15 ms, about a long page's rendering; 4 KiB of them took up to 35 ms.
READ_HERE_CHARS = 2 * 1024

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
    """The reading itself (plain and picklable both ways, for a worker process)."""
    cases, missing = cases_for(lesson, code)
    found = lesson_facts(lesson, code)
    cases = traced(cases, lesson.exercise.filename, found.watch(lesson))
    return Reading(cases, missing, found)


async def aread(lesson: Lesson, code: str) -> Reading | None:
    """``read`` off the event loop: in a thread for a program up to ``READ_HERE_CHARS``, else in a
    worker process within ``READ_S``; None when that failed."""
    if len(code) > READ_HERE_CHARS:
        return await offload(read, lesson, code, timeout=READ_S)
    try:
        return await inline.call(read, lesson, code)
    except Exception:  # as in a worker: the platform's failure, for the caller to say so
        log.exception("reading a program failed")
        return None
