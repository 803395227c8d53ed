"""The runtime half of ``codeblanks check``: proving that an exercise's checks tell right from
wrong. The solution must pass; the starter must fail; each anticipated mistake must fail with its
own message; every mutant of the solution (see ``mutants.py``) must be rejected; each blank
question must accept its own answer; each real program of the lesson's corpus must keep the
verdict it records (``corpus.py``).

Problem codes: ``grading/codes.py`` (each documented in docs/authoring.md).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass

from codeblanks.content.model import BlankQuestion, CorpusProgram, Lesson
from codeblanks.content.problems import Problem
from codeblanks.grading import pydata
from codeblanks.grading.blanks import BlankVerdict, acheck_blank, literal_that_passes
from codeblanks.grading.cases import VISIBLE, MissingInputs, substitute
from codeblanks.grading.codes import problem
from codeblanks.grading.corpus import verdicts_held
from codeblanks.grading.earning import cases_earn, promises_kept
from codeblanks.grading.examples import aprove_examples
from codeblanks.grading.functests import ADDRESS, outcomes
from codeblanks.grading.grade import Grade, agrade_runs, judge, mistake_id, run_sync
from codeblanks.grading.mutants import Mutant, mutants
from codeblanks.grading.reference import Reference, areference, in_flight
from codeblanks.grading.shared import shared
from codeblanks.grading.tracebacks import parse
from codeblanks.sandbox import RunResult, get_sandbox
from codeblanks.sandbox.inside.lessontest import value_name
from codeblanks.sandbox.result import Runner

NO_VARIANTS = "declare [grading] inputs and variants: hidden cases tell them apart"


@dataclass(frozen=True)
class Graded:
    """A program judged exactly as a learner's would be: its grade and its runs."""

    grade: Grade
    runs: dict[str, RunResult]


@dataclass(frozen=True)
class Proof:
    """What the proofs after the runs read: the lesson, its reference, each program judged."""

    lesson: Lesson
    ref: Reference
    solution: Graded
    starter: Graded
    mistakes: tuple[Graded, ...]  # in the order of the lesson's mistakes
    mutants: tuple[tuple[Mutant, Graded], ...]
    corpus: tuple[tuple[CorpusProgram, Graded], ...] = ()  # in the order of lesson.corpus

    def every(self) -> list[Graded]:
        return [
            self.solution,
            self.starter,
            *self.mistakes,
            *(g for _, g in self.mutants),
            *(g for _, g in self.corpus),
        ]


Seen = Callable[[Proof], object]


def prove(lesson: Lesson, sandbox: Runner | None = None) -> list[Problem]:
    return run_sync(aprove(lesson, sandbox))


async def aprove_all(
    lessons: Sequence[Lesson], sandbox: Runner | None = None, seen: Seen | None = None
) -> AsyncGenerator[list[Problem], None]:
    """The problems of each of ``lessons`` (every version of every lesson: a translation is a
    program of its own), yielded in their order, on one event loop through one gate: while a
    lesson waits on its last runs the next ones' runs keep the sandbox's slots full. Lessons
    open in their order, as many at once as the gate lets runs in, so the first ones finish
    first and a caller can show each as it comes. A batch asked for again is run once
    (``shared.py``). ``seen``: as for ``aprove``."""
    sandbox = shared(sandbox or get_sandbox())
    gate = asyncio.Semaphore(in_flight(sandbox))
    room = asyncio.Semaphore(in_flight(sandbox))

    async def proved(lesson: Lesson) -> list[Problem]:
        async with room:
            return await aprove(lesson, sandbox, gate, seen)

    tasks = [asyncio.create_task(proved(lesson)) for lesson in lessons]
    try:
        for task in tasks:
            yield await task
    finally:  # the caller stopped early, or a proof raised: the rest are not left running
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def aprove(
    lesson: Lesson,
    sandbox: Runner | None = None,
    gate: asyncio.Semaphore | None = None,
    seen: Seen | None = None,
) -> list[Problem]:
    """Every proof of ``lesson``, one function each (Django's system checks are the model): the
    ones that read the reference runs, then the ones that judge programs as a learner's.
    ``gate``: shared with the proofs of other lessons (``aprove_all``), else its own. ``seen``
    is given the programs judged (the golden transcript's test reads their grades there)."""
    sandbox = shared(sandbox or get_sandbox())
    problems = prove_inputs(lesson)
    gate = gate or asyncio.Semaphore(in_flight(sandbox))
    ref = await areference(lesson, sandbox, gate)
    if (failed := ref.platform_failure) is not None:
        return problems + [_sandbox_problem(lesson, failed.verdict)]
    for check in (prove_solution_runs, prove_values_named, prove_tests_pass):
        problems += check(lesson, ref)

    invalid, checks = _blank_checks(lesson)
    proof, verdicts = await asyncio.gather(
        _judged(lesson, ref, sandbox, gate),
        asyncio.gather(*(acheck_blank(lesson, q, text, sandbox, gate=gate) for q, text in checks)),
    )
    if seen is not None:
        seen(proof)
    broken = [g.grade.verdict for g in proof.every() if g.grade.verdict.platform]
    broken += [v.verdict for v in verdicts if v.verdict.platform]
    if broken:
        return problems + invalid + [_sandbox_problem(lesson, broken[0])]
    for judged in (
        prove_solution_passes,
        prove_starter_fails,
        prove_mistakes,
        prove_mutants,
        prove_cases_earn,
        prove_promises,
        prove_corpus,
    ):
        problems += judged(proof)
    problems += invalid + await prove_blanks(lesson, checks, verdicts, sandbox, gate)
    problems += await aprove_examples(lesson, sandbox, gate)
    return problems


async def _judged(
    lesson: Lesson, ref: Reference, sandbox: Runner, gate: asyncio.Semaphore
) -> Proof:
    """The solution, the starter, each mistake, each mutant and each corpus program, judged as
    a learner's."""
    ex, spec = lesson.exercise, lesson.exercise.grading

    async def graded(code: str) -> Graded:
        runs, reference, missing = await agrade_runs(lesson, code, sandbox, gate, patient=True)
        return Graded(judge(lesson, code, runs, reference, missing), runs)

    tolerant = spec.rtol > 0 or spec.atol > 0
    printing = ex.tests is None
    made = list(mutants(ex.solution, ex.expected_output, tolerant=tolerant, printing=printing))
    codes = [ex.solution, ex.starter, *(m.code for m in spec.mistakes), *(m.code for m in made)]
    codes += [p.code for p in lesson.corpus]
    found = await asyncio.gather(*(graded(code) for code in codes))
    after_mistakes = 2 + len(spec.mistakes)
    after_mutants = after_mistakes + len(made)
    return Proof(
        lesson,
        ref,
        found[0],
        found[1],
        tuple(found[2:after_mistakes]),
        tuple(zip(made, found[after_mistakes:after_mutants], strict=True)),
        tuple(zip(lesson.corpus, found[after_mutants:], strict=True)),
    )


def prove_inputs(lesson: Lesson) -> list[Problem]:
    """E007: the inputs must be substitutable in every program the grader runs variants of."""
    ex, spec = lesson.exercise, lesson.exercise.grading
    programs = [
        (ex.solution, lesson.path / "solution.py"),
        (ex.starter, lesson.path / "starter.py"),
    ]
    programs += [(m.code, m.path) for m in spec.mistakes]
    declared = dict.fromkeys([*spec.inputs, *(n for v in spec.variants for n in v.values)])
    problems = []
    for code, path in programs if declared else ():
        made = substitute(code, {name: "None" for name in declared})
        if isinstance(made, MissingInputs):
            names = ", ".join(made.names)
            message = f"no top-level assignment to the declared input(s) {names}"
            problems.append(problem("grading.E007", path, None, message))
    return problems


def prove_solution_runs(lesson: Lesson, ref: Reference) -> list[Problem]:
    """E006: the solution runs to its end on every case."""
    problems = []
    for case, run in ref.solution.items():
        if not run.ok:
            _, etype, msg, _ = parse(run.stderr)
            what = f"{etype}: {msg}" if etype else run.verdict
            message = f"the sample solution fails on the case “{case}”: {what}"
            problems.append(problem("grading.E006", lesson.path / "solution.py", None, message))
    return problems


def prove_values_named(lesson: Lesson, ref: Reference) -> list[Problem]:
    """E009: every compared value is one the solution defines."""
    visible = ref.solution.get(VISIBLE)
    if visible is None or not visible.ok:
        return []
    return [
        problem(
            "grading.E009",
            lesson.path / "lesson.toml",
            None,
            f"`{name}` is named in [grading] values but the solution does not define it",
        )
        for name in lesson.exercise.grading.values
        if name not in visible.values
    ]


def prove_tests_pass(lesson: Lesson, ref: Reference) -> list[Problem]:
    """E011: every test of a function exercise passes against the solution."""
    visible = ref.solution.get(VISIBLE)
    if visible is None or not visible.ok or lesson.exercise.tests is None:
        return []
    return _failing_tests(lesson, visible)


def prove_solution_passes(proof: Proof) -> list[Problem]:
    """E001: the solution is judged correct; a test's return value must be comparable (even
    when two runs happened to agree: a learner's run in another process will not)."""
    lesson, solution = proof.lesson, proof.solution.grade
    unsupported = _unsupported_returns(lesson, proof.ref.solution.get(VISIBLE))
    if solution.correct or unsupported:
        return unsupported
    why = "; ".join(solution.feedback) or solution.verdict
    return [
        problem(
            "grading.E001",
            lesson.path / "solution.py",
            None,
            f"the sample solution is judged {solution.verdict} on the case "
            f"“{solution.case}”: {why}",
            detail=_printed(solution),
        )
    ]


def prove_starter_fails(proof: Proof) -> list[Problem]:
    """E002: the starter, as given, does not pass."""
    if not proof.starter.grade.correct:
        return []
    path = proof.lesson.path / "starter.py"
    return [problem("grading.E002", path, None, "the starter code already passes")]


def prove_mistakes(proof: Proof) -> list[Problem]:
    """E003, E004: each anticipated mistake fails, with its own message."""
    problems = []
    spec = proof.lesson.exercise.grading
    for mistake, judged in zip(spec.mistakes, proof.mistakes, strict=True):
        g = judged.grade
        if g.correct:
            message = "this anticipated mistake is judged correct"
            problems.append(problem("grading.E003", mistake.path, None, message))
        elif g.mistake != mistake_id(proof.lesson, mistake):
            got = g.feedback[0] if g.feedback else "no message"
            message = (
                f"this mistake is rejected but its message is not shown (the learner sees: {got})"
            )
            problems.append(problem("grading.E004", mistake.path, None, message))
    return problems


def prove_mutants(proof: Proof) -> list[Problem]:
    """E005: every mutant of the solution is refused."""
    ex = proof.lesson.exercise
    fix = None if ex.grading.variants or ex.tests else NO_VARIANTS
    return [
        problem(
            "grading.E005",
            proof.lesson.path / "solution.py",
            mutant.line,
            f"this check cannot tell {mutant.description} from the solution",
            fix,
        )
        for mutant, judged in proof.mutants
        if judged.grade.correct
    ]


def prove_cases_earn(proof: Proof) -> list[Problem]:
    """W010 (earning.py): what the mistakes, the mutants and the corpus's real programs show
    each hidden case refuses."""
    programs = [g.runs for g in proof.mistakes]
    programs += [g.runs for _, g in proof.corpus]
    programs += [g.runs for m, g in proof.mutants if m.kind != "constant-output"]
    constant = next((g.runs for m, g in proof.mutants if m.kind == "constant-output"), None)
    return cases_earn(proof.lesson, proof.ref, programs, constant)


def prove_promises(proof: Proof) -> list[Problem]:
    """E020 (earning.py)."""
    return promises_kept(proof.lesson, proof.ref)


def prove_corpus(proof: Proof) -> list[Problem]:
    """E040, E041 (corpus.py): each corpus program keeps the verdict it records."""
    return verdicts_held(proof.lesson, ((p, g.grade) for p, g in proof.corpus))


def _blank_checks(lesson: Lesson) -> tuple[list[Problem], list[tuple[BlankQuestion, str]]]:
    """The answers each blank question must accept, and E008 for a regex that does not compile
    (a regex question's `answer` is a pattern; its `accept` texts must pass)."""
    invalid, checks = [], []
    for q in (q for q in lesson.questions if isinstance(q, BlankQuestion)):
        if q.check != "regex":
            checks.append((q, q.answer))
            continue
        try:
            re.compile(q.answer)
        except re.error as exc:
            invalid.append(_blank_problem(lesson, q, f"its pattern is invalid ({exc})"))
            continue
        checks += [(q, text) for text in q.accept]
    return invalid, checks


async def prove_blanks(
    lesson: Lesson,
    checks: list[tuple[BlankQuestion, str]],
    verdicts: list[BlankVerdict],
    sandbox: Runner,
    gate: asyncio.Semaphore,
) -> list[Problem]:
    """E008: each blank question accepts its own answers; W001: a value blank does not accept
    its value typed in as a literal."""
    problems = []
    for (q, _), v in zip(checks, verdicts, strict=True):
        if not v.correct:
            why = v.message + (f" ({v.error})" if v.error else "")
            problems.append(_blank_problem(lesson, q, why))
    accepted = [q for (q, _), v in zip(checks, verdicts, strict=True) if v.correct]
    literals = await asyncio.gather(
        *(literal_that_passes(lesson, q, sandbox, gate) for q in accepted)
    )
    for q, literal in zip(accepted, literals, strict=True):
        if literal is not None:
            problems.append(
                problem(
                    "grading.W001",
                    lesson.path / "questions.toml",
                    None,
                    f"the blank question “{q.id}” accepts `{literal}`, its value typed in",
                )
            )
    return problems


RETURNABLE = (
    "return a number or a NumPy array of numbers, or plain Python values (str, list, tuple, "
    "dict, set, None, an object with attributes), which are compared as Python compares them; "
    "or check the property in the test with `assert` and return nothing"
)


def _address_only(value: object, encoded: bool) -> str | None:
    """The repr of a returned object known only by its address (no attributes to compare), cut
    to 60 characters; None for any other value."""
    try:
        found = pydata.read(value, encoded)
    except pydata.Unreadable:
        return None
    if not isinstance(found, pydata.Thing) or found.kind != "object" or found.items:
        return None
    if not ADDRESS.search(found.text):
        return None
    return found.text if len(found.text) <= 60 else found.text[:57] + "..."


def _unsupported_returns(lesson: Lesson, run: RunResult | None) -> list[Problem]:
    """E001 for each test whose return value the grader cannot compare between two runs: one
    too large to hand back, or an object shown by its address (which changes from run to run)."""
    tests = lesson.exercise.tests
    found = outcomes(run) if run is not None and tests is not None else None
    if run is None or tests is None or not found:
        return []
    by_name = {o.name: o for o in found}
    problems = []
    for index, test in enumerate(tests.tests):
        outcome = by_name.get(test.name)
        if outcome is None or not outcome.returned:
            continue
        value = run.values.get(value_name(index))
        if value is None:
            what = "a value too large to hand back from the sandbox (over 4 MB)"
        elif (shown := _address_only(value, outcome.encoded)) is not None:
            what = f"an object that prints as its address ({shown}), new on every run"
        else:
            continue
        problems.append(
            problem(
                "grading.E001",
                lesson.path / "tests.py",
                None,
                f"the test “{test.name}” returns {what}, so no run can equal the solution's",
                RETURNABLE,
            )
        )
    return problems


def _printed(g: Grade) -> str:
    """What the solution printed, as a diff from expected.txt (shown under the problem)."""
    return "\n".join(line.replace("+++ your output", "+++ solution.py printed") for line in g.diff)


def _failing_tests(lesson: Lesson, solution: RunResult) -> list[Problem]:
    """E011 for every test the sample solution does not pass (or all, when none reported)."""
    path = lesson.path / "tests.py"
    found = outcomes(solution)
    if found is None:
        return [problem("grading.E011", path, None, "the tests did not run after the solution")]
    return [
        problem(
            "grading.E011",
            path,
            None,
            f"the test “{o.name}” {'fails' if o.status == 'failed' else 'stops'} against the "
            f"solution: {o.message or o.status}"
            + (f" (solution.py line {o.line})" if o.line else ""),
        )
        for o in found
        if o.status != "passed"
    ]


def _blank_problem(lesson: Lesson, question: BlankQuestion, why: str) -> Problem:
    return problem(
        "grading.E008",
        lesson.path / "questions.toml",
        None,
        f"the blank question “{question.id}” does not accept its own answer: {why}",
    )


def _sandbox_problem(lesson: Lesson, verdict: str) -> Problem:
    return problem(
        "grading.E010",
        lesson.path,
        None,
        f"the sandbox failed ({verdict}) while proving the checks; nothing was proven",
    )
