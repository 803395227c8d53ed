"""Anticipated mistakes: a learner's program that behaves like one of the lesson's wrong programs
-- the same outcome on every case: same output, same compared values, the same outcome of every
test, or the same error raised by the same operation -- gets the message the author wrote for that
mistake. Failing the same tests, or stopping with the same kind of error, is not enough: different
bugs do that, and a nudge written for one of them would be untrue for the others."""

from __future__ import annotations

from codeblanks.content.model import Lesson, Mistake
from codeblanks.grading.compare import compare_output
from codeblanks.grading.functests import same_tests
from codeblanks.grading.tracebacks import Frame, parse
from codeblanks.grading.values import compare_values, value_rules
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
) -> Mistake | None:
    """The first anticipated mistake the learner's runs behave like, if any."""
    for mistake, runs in mistakes:
        if behaves_like(lesson, learner, runs, cases):
            return mistake
    return None
