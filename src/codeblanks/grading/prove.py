"""TEMPORARY: the runtime half of `codeblanks check`, reduced to its first two proofs (the
solution passes, the starter does not). The grading issue replaces the insides."""

from __future__ import annotations

from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem
from codeblanks.grading.grade import grade


def prove(lesson: Lesson, sandbox=None) -> list[Problem]:
    problems = []
    ex = lesson.exercise
    result = grade(lesson, ex.solution, sandbox)
    if not result.correct:
        problems.append(Problem("grading.E001", lesson.path / "solution.py", None,
                                f"the sample solution is judged {result.verdict}",
                                "make expected.txt the solution's exact output"))
    if grade(lesson, ex.starter, sandbox).correct:
        problems.append(Problem("grading.E002", lesson.path / "starter.py", None,
                                "the starter code already passes", "leave a real blank in it"))
    return problems
