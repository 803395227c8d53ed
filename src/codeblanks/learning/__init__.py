"""What a learner does with a lesson, once for every door (the web pages, the JSON API, the
terminal's local mode): run, answer, hints, the solution, review, and a grade in words.

    from codeblanks.learning import Tutor, JsonProgress
    tutor = Tutor(JsonProgress(path), get_sandbox, "tr")
    outcome = await tutor.run(lesson, code, client="me")   # RunOutcome: grade, view, refusal

The ports (the seams a door plugs in):
    Progress   learning/progress.py   what is remembered: the web's DjangoProgress, the
                                      terminal's JsonProgress, NoProgress for a tokenless call
    Runner     sandbox/result.py      what runs programs: the Sandbox, or a test double
    Quota      learning/tutor.py      a door's limits, asked before anything runs

May import grading, content, sandbox and i18n; never web or cli (tests/architecture)."""

from codeblanks.learning.progress import JsonProgress, NoProgress, Progress
from codeblanks.learning.tutor import AnswerOutcome, Hint, Refusal, RunOutcome, Tutor

__all__ = [
    "AnswerOutcome",
    "Hint",
    "JsonProgress",
    "NoProgress",
    "Progress",
    "Refusal",
    "RunOutcome",
    "Tutor",
]
