"""Every hidden case earns its place (``codeblanks check``): each variant and hidden test must
refuse some wrong program (an anticipated mistake, a mutant, a real program of the lesson's
corpus) that the visible case lets through,
or it checks nothing the visible case does not; and a mistake's ``must_fail`` names the cases
whose names promise something (overflow, ties, other sizes) that it must fail there.
"""

from __future__ import annotations

from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem
from codeblanks.grading.cases import VISIBLE
from codeblanks.grading.codes import problem
from codeblanks.grading.compare import compare_output
from codeblanks.grading.functests import differing_tests, outcomes
from codeblanks.grading.pyvalues import compare_values, value_rules
from codeblanks.grading.reference import Reference
from codeblanks.sandbox import RunResult


def refused(lesson: Lesson, ref: Reference, runs: dict[str, RunResult]) -> set[str] | None:
    """The hidden cases (variants, hidden tests) a program's ``runs`` fail where the solution
    passes; None when the visible case (its output, values and visible tests) refuses it."""
    spec, suite = lesson.exercise.grading, lesson.exercise.tests
    hidden_tests = {t.name for t in suite.tests if t.hidden} if suite else set()
    numbers = spec.output == "numbers"
    graded = lesson.exercise.output_graded

    def fails(case: str) -> bool:
        run, sol = runs.get(case), ref.solution[case]
        if run is None or not run.ok:
            return True
        # A function exercise without expected.txt shows what it prints and never compares it.
        if graded:
            output = compare_output(
                run.stdout, ref.expected[case], spec.rtol, spec.atol, numbers=numbers
            )
            if not output.equal:
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


def cases_earn(
    lesson: Lesson,
    ref: Reference,
    programs: list[dict[str, RunResult]],
    constant: dict[str, RunResult] | None = None,
) -> list[Problem]:
    """W010 for each hidden case that refuses none of the wrong ``programs`` (the anticipated
    mistakes, the mutants, the corpus programs) that the visible case lets through: it checks
    nothing more. A real learner's program counts as much as an imagined one: a case that
    refuses one is never useless.

    The ``constant`` printout is refused by any case with other data, so it earns one case its
    place (a lesson needs one to tell a computed answer from a known one), not all of them: the
    first it fails, unless a case it fails already earns its place otherwise."""
    caught: set[str] = set()
    for runs in programs:
        caught |= refused(lesson, ref, runs) or set()
    hidden = _hidden_cases(lesson, ref)
    by_constant = refused(lesson, ref, constant) or set() if constant is not None else set()
    if by_constant and not by_constant & caught:
        caught.add(next(name for name in hidden if name in by_constant))
    return [
        problem(
            "grading.W010",
            lesson.path / "lesson.toml",
            None,
            f"the hidden case “{name}” refuses no mistake, mutant or corpus program that the "
            "visible case lets through",
        )
        for name in hidden
        if name not in caught
    ]


def promises_kept(lesson: Lesson, ref: Reference) -> list[Problem]:
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
