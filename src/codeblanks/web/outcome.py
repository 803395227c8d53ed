"""A grade as the learner reads it: the verdict in words, their output, the line diff against the
expected output, the grader's feedback, the traceback cut to their own lines, and limits
explained in plain words. Templates only lay out what ``present`` returns (auto-escaped)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from codeblanks.content.model import Lesson
from codeblanks.grading import Grade
from codeblanks.grading.reference import limits_for
from codeblanks.grading.verdicts import Verdict
from codeblanks.web.heatmap import pair_picture


@dataclass(frozen=True)
class DiffRow:
    kind: str  # "same", "expected" (missing from yours), "got" (only in yours), "gap"
    text: str


@dataclass(frozen=True)
class RunView:
    verdict: str
    tone: str  # good | bad | warn (for colour; the words say it all)
    title: str
    detail: str
    stdout: str
    expected: str
    diff: list[DiffRow] = field(default_factory=list)
    feedback: list[str] = field(default_factory=list)
    traceback: str = ""
    error_line: int | None = None
    stderr: str = ""
    case: str | None = None
    duration_ms: float = 0.0
    more: str = ""  # an anticipated mistake's explanation, behind its nudge (shown on request)
    pictures: list = field(default_factory=list)  # web/heatmap.py's PairPicture, per wrong array


def _diff_rows(lines: list[str]) -> list[DiffRow]:
    """The grader's unified diff (expected → yours) as rows; file headers dropped."""
    rows = []
    for line in lines:
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            if rows:
                rows.append(DiffRow("gap", "⋯"))
            continue
        if line.startswith("-"):
            rows.append(DiffRow("expected", line[1:]))
        elif line.startswith("+"):
            rows.append(DiffRow("got", line[1:]))
        elif line.startswith(" "):
            rows.append(DiffRow("same", line[1:]))
        else:
            rows.append(DiffRow("gap", line))
    return rows


def _words(verdict: str, lesson: Lesson, case: str | None) -> tuple[str, str, str]:
    lim = limits_for(lesson)
    hidden = bool(case and case != "visible")
    if hidden:
        incorrect = _(
            "Your program ran, but its output on another set of inputs ({case}) is not the "
            "expected one. The lines that differ are marked below."
        ).format(case=case)
        error = _("It failed on another set of inputs ({case}); see where below.").format(case=case)
    else:
        incorrect = _(
            "Your program ran, but its output is not the expected one. The lines that differ "
            "are marked below."
        )
        error = _("It failed; see where below.")
    table = {
        "correct": (
            "good",
            _("Correct"),
            _("Your program prints exactly the expected output. Well done!"),
        ),
        "incorrect": ("bad", _("Not quite"), incorrect),
        "error": ("bad", _("Your program stopped with an error"), error),
        # the limits: the grader's one sentence for each (grading/verdicts.py)
        "timeout": ("warn", _("Time limit reached"), Verdict.TIMEOUT.failure(lim)),
        "memory-limit": ("warn", _("Memory limit reached"), Verdict.MEMORY_LIMIT.failure(lim)),
        "output-limit": ("warn", _("Too much output"), Verdict.OUTPUT_LIMIT.failure(lim)),
        "busy": (
            "warn",
            _("The server is busy"),
            _(
                "Many programs are running right now, so yours did not start. "
                "Try again in a moment."
            ),
        ),
        "sandbox-error": (
            "warn",
            _("Something went wrong on our side"),
            _("Your program could not be run, through no fault of yours. Please try again."),
        ),
    }
    return table.get(verdict, ("warn", verdict, _("The run ended unexpectedly.")))


def present(grade: Grade, lesson: Lesson, code: str) -> RunView:
    tone, title, detail = _words(grade.verdict, lesson, grade.case)
    if grade.verdict == "timeout" and grade.feedback:
        # the grader's sentence names the limit that stopped this run (CPU or wall time)
        detail = grade.feedback[0]
    cases = len(grade.cases)
    if grade.correct and cases > 1:
        detail = _(
            "Your program prints exactly the expected output, and gives the right results on "
            "all {cases} sets of inputs it was run on ({hidden} of them hidden). Well done!"
        ).format(cases=cases, hidden=cases - 1)
    diff = []
    if grade.verdict == "incorrect":
        diff = _diff_rows(list(grade.diff))
        if not diff:  # the output was right; a value check or a kept input was not
            detail = _(
                "Your program prints what was expected here, but what it computes is not right yet:"
            )
    # The grader already cut the traceback down to the learner's own frames.
    traceback, stderr = "", grade.stderr
    if grade.verdict == "error" and "Traceback" in grade.stderr:
        traceback, stderr = grade.stderr, ""
    error_line = grade.line
    # The headline already says what kind of failure it was; keep only the reasons.
    headline = title.rstrip(".").lower()
    feedback = [
        f for f in grade.feedback if f and f.rstrip(".").lower() != headline and f != detail
    ]
    return RunView(
        verdict=grade.verdict,
        tone=tone,
        title=title,
        detail=detail,
        stdout=grade.stdout,
        expected=grade.expected,
        diff=diff,
        feedback=feedback,
        traceback=traceback,
        error_line=error_line,
        stderr=stderr,
        case=grade.case,
        duration_ms=grade.duration_ms,
        more=grade.more,
        pictures=[pair_picture(pair) for pair in grade.arrays],
    )
