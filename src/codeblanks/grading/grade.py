"""Grading an exercise: the learner's program runs on the visible case, then (only if that run
ended normally) on every hidden variant at once; its output and named values are compared with the
solution's (cached per lesson version); the first case that fails decides the verdict and the
feedback says why.

A learner's mistake is always a ``Grade`` value, never an exception.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from codeblanks import i18n, inline
from codeblanks.content.model import BLANK, Lesson, Mistake, Variant
from codeblanks.content.pysource import blank_lines
from codeblanks.grading.arrays import ArrayPair, array_pairs
from codeblanks.grading.cases import VISIBLE, Case
from codeblanks.grading.clues import reversed_line, uncalled_method
from codeblanks.grading.compare import OutputMatch, compare_output, line_diff, normalise
from codeblanks.grading.functests import judge_tests, outcomes
from codeblanks.grading.inputs import in_words, setup_code
from codeblanks.grading.mistakes import matching_mistake
from codeblanks.grading.pyvalues import compare_values, value_rules
from codeblanks.grading.reading import READ_S, aread
from codeblanks.grading.reference import (
    Reference,
    areference,
    kept_reference,
    limits_for,
    reference_failed,
    run_cases,
)
from codeblanks.grading.rules import RAN, Facts, rule_break
from codeblanks.grading.tracebacks import error_line, friendly, matmul_operands
from codeblanks.grading.verdicts import Verdict, platform_failed, run_failure, unchecked
from codeblanks.i18n import gettext as _
from codeblanks.sandbox import RunResult, get_sandbox
from codeblanks.sandbox.result import (
    ERROR,
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    SANDBOX_ERROR,
    TIMEOUT,
    Runner,
)
from codeblanks.sandbox.workers import offload

log = logging.getLogger("codeblanks.grading")
CORRECT = Verdict.CORRECT
INCORRECT = Verdict.INCORRECT


def printed_right() -> str:
    return _(
        "Your printed output is right, but it does not show everything the task checks, and a "
        "value the task asks for is not what it should be:"
    )


def mistake_id(lesson: Lesson, mistake: Mistake) -> str:
    """How a mistake is named in a Grade: its file, relative to the lesson folder (the same in
    every language of the lesson)."""
    if mistake.file:
        return mistake.file
    try:
        return mistake.path.relative_to(lesson.path).as_posix()
    except ValueError:
        return mistake.path.name


T = TypeVar("T")


@dataclass(frozen=True)
class Grade:
    verdict: Verdict  # correct | incorrect | a run failure verdict (error, timeout, ...)
    stdout: str  # of the visible case
    stderr: str  # of the visible case; a traceback shows the learner's frames only
    expected: str  # of the visible case
    feedback: tuple[str, ...] = ()  # messages for the learner, most useful first
    case: str | None = None  # which case failed: "visible" or a variant's name
    duration_ms: float = 0.0  # of the visible run
    diff: tuple[str, ...] = ()  # expected -> learner's output on the failing case (unified)
    line: int | None = None  # the learner's line an error points at
    cases: tuple[str, ...] = ()  # every case the program was run on
    mistake: str | None = None  # the anticipated mistake it behaves like (its file, in the lesson)
    more: str = ""  # that mistake's explanation, held back behind its nudge (feedback[0])
    arrays: tuple[ArrayPair, ...] = ()  # 2-D values it got wrong, for the verdict's pictures
    setup: str = ""  # how the failing hidden case is built (its code): shown only on request

    def __post_init__(self) -> None:
        # A verdict's word (a test's, a stored one) becomes its member here, once: every reader
        # can ask ``grade.verdict.platform``; an unknown word is a ValueError that names it.
        object.__setattr__(self, "verdict", Verdict(self.verdict))

    @property
    def correct(self) -> bool:
        return self.verdict is CORRECT

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "expected": self.expected,
            "feedback": list(self.feedback),
            "case": self.case,
            "duration_ms": round(self.duration_ms, 3),
            "diff": list(self.diff),
            "line": self.line,
            "cases": list(self.cases),
            "mistake": self.mistake,
            "more": self.more,
            "arrays": [pair.to_json() for pair in self.arrays],
            "setup": self.setup or None,
        }


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Drive ``coro`` to the end from synchronous code, even when this thread runs a loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    # A pool's thread starts with an empty context: run there in a copy of this one, so the
    # language of the feedback (codeblanks.i18n) goes along.
    context = contextvars.copy_context()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(context.run, asyncio.run, coro).result()


def grade(
    lesson: Lesson, code: str, sandbox: Runner | None = None, *, client: str | None = None
) -> Grade:
    return run_sync(agrade(lesson, code, sandbox, client=client))


async def agrade(
    lesson: Lesson, code: str, sandbox: Runner | None = None, *, client: str | None = None
) -> Grade:
    """``client`` (the learner's session, an API caller's address) is whom the sandbox counts
    the runs to when it shares itself fairly between learners."""
    sandbox = sandbox or get_sandbox()
    runs, ref, missing, facts = await _runs(lesson, code, sandbox, client=client)
    if ref.platform_failure is None and (failed := ref.solution_failure) is not None:
        # The lesson is proven (`codeblanks check`): its solution failing here is the moment's
        # doing, and judging against it would pass any program that prints the right text.
        reference_failed(lesson, *failed)
        vis = runs.get(VISIBLE) or RunResult(Verdict.SANDBOX_ERROR)
        return Grade(
            Verdict.SANDBOX_ERROR,
            vis.stdout,
            vis.stderr,
            lesson.exercise.expected_output,
            (unchecked(),),
            duration_ms=vis.duration_ms,
            cases=tuple(runs),
        )
    return await ajudge(lesson, code, runs, ref.trusted(), missing, facts)


async def agrade_runs(
    lesson: Lesson,
    code: str,
    sandbox: Runner,
    gate: asyncio.Semaphore | None = None,
    patient: bool = False,
    client: str | None = None,
) -> tuple[dict[str, RunResult], Reference, str | None]:
    """The learner's runs and the reference (``_runs``), without what the rules read."""
    runs, ref, missing, _facts = await _runs(lesson, code, sandbox, gate, patient, client)
    return runs, ref, missing


async def _runs(
    lesson: Lesson,
    code: str,
    sandbox: Runner,
    gate: asyncio.Semaphore | None = None,
    patient: bool = False,
    client: str | None = None,
) -> tuple[dict[str, RunResult], Reference, str | None, Facts | None]:
    """The learner's runs and the reference, fetched together, and what the task's rules read
    in the program (None: not read). The cases run in one sandbox child, in order (one slot,
    one fork): the visible case first and the variants only if it ended normally: a program
    that loops, sleeps or fails there would do the same on every variant, so running them
    would only cost the node (and the other learners) for nothing. After a variant, only a
    costly failure (time, memory, output) ends the grade: an error is cheap, and an
    anticipated mistake is recognised on every case."""
    values = lesson.exercise.grading.values
    if any(rule.require for rule in lesson.exercise.grading.rules):
        values += (RAN,)  # the lines the traced cases ran (``rules.traced``)
    cases: list[Case] = []
    missing = None
    facts: Facts | None = None

    async def learner() -> dict[str, RunResult]:
        nonlocal cases, missing, facts
        # Off the loop, a long program in a worker process (``reading.py``): parsing holds the
        # GIL, and pages and /healthz must answer meanwhile. (The web charges that cost to the
        # client: ``programs_for``.)
        reading = await aread(lesson, code)
        if reading is None:
            return {VISIBLE: RunResult(SANDBOX_ERROR)}
        cases, missing, facts = reading.cases, reading.missing, reading.facts
        return await run_cases(
            sandbox,
            lesson,
            cases,
            values,
            stop=_learner_stop,
            gate=gate,
            patient=patient,
            client=client,
        )

    if (kept := kept_reference(lesson)) is not None:  # most grades: no second task to gather
        runs, ref = await learner(), kept
    elif not inline.on_loop():  # driven on a thread: the reference's many runs on a loop
        runs = await learner()
        ref = await inline.on_a_loop(areference, lesson, sandbox, gate)
    else:
        runs, ref = await asyncio.gather(learner(), areference(lesson, sandbox, gate))
    failed = [c for c in cases if c.name in runs and _matmul_error(runs[c.name])]
    if failed:
        # Rare and worth it: run those cases again, keeping the operands of `@` on the line
        # that failed, so the error can show both shapes. Capturing them on every run would
        # slow every grade.
        line = error_line(runs[failed[0].name].stderr, lesson.exercise.filename)
        # Parses the program: in a worker process, as its reading (rare: no size threshold).
        extra = await offload(matmul_operands, code, line, timeout=READ_S)
    if failed and extra:
        again = await run_cases(
            sandbox, lesson, failed, values + extra, gate=gate, patient=patient, client=client
        )
        runs.update({name: run for name, run in again.items() if run.verdict == ERROR})
    return runs, ref, missing.message() if missing else None, facts


_COSTLY = (TIMEOUT, MEMORY_LIMIT, OUTPUT_LIMIT)


def _learner_stop(index: int, run: RunResult) -> bool:
    """Whether a grade ends after its case ``index`` (0: the visible case) ended as ``run``."""
    return not run.ok if index == 0 else run.verdict in _COSTLY


def _matmul_error(run: RunResult) -> bool:
    return run.verdict == ERROR and "matmul" in run.stderr


def _failure_message(run: RunResult, lesson: Lesson) -> str:
    return run_failure(run, limits_for(lesson))


# A program whose text and output together are longer than this is judged in a worker process
# (``sandbox/workers.py``), as it was read: judging it can tokenise and parse it (a blank left,
# an error to explain) and diff its output, pure Python that holds the GIL for as long as the
# program is big, and a burst of such grades in threads stalled every other request (security
# review S7). A shorter one is judged in a thread of this process, sooner than a hop allows.
JUDGE_HERE_CHARS = 16 * 1024
JUDGE_S = 30.0  # the most a grade waits for its judging in the worker, as for its reading


async def ajudge(
    lesson: Lesson,
    code: str,
    runs: dict[str, RunResult],
    ref: Reference,
    missing: str | None,
    facts: Facts | None = None,
) -> Grade:
    """``judge``, off the event loop: pages and /healthz must answer meanwhile. A judging the
    worker could not do (it died, or took past ``JUDGE_S``) is the platform's failure, said so."""
    size = len(code) + sum(len(run.stdout) + len(run.stderr) for run in runs.values())
    if size <= JUDGE_HERE_CHARS:
        return await inline.call(judge, lesson, code, runs, ref, missing, facts)
    args = (i18n.current(), lesson, code, runs, ref, missing, facts)
    judged = await offload(judge_in, *args, timeout=JUDGE_S)
    if judged is not None:
        return judged
    vis = runs.get(VISIBLE) or RunResult(SANDBOX_ERROR)
    failure = _failure_message(RunResult(SANDBOX_ERROR), lesson)
    return Grade(
        Verdict.SANDBOX_ERROR,
        vis.stdout,
        vis.stderr,
        lesson.exercise.expected_output,
        (failure,),
        duration_ms=vis.duration_ms,
        cases=tuple(runs),
    )


def judge_in(
    language: str,
    lesson: Lesson,
    code: str,
    runs: dict[str, RunResult],
    ref: Reference,
    missing: str | None,
    facts: Facts | None,
) -> Grade:
    """``judge`` in a worker process, in the request's language (its feedback's words)."""
    with i18n.language(language):
        return judge(lesson, code, runs, ref, missing, facts)


@dataclass(frozen=True)
class _Judging:
    """What every step of judging one program reads: the lesson, the program, its runs (by
    case, in order) and the reference."""

    lesson: Lesson
    code: str
    runs: dict[str, RunResult]
    ref: Reference


def judge(
    lesson: Lesson,
    code: str,
    runs: dict[str, RunResult],
    ref: Reference,
    missing: str | None,
    facts: Facts | None = None,
) -> Grade:
    """The Grade of a program that ran: the first case that fails (the visible one, then the
    variants in the lesson's order) decides it, then the rules the task states (``facts``: what
    they read in the program, when it was read in the worker already)."""
    j = _Judging(lesson, code, runs, ref)
    # The platform failed somewhere: say so and judge nothing.
    for name, run in runs.items():
        if platform_failed(run):
            return graded(j, Verdict.of(run), name, [_failure_message(run, lesson)])
    if (failed := ref.platform_failure) is not None:
        return graded(j, Verdict.of(failed), None, [_failure_message(failed, lesson)])
    if (found := judge_case(j, VISIBLE, runs[VISIBLE], ref.solution.get(VISIBLE))) is not None:
        return found
    if missing:
        return graded(j, INCORRECT, VISIBLE, [missing])
    for name, run in runs.items():
        sol = ref.solution.get(name)
        if name == VISIBLE or sol is None or not sol.ok:
            continue  # the solution fails here: the lesson's problem (`codeblanks check`)
        if (found := judge_case(j, name, run, sol)) is not None:
            return found
    # Right on every case: last, the rules the task states (what the code uses, what it does).
    if (broken := rule_break(lesson, code, runs, ref.solution, facts)) is not None:
        return graded(j, INCORRECT, broken.case, [broken.message], line=broken.line)
    return graded(j, CORRECT, None, [])


def judge_case(j: _Judging, name: str, run: RunResult, solution: RunResult | None) -> Grade | None:
    """The Grade if the program fails case ``name``: how its run ended, then its output, its
    values and (on the visible case) its tests against the solution's. None if it passes."""
    if not run.ok:
        return failed_run(j, name, run)
    spec = j.lesson.exercise.grading
    visible = name == VISIBLE
    # The visible case is held to the lesson's expected output, a variant to the solution's.
    expected = j.ref.expected[VISIBLE] if visible or solution is None else solution.stdout
    match = output_match(j.lesson, run.stdout, expected)
    problems: list[str] = []
    if solution is not None and solution.ok:
        problems = compare_values(
            run.values, solution.values, spec.values, **value_rules(spec), hints=not match.equal
        )
        if visible and match.equal and problems:
            # When the printout is right, a guess at the cause of a value's difference would
            # mislead: say only what differs, and that the printout hides it.
            problems.insert(0, printed_right())
        if visible:
            tests = judge_tests(j.lesson, run, solution)
            if tests and (blank := _unfilled(j.code, run)) is not None:
                return graded(j, INCORRECT, name, [fill_in(blank)], line=blank)
            problems += tests
    intro = [] if visible else [case_intro(j.lesson, name, j.ref)]
    if not match.equal:
        diff = line_diff(run.stdout, expected)
        clues = [c for c in (uncalled_method(run.stdout), reversed_line(run.stdout, expected)) if c]
        return with_mistake(j, INCORRECT, name, [*intro, match.reason, *clues, *problems], diff)
    if problems:
        return with_mistake(j, INCORRECT, name, [*intro, *problems])
    return None


def graded(
    j: _Judging,
    verdict: Verdict,
    case: str | None,
    feedback: list[str],
    diff: list[str] | tuple[str, ...] = (),
    line: int | None = None,
    stderr: str | None = None,
    mistake: Mistake | None = None,
) -> Grade:
    """A Grade: always the visible case's output, the feedback of the case that decided."""
    vis = j.runs[VISIBLE]
    return Grade(
        verdict,
        vis.stdout,
        vis.stderr if stderr is None else stderr,
        j.lesson.exercise.expected_output,
        tuple(feedback),
        case,
        vis.duration_ms,
        tuple(diff),
        line,
        tuple(j.runs),
        mistake=None if mistake is None else mistake_id(j.lesson, mistake),
        more=mistake.message if mistake is not None and mistake.nudge else "",
        arrays=_wrong_arrays(j.lesson, j.runs, j.ref, verdict, case),
        setup=setup_code(v) if (v := _variant(j.lesson, case)) else "",
    )


def fill_in(line: int) -> str:
    """The one sentence for a blank of the starter left unfilled (output and function
    exercises alike): the blank is the news, not the NameError it causes."""
    return _("Fill in the blank (`{blank}`) on line {line}: replace it with your code.").format(
        blank=BLANK, line=line
    )


def _unfilled(code: str, run: RunResult) -> int | None:
    """The line of a blank the lesson's tests stopped on (its NameError), or None. The tests
    call the function after the program ran, so the blank inside it fails every test."""
    blanks = blank_lines(code, BLANK)
    found = outcomes(run) if blanks else None
    for outcome in found or ():
        if outcome.raised and f"'{BLANK}'" in outcome.message:
            return outcome.line if outcome.line in blanks else blanks[0]
    return None


def _variant(lesson: Lesson, name: str | None) -> Variant | None:
    return next((v for v in lesson.exercise.grading.variants if v.name == name), None)


def case_intro(lesson: Lesson, name: str, ref: Reference | None = None) -> str:
    """The first words about a failing hidden case: which one, and its inputs in words when
    the reference knows what they hold (never its code: ``Grade.setup`` carries that)."""
    v = _variant(lesson, name)
    data = in_words(v, ref.inputs.get(name, {})) if v and ref else ""
    if data:
        return _(
            "Your program gives the expected result on the visible data, but not on the "
            "hidden case “{case}” ({data})."
        ).format(case=name, data=data)
    return _(
        "Your program gives the expected result on the visible data, but not on the hidden "
        "case “{case}”."
    ).format(case=name)


def output_match(lesson: Lesson, got: str, expected: str) -> OutputMatch:
    ex, spec = lesson.exercise, lesson.exercise.grading
    if not ex.output_graded:  # a function exercise without expected.txt: prints are shown
        return OutputMatch(True)
    return compare_output(got, expected, spec.rtol, spec.atol, numbers=spec.output == "numbers")


def failed_run(j: _Judging, name: str, run: RunResult) -> Grade:
    """Case ``name`` did not end normally: the starter's blank, or why it ended, and the error
    explained."""
    ex = j.lesson.exercise
    feedback = [] if name == VISIBLE else [case_intro(j.lesson, name, j.ref)]
    blanks = blank_lines(j.code, BLANK)
    if blanks and run.verdict == ERROR:
        # The starter's blank is still there: that, not the NameError it causes, is the news.
        feedback.append(fill_in(blanks[0]))
        shown = friendly(run.stderr, j.code, ex.filename, run.values).text
        return graded(j, Verdict.ERROR, name, feedback, line=blanks[0], stderr=shown)
    feedback.append(_failure_message(run, j.lesson))
    line: int | None = None
    stderr: str | None = None
    if run.stderr:
        given = None if name == VISIBLE else ex.grading.inputs
        err = friendly(run.stderr, j.code, ex.filename, run.values, given)
        feedback += list(err.explanation)
        line = err.line
        if name == VISIBLE:
            stderr = err.text
        elif err.error_type:
            last = f"{err.error_type}: {err.message}" if err.message else err.error_type
            feedback.append(last)
    return with_mistake(j, Verdict.of(run), name, feedback, line=line, stderr=stderr)


def with_mistake(
    j: _Judging,
    verdict: Verdict,
    name: str,
    feedback: list[str],
    diff: list[str] | tuple[str, ...] = (),
    line: int | None = None,
    stderr: str | None = None,
) -> Grade:
    """An incorrect Grade, led by the anticipated mistake the program behaves like (or, for
    output that never changes with the data, by saying so)."""
    ex, runs, ref = j.lesson.exercise, j.runs, j.ref
    # Compared on the cases the learner's program was run on (only the visible one when it
    # failed there) where the solution itself runs.
    valid = {n for n, r in ref.solution.items() if r.ok and n in runs}
    mistake = matching_mistake(j.lesson, runs, ref.mistakes, valid, ref.solution)
    if mistake is not None:
        feedback = [mistake.nudge or mistake.message, *feedback]
    elif (
        verdict == INCORRECT
        and ex.output_graded
        and (constant := _constant_output(runs, ref, _given(j.lesson)))
    ):
        feedback = [constant, *feedback]
    return graded(j, verdict, name, feedback, diff, line, stderr, mistake)


def _given(lesson: Lesson) -> tuple[str, ...]:
    """What a program is given to compute from: the declared inputs, and ``input()`` when the
    lesson gives its program standard input."""
    ex = lesson.exercise
    reads = bool(ex.stdin) or any(v.stdin is not None for v in ex.grading.variants)
    return ex.grading.inputs + (("input()",) if reads else ())


def _wrong_arrays(
    lesson: Lesson, runs: dict[str, RunResult], ref: Reference, verdict: Verdict, case: str | None
) -> tuple[ArrayPair, ...]:
    """The checked 2-D values an incorrect answer got wrong on ``case``, for the pictures."""
    spec = lesson.exercise.grading
    mine, theirs = runs.get(case or ""), ref.solution.get(case or "")
    if verdict != INCORRECT or mine is None or theirs is None or not theirs.ok:
        return ()
    return array_pairs(
        mine.values, theirs.values, spec.values, spec.rtol, spec.atol, spec.tolerance
    )


def _constant_output(
    runs: dict[str, RunResult], ref: Reference, inputs: tuple[str, ...]
) -> str | None:
    """A message when the learner's output (or one of its lines) stays the same on every case
    while the solution's changes with the data: printed, not computed. A line counts only when
    it is a line of the visible expected output (so a label of the learner's own, such as
    ``scores:``, is not taken for a hard-coded answer) that the solution does not print in
    every case. One whole sentence in the current language, naming the lesson's ``inputs``."""
    listed = ", ".join(f"`{n}`" for n in inputs)
    if len(runs) < 2 or not all(r.ok for r in runs.values()):
        return None
    names = [n for n in runs if n in ref.expected]
    mine = [normalise(runs[n].stdout).split("\n") for n in names]
    theirs = [normalise(ref.expected[n]).split("\n") for n in names]
    if len({tuple(m) for m in mine}) == 1 and len({tuple(t) for t in theirs}) > 1:
        return _(
            "Your program prints the same thing whatever the data: it has to be computed from "
            "the given inputs ({inputs}), not known in advance."
        ).format(inputs=listed)
    shown = set(theirs[names.index(VISIBLE)]) if VISIBLE in names else set()
    # A line the solution itself prints in every case (`True` for a check that always holds)
    # is the same in every right program: no clue, wherever it falls.
    always = set.intersection(*(set(t) for t in theirs)) if theirs else set()
    for i, line in enumerate(mine[0]):
        if not line.strip() or line not in shown or line in always:
            continue
        if any(len(m) <= i or m[i] != line for m in mine):
            continue
        column = {t[i] if len(t) > i else None for t in theirs}
        if len(column) > 1:
            return _(
                "Line {number} of your output (`{line}`) stays the same whatever the data: it has "
                "to be computed from the given inputs ({inputs}), not known in advance."
            ).format(number=i + 1, line=line.strip(), inputs=listed)
    return None
