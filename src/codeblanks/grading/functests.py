"""Function exercises: the lesson's tests.py runs in the sandbox after the learner's code (see
``sandbox/inside/lessontest.py``), and its outcomes are judged here, in the grader's process.

Each test either returns a value, which must equal what the same test returns against the
solution (as Python compares them, floats within the test's or the lesson's tolerance:
``pyvalues``), or returns nothing and checks a property itself (``raises``, ``unchanged``,
``assert``). Feedback says how many tests fail and names each, with the call it made; a hidden
test's code is never shown.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from codeblanks.content.model import FunctionTest, Lesson
from codeblanks.grading.pydata import Unreadable, read
from codeblanks.grading.pyvalues import Rules, difference
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext
from codeblanks.sandbox import RunResult
from codeblanks.sandbox.inside.lessontest import RESULTS, value_name  # the names its run leaves


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


RAISED = "error"  # a test's status when it raised (inside/lessontest.py)


@dataclass(frozen=True)
class Outcome:
    """One test's outcome as reported from inside the run."""

    name: str
    status: str  # passed | failed | error
    message: str = ""
    input: str = ""
    line: int | None = None
    returned: bool = False
    encoded: bool = False  # its value is JSON text (else an array)

    @property
    def raised(self) -> bool:
        """The test stopped with an exception (its status, a word of lessontest's own, is
        ``error``: not a verdict, though it is spelt like one)."""
        return self.status == RAISED


def outcomes(run: RunResult) -> list[Outcome] | None:
    """The outcomes a run reported, or None when it reported nothing readable (the tests did
    not run, or the program tampered with the report)."""
    raw = run.values.get(RESULTS)
    if not isinstance(raw, str):
        return None
    try:
        data = json.loads(raw)  # lessontest's own JSON text
    except (ValueError, RecursionError):
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
                encoded=item.get("encoded") is True,
            )
        )
    return found


def _rules(lesson: Lesson, test: FunctionTest) -> Rules:
    spec = lesson.exercise.grading
    rtol = spec.rtol if test.rtol is None else test.rtol
    atol = spec.atol if test.atol is None else test.atol
    return Rules(rtol, atol, exact=test.exact, unordered=test.unordered)


class _Missing:
    """A result that did not come back: too large to hand over, or tampered with."""


def _result(run: RunResult, index: int, outcome: Outcome) -> object:
    try:
        return read(run.values.get(value_name(index)), outcome.encoded)
    except Unreadable:
        return _Missing()


_RAISED_NOTHING = re.compile(r"expected (?P<names>[\w.]+(?: or [\w.]+)*), but nothing was raised")
_WRONG_MESSAGE = re.compile(
    r"(?P<kind>[\w.]+) was raised, but its message does not mention (?P<match>.+)", re.S
)
_EXACTLY = re.compile(
    r"(?P<kind>[\w.]+) was raised, but exactly (?P<names>[\w.]+(?: or [\w.]+)*) is expected"
)
_OTHER_MESSAGE = re.compile(
    r"(?P<kind>[\w.]+) was raised with the message (?P<got>.+), "
    r"but the message (?P<expected>.+) is expected",
    re.S,
)
_CHANGED = re.compile(
    r"the function changed (?:its argument|argument (?P<position>\d+)) in place; "
    r"compute a new value instead"
)


def _reason(message: str) -> str:
    """A failed property's reason in the current language. ``lessontest`` (inside the sandbox,
    without the catalogue) words its own few reasons in English; those are recognised here and
    said again in the learner's language. An author's own ``assert`` message stays as written."""
    if m := _RAISED_NOTHING.fullmatch(message):
        return _("expected {names}, but nothing was raised").format(names=_either(m["names"]))
    if m := _EXACTLY.fullmatch(message):
        return _("{kind} was raised, but exactly {names} is expected").format(
            kind=m["kind"], names=_either(m["names"])
        )
    if m := _OTHER_MESSAGE.fullmatch(message):
        return _(
            "{kind} was raised with the message {got}, but the message {expected} is expected"
        ).format(kind=m["kind"], got=m["got"], expected=m["expected"])
    if m := _WRONG_MESSAGE.fullmatch(message):
        return _("{kind} was raised, but its message does not mention {match}").format(
            kind=m.group("kind"), match=m.group("match")
        )
    if m := _CHANGED.fullmatch(message):
        if m.group("position"):
            return _(
                "the function changed argument {position} in place; compute a new value instead"
            ).format(position=m.group("position"))
        return _("the function changed its argument in place; compute a new value instead")
    if message == "a check of this test failed":
        return _("a check of this test failed")
    return message


def _either(names: str) -> str:
    """``A or B`` as lessontest writes it, said in the current language."""
    parts = names.split(" or ")
    listed = parts[0]
    for name in parts[1:]:
        listed = _("{first} or {second}").format(first=listed, second=name)
    return listed


# an object's place in memory, as a default repr shows it (`Generator(PCG64) at 0x7F…`): new on
# every run, and nothing the learner can use
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _called(got: Outcome) -> str:
    """The sentence that shows the call a test made (empty when it reported none), without
    memory addresses."""
    if not got.input:
        return ""
    return " " + _("It called `{call}`.").format(call=ADDRESS.sub("", got.input))


def _failure(test: FunctionTest, got: Outcome) -> str | None:
    """The sentence for a test that did not pass (None: it passed), hidden tests named as such."""
    name, hidden = test.shown, test.hidden  # shown: in the learner's language
    if got.raised:
        if got.line:
            text = (
                _("The hidden test “{test}” stopped with {error} (line {line} of your file).")
                if hidden
                else _("The test “{test}” stopped with {error} (line {line} of your file).")
            )
        else:
            text = (
                _("The hidden test “{test}” stopped with {error}.")
                if hidden
                else _("The test “{test}” stopped with {error}.")
            )
        return text.format(test=name, error=got.message, line=got.line) + _called(got)
    if got.status == "too-large":
        text = (
            _("The hidden test “{test}” gets a result too large to compare.")
            if hidden
            else _("The test “{test}” gets a result too large to compare.")
        )
        return text.format(test=name) + _called(got)
    if got.status != "passed":
        text = (
            _("The hidden test “{test}” fails: {reason}.")
            if hidden
            else _("The test “{test}” fails: {reason}.")
        )
        return text.format(test=name, reason=_reason(got.message)) + _called(got)
    return None


def _wrong_result(test: FunctionTest, got: Outcome, detail: str | None) -> str:
    """The sentence for a test whose result differs from the solution's (``detail``: how, as a
    sentence about "the result"; None: the function returned nothing)."""
    if detail is None:
        text = (
            _(
                "The hidden test “{test}” gets a wrong result: it returned nothing (None): does "
                "the function `return` its result?"
            )
            if test.hidden
            else _(
                "The test “{test}” gets a wrong result: it returned nothing (None): does the "
                "function `return` its result?"
            )
        )
    else:
        text = (
            _("The hidden test “{test}” gets a wrong result: {detail}")
            if test.hidden
            else _("The test “{test}” gets a wrong result: {detail}")
        )
    return text.format(test=test.shown, detail=detail) + _called(got)


def judge_tests(lesson: Lesson, run: RunResult, solution: RunResult) -> list[str]:
    """Feedback for the tests the learner's run fails (empty: every test passes): how many of
    them fail, then one sentence for each, in the lesson's order."""
    suite = lesson.exercise.tests
    if suite is None:
        return []
    theirs = outcomes(solution)
    if theirs is None:
        return []  # the solution's own tests did not run: the lesson's problem (prove says so)
    mine = outcomes(run)
    if mine is None:
        return [
            _(
                "The tests could not run after your program: does it end early (exit) or change "
                "the names the task gives?"
            )
        ]
    by_name = {o.name: o for o in mine}
    if len(mine) == 1 and mine[0].name == "(loading the tests)" and len(suite.tests) > 0:
        return [
            _("The tests could not start after your program: {reason}.").format(
                reason=mine[0].message
            )
        ]
    failures, judged = [], 0
    for index, test in enumerate(suite.tests):
        reference = next((o for o in theirs if o.name == test.name), None)
        if reference is None or reference.status != "passed":
            continue  # the solution fails this test itself: `codeblanks check` reports it
        judged += 1
        failure = _judge_one(lesson, index, test, by_name.get(test.name), reference, run, solution)
        if failure is not None:
            failures.append(failure)
    if not failures:
        return []
    count = ngettext(
        "{failed} of {total} tests fails:", "{failed} of {total} tests fail:", len(failures)
    ).format(failed=len(failures), total=judged)
    return [count, *failures]


def _judge_one(
    lesson: Lesson,
    index: int,
    test: FunctionTest,
    got: Outcome | None,
    reference: Outcome,
    run: RunResult,
    solution: RunResult,
) -> str | None:
    """The sentence for one test the learner's run fails (None: it passes)."""
    if got is None:
        text = (
            _("The hidden test “{test}” did not run.")
            if test.hidden
            else _("The test “{test}” did not run.")
        )
        return text.format(test=test.shown)
    failure = _failure(test, got)
    if failure is not None:
        return failure
    expected = _result(solution, index, reference)
    if isinstance(expected, _Missing):
        return None  # the solution's result did not come back: `codeblanks check` says so
    mine = _result(run, index, got)
    if isinstance(mine, _Missing):
        text = (
            _("The hidden test “{test}” gets a result too large to compare.")
            if test.hidden
            else _("The test “{test}” gets a result too large to compare.")
        )
        return text.format(test=test.shown) + _called(got)
    detail = difference(mine, expected, _rules(lesson, test))
    if detail is None:
        return None
    return _wrong_result(test, got, None if mine is None else detail)


def same_tests(lesson: Lesson, a: RunResult, b: RunResult) -> bool:
    """Whether two runs of the visible case cannot be told apart by the tests."""
    if lesson.exercise.tests is None:
        return True
    first, second = outcomes(a), outcomes(b)
    if first is None or second is None:
        return first is None and second is None
    # The reason too: two programs that fail one test for different reasons are different bugs.
    if [(o.name, o.status, o.message) for o in first] != [
        (o.name, o.status, o.message) for o in second
    ]:
        return False
    for index, test in enumerate(lesson.exercise.tests.tests):
        one, other = (
            next((o for o in found if o.name == test.name), None) for found in (first, second)
        )
        if one is None or other is None or one.status != "passed":
            continue
        mine, theirs = _result(a, index, one), _result(b, index, other)
        if isinstance(mine, _Missing) or isinstance(theirs, _Missing):
            if isinstance(mine, _Missing) != isinstance(theirs, _Missing):
                return False
        elif difference(mine, theirs, _rules(lesson, test)) is not None:
            return False
    return True


def differing_tests(lesson: Lesson, a: RunResult, b: RunResult) -> set[str]:
    """The tests on which two runs of the visible case differ: another outcome or another
    result (every test, when one of the runs reported nothing readable)."""
    suite = lesson.exercise.tests
    if suite is None:
        return set()
    first, second = outcomes(a), outcomes(b)
    if first is None or second is None:
        return set() if first is None and second is None else {t.name for t in suite.tests}
    mine, theirs = {o.name: o for o in first}, {o.name: o for o in second}
    found = set()
    for index, test in enumerate(suite.tests):
        x, y = mine.get(test.name), theirs.get(test.name)
        if x is None and y is None:
            continue
        if x is None or y is None or x.status != y.status or x.returned != y.returned:
            found.add(test.name)
            continue
        if not x.returned:
            continue
        got, expected = _result(a, index, x), _result(b, index, y)
        if isinstance(got, _Missing) or isinstance(expected, _Missing):
            if type(got) is not type(expected):
                found.add(test.name)
        elif difference(got, expected, _rules(lesson, test)) is not None:
            found.add(test.name)
    return found
