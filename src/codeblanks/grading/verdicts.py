"""The one vocabulary of verdicts: a grade's or a blank's ``verdict`` is one of these (a str
enum, so it is the same text in JSON and in the database), and each way a run can fail is
explained to the learner in one sentence, written here only."""

from __future__ import annotations

from enum import StrEnum

from codeblanks.sandbox.result import (
    BUSY,
    ERROR,
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    SANDBOX_ERROR,
    TIMEOUT,
    RunLimits,
)


class Verdict(StrEnum):
    CORRECT = "correct"
    INCORRECT = "incorrect"
    ERROR = ERROR  # the program raised, exited non-zero or was killed
    TIMEOUT = TIMEOUT
    MEMORY_LIMIT = MEMORY_LIMIT
    OUTPUT_LIMIT = OUTPUT_LIMIT
    BUSY = BUSY  # the platform: too many programs at once, try again
    SANDBOX_ERROR = SANDBOX_ERROR  # the platform failed, not the program

    @property
    def platform(self) -> bool:
        """Not the learner's doing: never judged, never cached."""
        return self in (Verdict.BUSY, Verdict.SANDBOX_ERROR)

    def failure(self, limits: RunLimits) -> str:
        """The sentence that tells the learner how their run failed (``""`` for a judgement)."""
        if self is Verdict.TIMEOUT:
            return (
                f"Your program ran out of time (the limit is {limits.wall_s:g} s): "
                "is there a loop that never ends?"
            )
        if self is Verdict.MEMORY_LIMIT:
            return (
                f"Your program used more than {limits.memory_mb} MB of memory: "
                "is an array far larger than it needs to be?"
            )
        if self is Verdict.OUTPUT_LIMIT:
            return (
                f"Your program printed more than {limits.output_bytes // 1024} KB, far too much: "
                "print only what the task asks for."
            )
        if self.platform:
            return (
                "The sandbox could not run your program just now; nothing is wrong with it. "
                "Please try again."
            )
        if self is Verdict.ERROR:
            return "Your program stopped with an error."
        return ""
