"""Grading: a learner's program and a lesson in, a verdict with reasons out.

from codeblanks.grading import grade, agrade, Grade
g = grade(lesson, code)            # -> Grade; g.to_json() is what the CLI and the API print
v = check_blank(lesson, question, "K.T")   # -> BlankVerdict
problems = prove(lesson)           # the runtime half of `codeblanks check`
async for problems in aprove_all(lessons): ...   # many lessons, one loop, the slots full
"""

from codeblanks.grading.blanks import BlankVerdict, acheck_blank, check_blank
from codeblanks.grading.grade import Grade, agrade, grade
from codeblanks.grading.prove import aprove, aprove_all, prove

__all__ = [
    "BlankVerdict",
    "Grade",
    "acheck_blank",
    "agrade",
    "aprove",
    "aprove_all",
    "check_blank",
    "grade",
    "prove",
]
