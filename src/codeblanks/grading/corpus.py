"""``check`` holds the corpus: every real program kept in a lesson's ``corpus/``
(``content/corpus.py``) is graded again, as a learner's would be, and must get the verdict its
``# expect:`` line records. A lesson change that flips one (a case removed, a tolerance widened,
a solution edited) is an error naming the program; when the change is meant, the author says so
by editing that line.
"""

from __future__ import annotations

from collections.abc import Iterable

from codeblanks.content.model import CorpusProgram, Lesson
from codeblanks.content.problems import Problem
from codeblanks.grading.codes import problem
from codeblanks.grading.grade import Grade
from codeblanks.grading.verdicts import Verdict

# what a corpus program may expect: every verdict that is the program's doing
EXPECTABLE = tuple(v.value for v in Verdict if not v.platform)


def verdicts_held(lesson: Lesson, graded: Iterable[tuple[CorpusProgram, Grade]]) -> list[Problem]:
    """E040 for each corpus program graded otherwise than it expects; E041 for one whose first
    line names no verdict a program can get."""
    problems = []
    for program, grade in graded:
        if program.expect not in EXPECTABLE:
            said = f"“{program.expect}”" if program.expect else "nothing"
            message = f"its first line expects {said}; write `# expect: <verdict>`"
            problems.append(problem("grading.E041", program.path, 1, message))
        elif grade.verdict != program.expect:
            where = f" on the case “{grade.case}”" if grade.case and not grade.correct else ""
            why = f": {grade.feedback[0]}" if grade.feedback and not grade.correct else ""
            message = (
                f"this corpus program expects “{program.expect}” but is now judged "
                f"“{grade.verdict}”{where}{why}"
            )
            problems.append(problem("grading.E040", program.path, 1, message))
    return problems
