"""A grade as the learner reads it, in the current language (``codeblanks.i18n``): the verdict in
words (``words``, keyed on ``Verdict`` members: the one table of headings, which the lesson page
and the terminal both read), their output, the line diff against the expected output, the
grader's feedback, the traceback cut to their own lines, and limits explained in plain words.
Templates and the terminal only lay out what ``present`` returns (and escape it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from codeblanks.grading import Grade
from codeblanks.grading.arrays import ArrayPair
from codeblanks.grading.cases import VISIBLE
from codeblanks.grading.grade import printed_right
from codeblanks.grading.verdicts import Verdict
from codeblanks.i18n import gettext as _
from codeblanks.sandbox.result import RunLimits


@dataclass(frozen=True)
class DiffRow:
    kind: str  # "same", "expected" (missing from yours), "got" (only in yours), "gap"
    text: str


@dataclass(frozen=True)
class RunView:
    verdict: Verdict
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
    arrays: tuple[ArrayPair, ...] = ()  # wrong 2-D values: web/pages/heatmap.py draws them
    setup: str = ""  # the failing hidden case's code, behind the words (shown on request)


def _diff_rows(lines: Sequence[str]) -> list[DiffRow]:
    """The grader's unified diff (expected → yours) as rows; file headers dropped."""
    rows: list[DiffRow] = []
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


@dataclass(frozen=True)
class Words:
    tone: str  # good | bad | warn (for colour; the words say it all)
    title: str
    detail: str


def verdict_of(text: str) -> Verdict | None:
    """The ``Verdict`` a grade's JSON names (None: a word no grader of ours says)."""
    try:
        return Verdict(text)
    except ValueError:
        return None


def words(
    verdict: Verdict | None,
    *,
    case: str | None = None,
    feedback: Sequence[str] = (),
    cases: int = 1,
    diff: bool = True,
    limits: RunLimits | None = None,
    output_graded: bool = True,
) -> Words:
    """A verdict's heading and the sentence under it. A limit's sentence is the grader's own
    (``feedback[0]``, naming the lesson's limit and which one stopped the run), else the
    vocabulary's with ``limits``."""
    lim = limits or RunLimits()
    hidden = bool(case and case != VISIBLE)
    if verdict is Verdict.CORRECT:
        if cases > 1:
            detail = _(
                "Your program prints exactly the expected output, and gives the right results on "
                "all {cases} sets of inputs it was run on ({hidden} of them hidden). Well done!"
            ).format(cases=cases, hidden=cases - 1)
        else:
            detail = _("Your program prints exactly the expected output. Well done!")
        return Words("good", _("Correct"), detail)
    if verdict is Verdict.INCORRECT:
        if not diff and not output_graded:  # a function exercise: its tests alone judge it
            detail = _("Your program runs, but it does not pass its tests yet:")
        elif not diff and printed_right() in feedback:
            # the grader says it in one sentence already (after a nudge, if any): that one,
            # once, as the heading's (the trial's F9); ``reasons`` leaves it out below
            detail = printed_right()
        elif not diff:  # the output was right; a value check or a kept input was not
            detail = _(
                "Your program prints what was expected here, but what it computes is not right yet:"
            )
        elif hidden:
            detail = _(
                "Your program ran, but its output on another set of inputs ({case}) is not the "
                "expected one. The lines that differ are marked below."
            ).format(case=case)
        else:
            detail = _(
                "Your program ran, but its output is not the expected one. The lines that differ "
                "are marked below."
            )
        return Words("bad", _("Not quite"), detail)
    if verdict is Verdict.ERROR:
        if hidden:
            detail = _("It failed on another set of inputs ({case}); see where below.").format(
                case=case
            )
        else:
            detail = _("It failed; see where below.")
        return Words("bad", _("Your program stopped with an error"), detail)
    if verdict in LIMIT_TITLES:
        title = LIMIT_TITLES[verdict]()
        return Words("warn", title, feedback[0] if feedback else verdict.failure(lim))
    if verdict is Verdict.BUSY:
        return Words(
            "warn",
            _("The server is busy"),
            _(
                "Many programs are running right now, so yours did not start. "
                "Try again in a moment."
            ),
        )
    if verdict is Verdict.SANDBOX_ERROR:
        return Words(
            "warn",
            _("Something went wrong on our side"),
            _("Your program could not be run, through no fault of yours. Please try again."),
        )
    return Words("warn", _("The run ended unexpectedly."), "")


LIMIT_TITLES = {
    Verdict.TIMEOUT: lambda: _("Time limit reached"),
    Verdict.MEMORY_LIMIT: lambda: _("Memory limit reached"),
    Verdict.OUTPUT_LIMIT: lambda: _("Too much output"),
}


def reasons(feedback: Sequence[str], said: Words) -> list[str]:
    """The grader's sentences the heading has not already said."""
    headline = said.title.rstrip(".").lower()
    return [f for f in feedback if f and f.rstrip(".").lower() != headline and f != said.detail]


def present(
    grade: Grade, limits: RunLimits | None = None, *, output_graded: bool = True
) -> RunView:
    """The view of ``grade`` (``limits``: the lesson's, for a limit the grader did not word;
    ``output_graded`` False: a function exercise, whose prints are shown, never judged)."""
    verdict = grade.verdict
    diff = _diff_rows(grade.diff) if verdict is Verdict.INCORRECT else []
    said = words(
        verdict,
        case=grade.case,
        feedback=grade.feedback,
        cases=len(grade.cases),
        diff=bool(diff),
        limits=limits,
        output_graded=output_graded,
    )
    # The grader already cut the traceback down to the learner's own frames.
    traceback, stderr = "", grade.stderr
    if verdict is Verdict.ERROR and "Traceback" in grade.stderr:
        traceback, stderr = grade.stderr, ""
    return RunView(
        verdict=grade.verdict,
        tone=said.tone,
        title=said.title,
        detail=said.detail,
        stdout=grade.stdout,
        expected=grade.expected,
        diff=diff,
        feedback=reasons(grade.feedback, said),
        traceback=traceback,
        error_line=grade.line,
        stderr=stderr,
        case=grade.case,
        duration_ms=grade.duration_ms,
        more=grade.more,
        arrays=grade.arrays,
        setup=grade.setup,
    )
