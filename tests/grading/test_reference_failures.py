"""A reference run that did not succeed: the sample solution failed for a reason of
the moment (a timeout or the memory limit on a loaded node, modelled here by a solution that
always fails so in the real sandbox). It must be neither kept nor judged against: before, it
was cached and a program that only prints the expected output was graded correct."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from codeblanks.content.model import Limits
from codeblanks.grading import check_blank, grade, reference
from codeblanks.grading.reference import cache_key

from .grading_helpers import blank

FAILING = {
    "timeout": "import numpy as np\nS = np.ones((3, 3))\nwhile True:\n    pass\n",
    "memory-limit": "import numpy as np\nS = np.ones((3, 3))\nhuge = bytearray(1 << 40)\n",
    "error": "import numpy as np\nS = np.ones((3, 3))\nraise RuntimeError('the node is loaded')\n",
}


def _failing(lesson, how: str):
    # Half a CPU second stops the looping solution; the wall limit stays generous.
    grading = dataclasses.replace(lesson.exercise.grading, limits=Limits(cpu_s=0.5, wall_s=30))
    ex = dataclasses.replace(lesson.exercise, solution=FAILING[how], grading=grading)
    return dataclasses.replace(lesson, exercise=ex, id=f"failing-{how}", version="")


@pytest.mark.parametrize("how", sorted(FAILING))
def test_a_failed_reference_is_neither_kept_nor_judged_against(softmax_lesson, how, caplog):
    lesson = _failing(softmax_lesson, how)
    printed = f"S = 0\nprint({lesson.exercise.expected_output.rstrip()!r})\n"
    before = reference.failed_references()
    with caplog.at_level(logging.WARNING, logger="codeblanks.grading"):
        first = grade(lesson, printed)
        second = grade(lesson, printed)
    for g in (first, second):
        assert g.verdict == "sandbox-error", (g.verdict, g.feedback)
        assert not g.correct
        assert g.feedback == (
            "The platform could not check your program just now; nothing is known to be "
            "wrong with it. Please try again.",
        )
    assert cache_key(lesson) not in reference._CACHE
    assert reference.failed_references() == before + 2
    logged = [r.getMessage() for r in caplog.records if "reference" in r.getMessage()]
    assert len(logged) == 2 and lesson.id in logged[0] and how in logged[0], logged


def test_the_working_reference_is_kept(softmax_lesson):
    reference.clear_cache()
    assert grade(softmax_lesson, softmax_lesson.exercise.solution).correct
    assert cache_key(softmax_lesson) in reference._CACHE


def test_a_blank_whose_reference_answer_hit_a_limit_is_not_judged_nor_kept(softmax_lesson):
    """The blanks' reference runs live in the same cache, under the same rule."""
    q = blank("x = ____", "len(bytearray(1 << 40))", setup="", id="loaded")
    before = reference.failed_references()
    for _ in range(2):
        v = check_blank(softmax_lesson, q, "3")
        assert v.verdict == "sandbox-error" and not v.correct, v
        assert v.message == "The sandbox could not check your answer just now. Please try again."
    assert reference.failed_references() == before + 2
    assert not [k for k in reference._CACHE if "loaded" in k]
    ok = blank("x = ____", "1 + 2", setup="", id="settled")
    assert check_blank(softmax_lesson, ok, "3").correct
    assert [k for k in reference._CACHE if "settled" in k]
