"""The runtime half of ``codeblanks check``: proving that an exercise's checks tell right from
wrong. The solution must pass; the starter must fail; each anticipated mistake must fail with its
own message; every mutant of the solution (see ``mutants.py``) must be rejected; each blank
question must accept its own answer.

Problem codes: ``grading/codes.py`` (each documented in docs/authoring.md).
"""

from __future__ import annotations

import asyncio
import re

from codeblanks.content.model import BlankQuestion, Lesson
from codeblanks.content.problems import Problem
from codeblanks.grading.blanks import acheck_blank, literal_that_passes
from codeblanks.grading.cases import VISIBLE, MissingInputs, substitute
from codeblanks.grading.codes import problem
from codeblanks.grading.compare import compare_output
from codeblanks.grading.examples import aprove_examples
from codeblanks.grading.functests import differing_tests, outcomes, value_name
from codeblanks.grading.grade import Grade, agrade_runs, judge, mistake_id, run_sync
from codeblanks.grading.mutants import mutants
from codeblanks.grading.reference import PLATFORM_FAILURES, Reference, areference, in_flight
from codeblanks.grading.tracebacks import parse
from codeblanks.grading.values import compare_values, value_rules
from codeblanks.sandbox import RunResult, get_sandbox

NO_VARIANTS = "declare [grading] inputs and variants: hidden cases tell them apart"


def prove(lesson: Lesson, sandbox=None) -> list[Problem]:
    return run_sync(aprove(lesson, sandbox))


async def aprove(lesson: Lesson, sandbox=None) -> list[Problem]:
    sandbox = sandbox or get_sandbox()
    ex = lesson.exercise
    spec = ex.grading
    solution_py = lesson.path / "solution.py"
    problems: list[Problem] = []

    # Inputs must be substitutable in every program the grader runs variants of.
    programs = [(ex.solution, solution_py), (ex.starter, lesson.path / "starter.py")]
    programs += [(m.code, m.path) for m in spec.mistakes]
    declared = dict.fromkeys([*spec.inputs, *(n for v in spec.variants for n in v.values)])
    for code, path in programs:
        if declared:
            made = substitute(code, {name: "None" for name in declared})
            if isinstance(made, MissingInputs):
                names = ", ".join(made.names)
                problems.append(
                    problem(
                        "grading.E007",
                        path,
                        None,
                        f"no top-level assignment to the declared input(s) {names}",
                    )
                )

    gate = asyncio.Semaphore(in_flight(sandbox))
    ref = await areference(lesson, sandbox, gate)
    if (failed := ref.platform_failure) is not None:
        return problems + [_sandbox_problem(lesson, failed.verdict)]

    for case, run in ref.solution.items():
        if not run.ok:
            _, etype, msg, _ = parse(run.stderr)
            what = f"{etype}: {msg}" if etype else run.verdict
            problems.append(
                problem(
                    "grading.E006",
                    solution_py,
                    None,
                    f"the sample solution fails on the case “{case}”: {what}",
                )
            )
    visible = ref.solution.get(VISIBLE)
    if visible is not None and visible.ok:
        for name in spec.values:
            if name not in visible.values:
                problems.append(
                    problem(
                        "grading.E009",
                        lesson.path / "lesson.toml",
                        None,
                        f"`{name}` is named in [grading] values but the solution does not "
                        "define it",
                    )
                )

    if visible is not None and visible.ok and ex.tests is not None:
        problems += _failing_tests(lesson, visible)

    mutant_runs: dict[str, dict[str, RunResult]] = {}

    async def graded(code: str) -> Grade:
        runs, reference, missing = await agrade_runs(lesson, code, sandbox, gate, patient=True)
        mutant_runs[code] = runs
        return judge(lesson, code, runs, reference, missing)

    tolerant = spec.rtol > 0 or spec.atol > 0
    printing = ex.tests is None
    made = list(mutants(ex.solution, ex.expected_output, tolerant=tolerant, printing=printing))
    blanks = [q for q in lesson.questions if isinstance(q, BlankQuestion)]
    jobs = [graded(ex.solution), graded(ex.starter)]
    jobs += [graded(m.code) for m in spec.mistakes]
    jobs += [graded(m.code) for m in made]
    # A regex question's `answer` is a pattern: it must compile, and its `accept` texts pass.
    blank_checks = []
    for q in blanks:
        if q.check == "regex":
            try:
                re.compile(q.answer)
            except re.error as exc:
                problems.append(_blank_problem(lesson, q, f"its pattern is invalid ({exc})"))
                continue
            blank_checks += [(q, text) for text in q.accept]
        else:
            blank_checks.append((q, q.answer))
    blank_jobs = [acheck_blank(lesson, q, text, sandbox, gate=gate) for q, text in blank_checks]
    results = await asyncio.gather(*jobs, *blank_jobs)
    grades: list[Grade] = results[: len(jobs)]
    blank_verdicts = results[len(jobs) :]
    solution, starter = grades[0], grades[1]
    mistake_grades = grades[2 : 2 + len(spec.mistakes)]
    mutant_grades = grades[2 + len(spec.mistakes) :]

    every = [g for g in grades if g.verdict in PLATFORM_FAILURES]
    every += [v for v in blank_verdicts if v.verdict in PLATFORM_FAILURES]
    if every:
        return problems + [_sandbox_problem(lesson, every[0].verdict)]

    # Even when two runs happened to agree: a learner's run in another process will not.
    unsupported = _unsupported_returns(lesson, ref.solution.get(VISIBLE))
    problems += unsupported
    if not solution.correct and not unsupported:
        why = "; ".join(solution.feedback) or solution.verdict
        problems.append(
            problem(
                "grading.E001",
                solution_py,
                None,
                f"the sample solution is judged {solution.verdict} on the case "
                f"“{solution.case}”: {why}",
                detail=_printed(solution),
            )
        )
    if starter.correct:
        problems.append(
            problem(
                "grading.E002",
                lesson.path / "starter.py",
                None,
                "the starter code already passes",
            )
        )
    for mistake, g in zip(spec.mistakes, mistake_grades, strict=True):
        if g.correct:
            problems.append(
                problem(
                    "grading.E003",
                    mistake.path,
                    None,
                    "this anticipated mistake is judged correct",
                )
            )
        elif g.mistake != mistake_id(lesson, mistake):
            got = g.feedback[0] if g.feedback else "no message"
            problems.append(
                problem(
                    "grading.E004",
                    mistake.path,
                    None,
                    "this mistake is rejected but its message is not shown "
                    f"(the learner sees: {got})",
                )
            )
    for mutant, g in zip(made, mutant_grades, strict=True):
        if g.correct:
            fix = None if spec.variants or ex.tests else NO_VARIANTS
            problems.append(
                problem(
                    "grading.E005",
                    solution_py,
                    mutant.line,
                    f"this check cannot tell {mutant.description} from the solution",
                    fix,
                )
            )
    for (q, _), v in zip(blank_checks, blank_verdicts, strict=True):
        if not v.correct:
            why = v.message + (f" ({v.error})" if v.error else "")
            problems.append(_blank_problem(lesson, q, why))
    accepted = [q for (q, _), v in zip(blank_checks, blank_verdicts, strict=True) if v.correct]
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
    # The constant printout is refused by any case with other data: it proves no case's worth.
    others = [runs for _, runs in ref.mistakes]
    others += [mutant_runs[m.code] for m in made if m.kind != "constant-output"]
    problems += prove_cases_earn(lesson, ref, others)
    problems += prove_promises(lesson, ref)
    problems += await aprove_examples(lesson, sandbox)
    return problems


def refused(lesson: Lesson, ref: Reference, runs: dict[str, RunResult]) -> set[str] | None:
    """The hidden cases (variants, hidden tests) a program's ``runs`` fail where the solution
    passes; None when the visible case (its output, values and visible tests) refuses it."""
    spec, suite = lesson.exercise.grading, lesson.exercise.tests
    hidden_tests = {t.name for t in suite.tests if t.hidden} if suite else set()
    numbers = spec.output == "numbers"

    def fails(case: str) -> bool:
        run, sol = runs.get(case), ref.solution[case]
        if run is None or not run.ok:
            return True
        expected = ref.expected[case]
        if not compare_output(run.stdout, expected, spec.rtol, spec.atol, numbers=numbers).equal:
            return True
        return bool(compare_values(run.values, sol.values, spec.values, **value_rules(spec)))

    sol_vis = ref.solution.get(VISIBLE)
    if sol_vis is None or not sol_vis.ok or fails(VISIBLE):
        return None
    tests = differing_tests(lesson, runs[VISIBLE], sol_vis)
    if tests - hidden_tests:
        return None
    cases = {c for c, r in ref.solution.items() if c != VISIBLE and r.ok and fails(c)}
    return cases | tests


def _hidden_cases(lesson: Lesson, ref: Reference) -> list[str]:
    """The hidden cases the solution passes: its variants, then its hidden tests."""
    names = [v.name for v in lesson.exercise.grading.variants if ref.solution.get(v.name)]
    names = [n for n in names if ref.solution[n].ok]
    suite, sol = lesson.exercise.tests, ref.solution.get(VISIBLE)
    if suite is not None and sol is not None and sol.ok:
        passed = {o.name for o in outcomes(sol) or () if o.status == "passed"}
        names += [t.name for t in suite.tests if t.hidden and t.name in passed]
    return names


def prove_cases_earn(
    lesson: Lesson, ref: Reference, programs: list[dict[str, RunResult]]
) -> list[Problem]:
    """W010 for each hidden case that refuses none of the wrong ``programs`` (the anticipated
    mistakes, the mutants) that the visible case lets through: it checks nothing more."""
    caught: set[str] = set()
    for runs in programs:
        caught |= refused(lesson, ref, runs) or set()
    return [
        problem(
            "grading.W010",
            lesson.path / "lesson.toml",
            None,
            f"the hidden case “{name}” refuses no mistake or mutant that the visible case "
            "lets through",
        )
        for name in _hidden_cases(lesson, ref)
        if name not in caught
    ]


def prove_promises(lesson: Lesson, ref: Reference) -> list[Problem]:
    """E020 for each hidden case a mistake's ``must_fail`` names that the mistake passes: the
    case does not do what its name promises (scores that overflow, ties, other sizes)."""
    found = []
    for mistake, runs in ref.mistakes:
        if not mistake.must_fail:
            continue
        failed = refused(lesson, ref, runs)
        for name in mistake.must_fail:
            if failed is not None and name in failed:
                continue
            why = (
                "the visible case already refuses it, so it proves nothing about that case"
                if failed is None
                else "it passes that case"
            )
            message = f"this mistake must fail the hidden case “{name}”, but {why}"
            found.append(problem("grading.E020", mistake.path, None, message))
    return found


RETURNABLE = (
    "return a number or a NumPy array of numbers (a str, list or tuple is compared by its "
    "repr(), which must be the same on every run), or check the property in the test with "
    "`assert` and return nothing"
)
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _unsupported_returns(lesson: Lesson, run: RunResult | None) -> list[Problem]:
    """E001 for each test whose return value the grader cannot compare between two runs: one
    too large to hand back, or an object shown by its address (which changes from run to run)."""
    found = outcomes(run) if run is not None and lesson.exercise.tests is not None else None
    by_name = {o.name: o for o in found or ()}
    problems = []
    for index, test in enumerate(lesson.exercise.tests.tests if found else ()):
        outcome = by_name.get(test.name)
        if outcome is None or not outcome.returned:
            continue
        value = run.values.get(value_name(index))
        if value is None:
            what = "a value too large to hand back from the sandbox (over 4 MB)"
        elif isinstance(value, str) and _ADDRESS.search(value):
            shown = value if len(value) <= 60 else value[:57] + "..."
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
