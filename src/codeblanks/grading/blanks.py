"""Fill-in-the-blank questions, judged by what the answer does rather than how it is spelt.

In ``value`` mode (the default) the question's line, with the blank replaced by the answer, runs in
the sandbox after the question's setup (by default the lesson's solution.py, its output ignored);
the value the line assigns (or the value of the line, if it is an expression) is compared with the
one the accepted answer gives. So for ``scores = Q @ ____`` each of ``K.T``, ``K.transpose()``,
``np.transpose(K)`` and ``K.swapaxes(0, 1)`` passes. ``exact`` compares the text with the answer
and the ``accept`` list (whitespace runs count as one space); ``regex`` matches ``answer`` as a
pattern against the whole text.

A value blank can close the door to the value typed in: ``forbid`` lists tokens the answer may
not use (checked before anything runs), and each of ``variants`` is another setup under which the
answer must give the reference answer's value too (all setups run at once).
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from codeblanks.content.model import BLANK, BlankQuestion, Lesson
from codeblanks.content.pysource import parse_tree, single_token, tokens
from codeblanks.grading.cases import PARSE_ERRORS
from codeblanks.grading.grade import run_sync
from codeblanks.grading.pydata import Unreadable, captured, literal
from codeblanks.grading.reference import (
    MOMENTARY,
    cache_key,
    keep,
    limits_for,
    recall,
    reference_failed,
    run_one,
)
from codeblanks.grading.tracebacks import friendly
from codeblanks.grading.values import describe_difference
from codeblanks.grading.verdicts import Verdict, platform_failed
from codeblanks.i18n import gettext as _
from codeblanks.sandbox import RunResult, get_sandbox
from codeblanks.sandbox.inside.wire import PRIVATE_END
from codeblanks.sandbox.result import Runner

VALUE_NAME = "__blank_value__"
_FILENAME = "blank.py"


@dataclass(frozen=True)
class BlankVerdict:
    correct: bool
    message: str  # what to tell the learner about this answer
    explanation: str = ""  # the question's explanation, shown when the answer is wrong
    error: str = ""  # the error the answer caused, e.g. "SyntaxError: invalid syntax"
    # correct | incorrect | a platform failure (busy, sandbox-error)
    verdict: Verdict = Verdict.INCORRECT

    def __post_init__(self) -> None:
        # A word (a test's) becomes its member here, once, as in ``Grade``; and a right answer
        # is never given a wrong one's verdict by the default.
        object.__setattr__(self, "verdict", Verdict(self.verdict))
        if self.correct != (self.verdict is Verdict.CORRECT):
            raise ValueError(f"a blank judged correct={self.correct} with verdict {self.verdict}")

    def to_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "verdict": self.verdict.value,
            "message": self.message,
            "explanation": self.explanation,
            "error": self.error,
        }


def _squash(text: str) -> str:
    return " ".join(text.split())


def _right(question: BlankQuestion, message: str | None = None) -> BlankVerdict:
    return BlankVerdict(True, message or _("Correct."), "", "", Verdict.CORRECT)


def _wrong(question: BlankQuestion, message: str, error: str = "") -> BlankVerdict:
    return BlankVerdict(False, message, question.explanation, error, Verdict.INCORRECT)


@dataclass(frozen=True)
class BlankProgram:
    setup: str  # run first, privately: the answer cannot read its text (wire.PRIVATE_END)
    visible: str  # the line with the answer, as the learner's error points into it
    capture: tuple[str, ...]

    @property
    def code(self) -> str:
        """What the sandbox runs."""
        return f"{self.setup}\n{PRIVATE_END}{self.visible}"


def fill(question: BlankQuestion, answer: str) -> str | SyntaxError:
    """The question's line with the blank replaced: in brackets when that is valid Python, so
    the answer keeps its meaning whatever operators surround the blank."""
    raw = question.code.replace(BLANK, answer)
    bracketed = question.code.replace(BLANK, f"({answer})")
    for line in (bracketed, raw):
        try:
            parse_tree(line)
            return line
        except PARSE_ERRORS as exc:
            error = exc if isinstance(exc, SyntaxError) else SyntaxError(str(exc))
    return error


def build(setup: str, line: str) -> BlankProgram:
    """The program that runs ``line`` after ``setup`` and what to capture from it. A name the line
    assigns is removed first, so the setup's own value of it cannot stand in for the answer. The
    setup (by default the lesson's solution) runs privately: an answer object that reads its
    program's text, linecache or frames finds only the line itself."""
    tree = parse_tree(line)
    stmt = tree.body[0] if len(tree.body) == 1 else None
    if isinstance(stmt, ast.Expr):
        expr = ast.get_source_segment(line, stmt.value) or ast.unparse(stmt.value)
        return BlankProgram(setup, f"{VALUE_NAME} = ({expr})\n", (VALUE_NAME,))
    targets: list[str] = []
    clear = False
    if isinstance(stmt, ast.Assign):
        targets = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
        clear = True
    elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and isinstance(stmt.target, ast.Name):
        targets = [stmt.target.id]
        clear = isinstance(stmt, ast.AnnAssign)
    pops = "".join(f"globals().pop({t!r}, None)\n" for t in targets) if clear else ""
    return BlankProgram(setup, f"{pops}{line}\n", tuple(targets))


async def _reference(
    lesson: Lesson,
    question: BlankQuestion,
    program: BlankProgram,
    sandbox: Runner,
    gate: asyncio.Semaphore | None = None,
) -> RunResult:
    """The reference answer's run under ``setup``, kept in the one reference cache once it
    succeeded (a failure is never kept: it may be the moment's, e.g. a limit hit under load)."""
    key = (*cache_key(lesson), "blank", question.id, question.code, question.answer, program.setup)
    if isinstance(hit := recall(key), RunResult):
        return hit
    run = await run_one(
        sandbox,
        program.code,
        filename=_FILENAME,
        limits=limits_for(lesson),
        capture=program.capture,
        gate=gate,
        patient=True,
        stdin=lesson.exercise.stdin,  # a setup (the solution) may read it
    )
    if run.ok:
        keep(key, run)
    return run


def check_blank(
    lesson: Lesson,
    question: BlankQuestion,
    answer: str,
    sandbox: Runner | None = None,
    *,
    client: str | None = None,
) -> BlankVerdict:
    return run_sync(acheck_blank(lesson, question, answer, sandbox, client=client))


async def acheck_blank(
    lesson: Lesson,
    question: BlankQuestion,
    answer: str,
    sandbox: Runner | None = None,
    *,
    gate: asyncio.Semaphore | None = None,
    client: str | None = None,
) -> BlankVerdict:
    """``client``: whom the sandbox counts the run to (see ``agrade``)."""
    text = answer.strip()
    if not text:
        return _wrong(question, _("Fill in the blank first."))
    if question.check == "exact":
        accepted = {_squash(a) for a in (question.answer, *question.accept)}
        if _squash(text) in accepted:
            return _right(question)
        return _wrong(question, _("That is not the expected answer."))
    if question.check == "regex":
        try:
            ok = re.fullmatch(question.answer, text) is not None
        except re.error:
            return _wrong(
                question, _("This question's answer pattern is broken; please report it.")
            )
        if ok or _squash(text) in {_squash(a) for a in question.accept}:
            return _right(question)
        return _wrong(question, _("That is not the expected answer."))
    return await _by_value(lesson, question, text, sandbox or get_sandbox(), gate, client)


def _read(
    lesson: Lesson, question: BlankQuestion, text: str
) -> BlankVerdict | list[tuple[str, BlankProgram, BlankProgram]]:
    """The answer read and checked before anything runs: a verdict already, or for each setup
    (its name, ``""`` first) the answer's program and the reference answer's."""
    if "\n" in text:
        return _wrong(question, _("The blank takes one line of code."))
    if question.code.count(BLANK) != 1:
        return _wrong(
            question, _("This question's line has no single ____ to fill; please report it.")
        )
    mine = fill(question, text)
    if isinstance(mine, SyntaxError):
        return _wrong(
            question,
            _("That is not valid Python in this line."),
            f"SyntaxError: {mine.msg}",
        )
    banned = forbidden_in(question, text)
    if banned:
        return _wrong(
            question,
            _(
                "Your answer uses `{token}`, which this question rules out: work the value out "
                "from what the line is given instead of writing it in."
            ).format(token=banned),
        )
    theirs = fill(question, question.answer)
    if isinstance(theirs, SyntaxError):
        return _wrong(
            question, _("This question's own answer is not valid Python; please report it.")
        )
    setups = [("", question.setup or lesson.exercise.solution)]
    setups += [(v.name, v.setup) for v in question.variants]
    return [(name, build(setup, mine), build(setup, theirs)) for name, setup in setups]


async def _by_value(
    lesson: Lesson,
    question: BlankQuestion,
    text: str,
    sandbox: Runner,
    gate: asyncio.Semaphore | None,
    client: str | None,
) -> BlankVerdict:
    # Off the event loop: the answer is parsed, tokenized and filled in, at a cost that grows
    # with its length (see `agrade`).
    programs = await asyncio.to_thread(_read, lesson, question, text)
    if isinstance(programs, BlankVerdict):
        return programs
    limits = limits_for(lesson)

    async def judged(name: str, mine_p: BlankProgram, theirs_p: BlankProgram) -> BlankVerdict:
        run, ref = await asyncio.gather(
            run_one(
                sandbox,
                mine_p.code,
                filename=_FILENAME,
                limits=limits,
                capture=theirs_p.capture,
                gate=gate,
                patient=gate is not None,
                client=client,
                stdin=lesson.exercise.stdin,
            ),
            _reference(lesson, question, theirs_p, sandbox, gate),
        )
        if ref.verdict in MOMENTARY:
            # The reference answer ran out of time or memory: maybe only the load's doing, so
            # the answer is not judged against it (nor is it kept).
            reference_failed(lesson, f"question {question.id} {name}".rstrip(), ref)
            return _unchecked(ref)
        return _compare(question, mine_p, theirs_p, run, ref, name)

    verdicts = await asyncio.gather(*(judged(*program) for program in programs))
    failed = [v for v in verdicts if v.verdict is not Verdict.CORRECT]
    platform = [v for v in failed if v.verdict.platform]
    return (platform or failed or verdicts)[0]


def forbidden_in(question: BlankQuestion, text: str) -> str:
    """The first of the question's forbidden tokens that ``text`` uses, or ``""``."""
    if not question.forbid:
        return ""
    used = set(tokens(text) or ())
    for item in question.forbid:
        if single_token(item) in used:
            return item.strip()
    return ""


def _unchecked(run: RunResult) -> BlankVerdict:
    """The platform could not judge the answer (``run``, a platform failure or a momentary
    one): a platform verdict, and nothing held against the learner."""
    platform = Verdict.of(run) if platform_failed(run) else Verdict.SANDBOX_ERROR
    return BlankVerdict(
        False,
        _("The sandbox could not check your answer just now. Please try again."),
        "",
        "",
        platform,
    )


def _compare(
    question: BlankQuestion,
    mine_p: BlankProgram,
    theirs_p: BlankProgram,
    run: RunResult,
    ref: RunResult,
    variant: str,
) -> BlankVerdict:
    """The verdict on one setup; ``variant`` names a variant's setup (``""``: the first)."""
    for r in (run, ref):
        if platform_failed(r):
            return _unchecked(r)

    if not ref.ok:
        return _wrong(question, _("This question cannot be checked: its own answer fails to run."))
    if not run.ok:
        error, hints = _error(run, mine_p)
        text = (
            _("With other values (“{variant}”), that answer fails when it runs.")
            if variant
            else _("That answer fails when it runs.")
        )
        return _wrong(question, " ".join([text.format(variant=variant), *hints]), error)
    if run.stdout != ref.stdout:
        text = (
            _(
                "With other values (“{variant}”), that line prints something different from the "
                "expected one."
            )
            if variant
            else _("That line prints something different from the expected one.")
        )
        return _wrong(question, text.format(variant=variant))
    for name in theirs_p.capture:
        if ref.values.get(name) is None and run.values.get(name) is None:
            continue
        label = _("the value") if name == VALUE_NAME else None
        got, expected = run.values.get(name), ref.values.get(name)
        lost = got is not None and _lost_axis(name, got, expected, mine_p.visible, label)
        problems = [lost] if lost else _difference(name, got, expected, label)
        if problems:
            text = (
                _("With other values (“{variant}”), that gives a different value: {difference}")
                if variant
                else _("That gives a different value: {difference}")
            )
            return _wrong(question, text.format(variant=variant, difference=problems[0]))
    return _right(question)


def _error(run: RunResult, program: BlankProgram) -> tuple[str, tuple[str, ...]]:
    """How the answer failed, in words that echo nothing the answer's objects chose: the name of
    a built-in exception (not its message), and the explanations of a shape error (shapes) or of
    a name not defined that the answer itself spells."""
    err = friendly(run.stderr, program.visible, _FILENAME, None)
    etype = err.error_type or ""
    builtin = getattr(builtins, etype, None)
    if not (isinstance(builtin, type) and issubclass(builtin, BaseException)):
        return (etype if etype == "AxisError" else run.verdict), ()
    message = err.message or ""
    if etype == "ValueError" and message.startswith("matmul:"):
        return "ValueError: matmul", err.hints
    if etype == "IndexError":
        return etype, _index_error(message)
    named = re.fullmatch(r"name '(\w+)' is not defined", message)
    if etype == "NameError" and named and named.group(1) in program.visible:
        # "Did you mean" looks among the names the setup defines too.
        whole = f"{program.setup}\n{program.visible}"
        return f"NameError: {message}", friendly(run.stderr, whole, _FILENAME, None).hints
    return etype, ()


_TOO_MANY = re.compile(r"too many indices for array: array is (\d+)-dimensional, but (\d+) were")
_PAST_END = re.compile(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)")


def _index_error(message: str) -> tuple[str, ...]:
    """What NumPy's IndexError means, in our words: only its numbers are read from it, matched
    whole (an answer's own exception could say anything)."""
    if found := _TOO_MANY.match(message):
        ndim, given = found.groups()
        return (
            _(
                "It gives more indices than the array has axes: the array has {ndim}, the answer "
                "{given} (a comma starts the index of the next axis). To pick several rows at "
                "once, put their numbers in a list, in square brackets of its own."
            ).format(ndim=ndim, given=given),
        )
    if found := _PAST_END.match(message):
        index, axis, size = found.groups()
        return (
            _(
                "Index {index} is past the end of axis {axis}, which has {size} entries "
                "(numbered 0 to {last})."
            ).format(index=index, axis=axis, size=size, last=max(int(size) - 1, 0)),
        )
    return ()


# A call that reduces an axis (or keepdims itself): only then is a lost axis a lost keepdims.
_REDUCES = re.compile(
    r"\b(sum|max|min|mean|prod|std|var|argmax|argmin|any|all|norm|median|keepdims)\b"
)


def _lost_axis(name: str, got: Any, expected: Any, code: str, label: str | None) -> str:
    """For an answer that reduces nothing, why an axis went missing (values.py's guess, a sum
    or max that lost keepdims, would send the learner the wrong way); "" otherwise."""
    if _REDUCES.search(code) or isinstance(got, str) or isinstance(expected, str):
        return ""
    got, expected = np.shape(got), np.shape(expected)
    if not (len(got) == len(expected) - 1 and 1 in expected):
        return ""
    return _(
        "{name} has shape {got}, but shape {expected} is expected — an axis went missing: a "
        "single number as an index drops its axis, while a slice (with a colon) keeps it."
    ).format(
        name=f"`{name}`" if label is None else label,
        got=str(tuple(got)),
        expected=str(tuple(expected)),
    )


def _difference(name: str, got: Any, expected: Any, label: str | None) -> list[str]:
    """How the answer's value differs from the expected one, saying of the answer's value only
    its kind and shape: its text or numbers could carry anything the answer's objects read."""
    who = f"`{name}`" if label is None else label
    if got is None:
        return describe_difference(name, got, expected, label=label)[:1]  # not defined
    if isinstance(got, str) or isinstance(expected, str):
        if isinstance(got, str) and isinstance(expected, str) and got == expected:
            return []
        return [_("{name} is not the expected value.").format(name=who)]
    problems = describe_difference(name, got, expected, label=label)
    got = np.asarray(got)
    expected = np.asarray(expected)
    numbers = got.dtype.kind in "biufc" and expected.dtype.kind in "biufc"
    if not problems or got.shape != expected.shape or not numbers:
        return problems[:1]  # equal, or different shapes or kinds: said in shapes and types
    if got.ndim == 0:  # a single number has no shape worth naming
        return [_("{name} is not the expected value.").format(name=who)]
    return [
        _("{name} has the right shape {shape}, but different values.").format(
            name=who, shape=tuple(got.shape)
        )
    ]


async def literal_that_passes(
    lesson: Lesson, question: BlankQuestion, sandbox: Runner, gate: asyncio.Semaphore | None = None
) -> str | None:
    """The reference answer's value written as a bare literal (``4``, ``2.0``, ``(5, 7)``) when
    the question accepts it, else None. An answer that is itself a literal is left alone: there
    the literal is what the author asks for."""
    answer_tokens = tokens(question.answer) or []
    names = [text for kind, text in answer_tokens if kind == "name"]
    if question.check != "value" or all(n in ("True", "False", "None") for n in names):
        return None
    own_value = f"{VALUE_NAME} = ({question.answer})"  # the blank's own value, if it is one
    try:
        parse_tree(own_value)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None  # not an expression (`axis=-1, keepdims=True`): no single value to type in
    setup = question.setup or lesson.exercise.solution
    program = build(setup, own_value)
    ref = await run_one(
        sandbox,
        program.code,
        filename=_FILENAME,
        limits=limits_for(lesson),
        capture=program.capture,
        gate=gate,
        patient=True,
        stdin=lesson.exercise.stdin,  # a setup (the solution) may read it
    )
    if not ref.ok:
        return None
    literal = _as_literal(ref.values.get(program.capture[0]))
    if literal is None:
        return None
    verdict = await acheck_blank(lesson, question, literal, sandbox, gate=gate)
    return literal if verdict.correct else None


def _as_literal(value: Any) -> str | None:
    if isinstance(value, str):  # lessontest's JSON: a tuple, a list, a string...
        try:
            text = repr(literal(captured(value)))
        except (Unreadable, ValueError):
            return None
        return text if len(text) <= 80 else None
    shape = getattr(value, "shape", None)
    if shape == () and hasattr(value, "item"):
        return repr(value.item())
    return None
