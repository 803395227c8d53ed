"""Grading: a learner's program and a lesson in, a verdict with reasons out.

    from codeblanks.grading import grade, agrade, Grade
    g = grade(lesson, code)            # -> Grade; g.to_json() is what `grade --json` and the API print
"""

from codeblanks.grading.grade import Grade, agrade, grade
from codeblanks.grading.prove import prove

__all__ = ["Grade", "agrade", "grade", "prove"]
