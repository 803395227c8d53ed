"""The one vocabulary of verdicts: a grade's or a blank's ``verdict`` is one of these (a str
enum, so it is the same text in JSON and in the database), and each way a run can fail is
explained to the learner in one sentence, written here only (in the current language:
``codeblanks.i18n``)."""

from __future__ import annotations

from enum import StrEnum

from codeblanks.i18n import gettext as _
from codeblanks.i18n import pgettext
from codeblanks.sandbox.result import (
    BUSY,
    ERROR,
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    SANDBOX_ERROR,
    TIMEOUT,
    RunLimits,
    RunResult,
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

    def label(self) -> str:
        """The verdict as a word for the learner, in the current language."""
        labels = {
            Verdict.CORRECT: pgettext("verdict", "correct"),
            Verdict.INCORRECT: pgettext("verdict", "incorrect"),
            Verdict.ERROR: pgettext("verdict", "error"),
            Verdict.TIMEOUT: pgettext("verdict", "timeout"),
            Verdict.MEMORY_LIMIT: pgettext("verdict", "memory limit"),
            Verdict.OUTPUT_LIMIT: pgettext("verdict", "output limit"),
            Verdict.BUSY: pgettext("verdict", "busy"),
            Verdict.SANDBOX_ERROR: pgettext("verdict", "sandbox error"),
        }
        return labels[self]

    @classmethod
    def label_of(cls, word: str) -> str:
        """A stored or received verdict word for the reader (the word itself when no grader
        of ours says it: a row from an older version, a server's answer)."""
        try:
            return cls(word).label()
        except ValueError:
            return word

    @classmethod
    def of(cls, run: RunResult) -> Verdict:
        """How a run that failed ended, as a verdict: the sandbox's words for a failure are ours
        too. (A run that ended normally, ``ok``, is judged rather than named: ValueError.)"""
        return cls(run.verdict)

    @property
    def platform(self) -> bool:
        """Not the learner's doing: never judged, never cached."""
        return self in (Verdict.BUSY, Verdict.SANDBOX_ERROR)

    def failure(self, limits: RunLimits, *, stopped_by: str | None = None) -> str:
        """The sentence that tells the learner how their run failed (``""`` for a judgement),
        in the current language. For a timeout, ``stopped_by`` names the limit that stopped it:
        ``"cpu"``, ``"wall"``, or None (not known: both limits are named)."""
        if self is Verdict.TIMEOUT:
            if stopped_by == CPU:
                return _(
                    "Your program ran out of time (it used more than {cpu} s of CPU time, the "
                    "limit): is there a loop that never ends?"
                ).format(cpu=f"{limits.cpu_s:g}")
            if stopped_by == WALL:
                return _(
                    "Your program ran out of time (the limit is {wall} s): "
                    "is there a loop that never ends?"
                ).format(wall=f"{limits.wall_s:g}")
            return _(
                "Your program ran out of time (it used more than {cpu} s of CPU time or ran "
                "longer than {wall} s): is there a loop that never ends?"
            ).format(cpu=f"{limits.cpu_s:g}", wall=f"{limits.wall_s:g}")
        if self is Verdict.MEMORY_LIMIT:
            return _(
                "Your program used more than {memory} MB of memory: "
                "is an array far larger than it needs to be?"
            ).format(memory=limits.memory_mb)
        if self is Verdict.OUTPUT_LIMIT:
            return _(
                "Your program printed more than {size} KB, far too much: "
                "print only what the task asks for."
            ).format(size=limits.output_bytes // 1024)
        if self.platform:
            return _(
                "The sandbox could not run your program just now; nothing is wrong with it. "
                "Please try again."
            )
        if self is Verdict.ERROR:
            return _("Your program stopped with an error.")
        return ""


def unchecked() -> str:
    """The sentence for a grade that could not be judged because the platform's own run of the
    sample solution failed just then (the learner's program may well be right)."""
    return _(
        "The platform could not check your program just now; nothing is known to be wrong with "
        "it. Please try again."
    )


CPU, WALL = "cpu", "wall"


def stopped_by(run: RunResult) -> str | None:
    """Which time limit stopped a timed-out run: the sandbox kills a run over its CPU time with
    a signal (SIGPROF, SIGXCPU, or SIGKILL once it has used its share) and ends one over its wall
    time itself, with no signal; None for any other run."""
    if run.verdict != TIMEOUT:
        return None
    return CPU if run.signal is not None else WALL


def platform_failed(run: RunResult) -> bool:
    """Whether the platform, not the program, ended ``run`` (``Verdict.platform``)."""
    return not run.ok and Verdict.of(run).platform


def run_failure(run: RunResult, limits: RunLimits) -> str:
    """The sentence for how ``run`` failed, naming the limit that stopped it."""
    return Verdict.of(run).failure(limits, stopped_by=stopped_by(run))
