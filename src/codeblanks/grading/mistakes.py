"""Anticipated mistakes: a learner's program that behaves like one of the lesson's wrong programs
-- the same outcome on every case: same output, same compared values, the same outcome of every
test, or the same error raised by the same operation -- gets the message the author wrote for that
mistake. Failing the same tests, or stopping with the same kind of error, is not enough: different
bugs do that, and a nudge written for one of them would be untrue for the others.

Matched by behaviour, not by text: a program written another way that does the same is the same
mistake. Failing that, a program that does exactly what the mistake does on the visible case
(what the learner sees, and the nudge speaks of) and fails like it on every hidden case (the same
values wrong, the same tests, the same kind of error) is that mistake too. The mistakes' runs
are computed once per lesson version (``reference.py``), so matching costs no run."""

from __future__ import annotations

from dataclasses import dataclass

from codeblanks.content.model import Lesson, Mistake
from codeblanks.grading.cases import VISIBLE
from codeblanks.grading.compare import compare_output
from codeblanks.grading.functests import differing_tests, same_tests
from codeblanks.grading.pyvalues import compare_values, value_rules
from codeblanks.grading.tracebacks import Frame, parse
from codeblanks.sandbox import RunResult


def same_behaviour(lesson: Lesson, a: RunResult, b: RunResult) -> bool:
    """Whether two runs of one case cannot be told apart by the lesson's checks."""
    spec = lesson.exercise.grading
    if a.ok and b.ok:
        numbers = spec.output == "numbers"
        if lesson.exercise.output_graded and not (
            compare_output(a.stdout, b.stdout, spec.rtol, spec.atol, numbers=numbers).equal
        ):
            return False
        names = spec.values
        if {n for n in names if n in a.values} != {n for n in names if n in b.values}:
            return False
        if compare_values(a.values, b.values, names, **value_rules(spec)):
            return False
        return same_tests(lesson, a, b)
    if a.verdict != b.verdict:
        return False
    filename = lesson.exercise.filename
    return _error(a.stderr, filename) == _error(b.stderr, filename)


def _error(stderr: str, filename: str) -> tuple[str | None, ...]:
    """What tells one failure from another: the exception and its message, and where in the
    learner's file it was raised -- the function, the statement and the part of it Python marks
    (``~~^~~``), written without spaces or a comment so that layout does not count, line numbers
    not at all."""
    frames, etype, message, _before = parse(stderr)
    mine = [f for f in frames if f.file == filename or f.file.rsplit("/", 1)[-1] == filename]
    return (etype, message, *(_statement(mine[-1]) if mine else ()))


def _statement(frame: Frame) -> tuple[str | None, str, str]:
    source = frame.extra[0] if frame.extra else ""
    marked = ""
    if len(frame.extra) > 1 and set(frame.extra[1].strip()) <= set("~^"):
        start = len(frame.extra[1]) - len(frame.extra[1].lstrip())
        marked = source[start : len(frame.extra[1].rstrip())]
    code = source.split("  #", 1)[0]
    return frame.func, "".join(code.split()), "".join(marked.split())


def behaves_like(
    lesson: Lesson,
    learner: dict[str, RunResult],
    other: dict[str, RunResult],
    cases: set[str] | None = None,
) -> bool:
    """Whether ``learner`` matches ``other`` on every case ``other`` was run on (of ``cases``,
    if given: the cases on which the solution itself runs)."""
    compared = {c: r for c, r in other.items() if cases is None or c in cases}
    if not compared or any(case not in learner for case in compared):
        return False
    return all(same_behaviour(lesson, learner[case], run) for case, run in compared.items())


def matching_mistake(
    lesson: Lesson,
    learner: dict[str, RunResult],
    mistakes: tuple[tuple[Mistake, dict[str, RunResult]], ...],
    cases: set[str] | None = None,
    solution: dict[str, RunResult] | None = None,
) -> Mistake | None:
    """The first anticipated mistake the learner's runs behave like, if any; failing that (with
    the ``solution``'s runs), the first it fails like (``fails_like``)."""
    for mistake, runs in mistakes:
        if behaves_like(lesson, learner, runs, cases):
            return mistake
    if solution is None:
        return None
    for mistake, runs in mistakes:
        if fails_like(lesson, learner, runs, solution, cases):
            return mistake
    return None


def fails_like(
    lesson: Lesson,
    learner: dict[str, RunResult],
    other: dict[str, RunResult],
    solution: dict[str, RunResult],
    cases: set[str] | None = None,
) -> bool:
    """Whether ``learner`` is the same mistake as ``other`` written another way: the same on the
    visible case (the one the nudge speaks of), and on every other case wrong in the same way --
    the same checked values wrong, the same tests failed, the output right or wrong alike, or the
    same kind of error. So ``/ np.sqrt(2)`` is the mistake ``/ np.sqrt(K.shape[1])`` where the
    keys are 2 wide, and wrong in the same values where they are 3 wide."""
    compared = {c: r for c, r in other.items() if cases is None or c in cases}
    if VISIBLE not in compared or any(case not in learner for case in compared):
        return False
    if not same_behaviour(lesson, learner[VISIBLE], compared[VISIBLE]):
        return False
    return all(
        case in solution
        and how_it_fails(lesson, learner[case], solution[case])
        == how_it_fails(lesson, run, solution[case])
        for case, run in compared.items()
        if case != VISIBLE
    )


@dataclass(frozen=True)
class Failure:
    """How a run differs from the solution's on one case, without the values themselves."""

    verdict: str
    error: str | None = None  # the exception's type, for a run that did not end normally
    output: bool = True  # its output is right (or not graded)
    wrong: frozenset[str] = frozenset()  # the checked values that differ
    tests: frozenset[str] = frozenset()  # the tests whose outcome differs

    @property
    def right(self) -> bool:
        return self.error is None and self.output and not self.wrong and not self.tests


def how_it_fails(lesson: Lesson, run: RunResult, solution: RunResult) -> Failure:
    """How ``run`` differs from the ``solution``'s run of the same case."""
    if not run.ok:
        return Failure(run.verdict, parse(run.stderr)[1] or run.verdict)
    spec = lesson.exercise.grading
    rules = value_rules(spec)
    output = not lesson.exercise.output_graded or (
        compare_output(
            run.stdout, solution.stdout, spec.rtol, spec.atol, numbers=spec.output == "numbers"
        ).equal
    )
    wrong = frozenset(
        name
        for name in spec.values
        if (name in run.values) != (name in solution.values)
        or compare_values(run.values, solution.values, (name,), **rules, hints=False)
    )
    tests = frozenset(differing_tests(lesson, run, solution))
    return Failure(run.verdict, None, output, wrong, tests)
