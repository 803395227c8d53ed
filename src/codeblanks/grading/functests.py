"""Function exercises: the lesson's tests.py runs in the sandbox after the learner's code (see
``sandbox/inside/lessontest.py``), and its outcomes are judged here, in the grader's process.

Each test either returns a value, which must equal what the same test returns against the
solution (shape, kind of data and values within the test's or the lesson's tolerance), or
returns nothing and checks a property itself (``raises``, ``unchanged``, ``assert``). Feedback
names the failing test and the call it made; a hidden test's code is never shown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from codeblanks.content.model import FunctionTest, Lesson
from codeblanks.content.pysource import literal_value
from codeblanks.grading.values import describe_difference
from codeblanks.sandbox import RunResult

RESULTS = "__tests__"  # the names lessontest.run leaves behind (kept in step with it)


def value_name(index: int) -> str:
    return f"__test_{index}__"


def with_tests(lesson: Lesson, code: str) -> str:
    """``code`` followed by the call that runs the lesson's tests (none: ``code`` itself). The
    learner's lines keep their numbers."""
    suite = lesson.exercise.tests
    if suite is None:
        return code
    source, filename = suite.source, lesson.exercise.filename
    return (
        f"{code}{'' if code.endswith(chr(10)) else chr(10)}"
        f"__import__('lessontest').run(globals(), {source!r}, {filename!r})\n"
    )


def test_capture(lesson: Lesson) -> tuple[str, ...]:
    """The variables a run must hand over for the tests to be judged."""
    suite = lesson.exercise.tests
    if suite is None:
        return ()
    return (RESULTS, *(value_name(i) for i in range(len(suite.tests))))


@dataclass(frozen=True)
class Outcome:
    """One test's outcome as reported from inside the run."""

    name: str
    status: str  # passed | failed | error
    message: str = ""
    input: str = ""
    line: int | None = None
    returned: bool = False


def outcomes(run: RunResult) -> list[Outcome] | None:
    """The outcomes a run reported, or None when it reported nothing readable (the tests did
    not run, or the program tampered with the report)."""
    raw = run.values.get(RESULTS)
    if not isinstance(raw, str):
        return None
    try:
        data = json.loads(literal_value(raw))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(data, list):
        return None
    found = []
    for item in data:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            return None
        line = item.get("line")
        found.append(
            Outcome(
                name=item["name"],
                status=str(item.get("status", "error")),
                message=str(item.get("message", "")),
                input=str(item.get("input", "")),
                line=line if isinstance(line, int) else None,
                returned=item.get("returned") is True,
            )
        )
    return found


def _tolerance(lesson: Lesson, test: FunctionTest) -> tuple[float, float]:
    spec = lesson.exercise.grading
    rtol = spec.rtol if test.rtol is None else test.rtol
    atol = spec.atol if test.atol is None else test.atol
    return rtol, atol


def _title(test: FunctionTest) -> str:
    return f"The hidden test “{test.name}”" if test.hidden else f"The test “{test.name}”"


def judge_tests(lesson: Lesson, run: RunResult, solution: RunResult) -> list[str]:
    """Feedback for the first test the learner's run fails (empty: every test passes)."""
    suite = lesson.exercise.tests
    if suite is None:
        return []
    theirs = outcomes(solution)
    if theirs is None:
        return []  # the solution's own tests did not run: the lesson's problem (prove says so)
    mine = outcomes(run)
    if mine is None:
        return [
            "The tests could not run after your program: does it end early (exit) or change "
            "the names the task gives?"
        ]
    by_name = {o.name: o for o in mine}
    if len(mine) == 1 and mine[0].name == "(loading the tests)" and len(suite.tests) > 0:
        return [f"The tests could not start after your program: {mine[0].message}."]
    for index, test in enumerate(suite.tests):
        reference = next((o for o in theirs if o.name == test.name), None)
        if reference is None or reference.status != "passed":
            continue  # the solution fails this test itself: `codeblanks check` reports it
        got = by_name.get(test.name)
        if got is None:
            return [f"{_title(test)} did not run."]
        called = f" It called `{got.input}`." if got.input else ""
        if got.status == "error":
            where = f" (line {got.line} of your file)" if got.line else ""
            return [f"{_title(test)} stopped with {got.message}{where}.{called}"]
        if got.status != "passed":
            return [f"{_title(test)} fails: {got.message}.{called}"]
        if reference.returned:
            name = value_name(index)
            rtol, atol = _tolerance(lesson, test)
            problems = describe_difference(
                "the result", run.values.get(name), solution.values.get(name), rtol, atol
            )
            if problems:
                detail = problems[0].replace("`the result`", "the result")
                if detail.startswith("the result is not defined"):
                    detail = "it returned nothing (None): does the function `return` its result?"
                return [f"{_title(test)} gets a wrong result: {detail}{called}"]
    return []


def same_tests(lesson: Lesson, a: RunResult, b: RunResult) -> bool:
    """Whether two runs of the visible case cannot be told apart by the tests."""
    if lesson.exercise.tests is None:
        return True
    first, second = outcomes(a), outcomes(b)
    if first is None or second is None:
        return first is None and second is None
    if [(o.name, o.status) for o in first] != [(o.name, o.status) for o in second]:
        return False
    for index, test in enumerate(lesson.exercise.tests.tests):
        rtol, atol = _tolerance(lesson, test)
        mine, theirs = a.values.get(value_name(index)), b.values.get(value_name(index))
        if mine is None or theirs is None:
            if (mine is None) != (theirs is None):
                return False
        elif describe_difference("result", mine, theirs, rtol, atol):
            return False
    return True


def outcome_summary(run: RunResult) -> list[dict[str, Any]]:
    """The tests' names and results for the learner's page (never their code)."""
    return [
        {"name": o.name, "passed": o.status == "passed", "message": o.message}
        for o in outcomes(run) or []
    ]
