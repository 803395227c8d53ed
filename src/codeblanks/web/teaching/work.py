"""A learner's work in one lesson of a class, for the class's teachers only: every graded run
(when, the verdict, the failing case, the program and what changed since the run before) and
every answer given to a question. So a teacher can help a stuck learner, or see how a solve
came about. Learners are told of it where they join (join.html) and in docs/teachers.md."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from datetime import datetime

from codeblanks.content.model import Lesson
from codeblanks.grading.verdicts import Verdict
from codeblanks.web.models import Attempt, LessonProgress
from codeblanks.web.teaching import scores
from codeblanks.web.teaching.analysis import answer_text
from codeblanks.web.teaching.classes import class_lessons, display_name
from codeblanks.web.teaching.models import AnswerEvent, Classroom, Extension

MAX_ATTEMPTS = 500  # the latest ones; a page of more helps no one


@dataclass(frozen=True)
class Try:
    at: datetime
    verdict: str
    case: str
    code: str  # "" when it was not kept (longer than analysis.WRONG_CODE_CHARS)
    mistake: str
    diff: list[str]  # the unified diff to the run before ([] for the first, or no change)

    @property
    def label(self) -> str:
        """The verdict in the reader's language."""
        return Verdict.label_of(self.verdict)

    @property
    def diff_rows(self) -> list[tuple[str, str, str]]:
        """(css class, sign, text) per diff line, in the run page's diff styles: a line
        removed since the run before looks like "expected", one added like "got"."""
        kinds = {"-": ("expected", "−"), "+": ("got", "+"), "@": ("gap", "…")}
        rows = []
        for line in self.diff:
            kind, sign = kinds.get(line[:1], ("", " "))
            rows.append((kind, sign, "" if kind == "gap" else line[1:]))
        return rows


@dataclass(frozen=True)
class Given:
    question: str  # its id
    prompt: str
    answer: str  # as the learner saw it (analysis.answer_text)
    correct: bool
    at: datetime


@dataclass
class Work:
    room: Classroom
    username: str
    lesson: Lesson
    score: scores.Score
    attempts: list[Try] = field(default_factory=list)  # oldest first
    answers: list[Given] = field(default_factory=list)
    name: str = ""  # as shown (``display_name``)
    rules: scores.Rules = scores.ON_TIME  # the class's, that made ``score``

    @property
    def rules_text(self) -> str:
        return scores.described(self.rules)

    @property
    def latest(self) -> Try | None:
        return self.attempts[-1] if self.attempts else None


def _diff(before: str, after: str) -> list[str]:
    lines = difflib.unified_diff(
        before.splitlines(), after.splitlines(), "before", "this run", lineterm="", n=2
    )
    return list(lines)[2:]  # without the two file-name lines


def learner_work(room: Classroom, username: str, lesson_id: str) -> Work | None:
    """The work, or None when the class has no such learner or does not cover the lesson."""
    member = room.members.filter(user__username=username).select_related("user").first()
    lesson, cl = next(((x, cl) for x, cl in class_lessons(room) if x.id == lesson_id), (None, None))
    if member is None or lesson is None or cl is None:
        return None
    own = Extension.objects.filter(class_lesson=cl, user_id=member.user_id).first()
    due = own.due_at if own else cl.due_at
    runs = Attempt.objects.filter(user_id=member.user_id, lesson_uuid=lesson.uuid)
    rows = list(runs.order_by("-created_at", "-id")[:MAX_ATTEMPTS])[::-1]
    attempts: list[Try] = []
    before: str | None = None
    for a in rows:
        diff: list[str] = _diff(before, a.program) if before is not None and a.program else []
        attempts.append(Try(a.created_at, a.verdict, a.case, a.program, a.mistake, diff))
        before = a.program or before
    progress = LessonProgress.objects.filter(
        user_id=member.user_id, lesson_uuid=lesson.uuid
    ).first()
    answers = []
    right = {}
    if progress is not None:
        questions = {q.id: q for q in lesson.questions}
        events = AnswerEvent.objects.filter(progress=progress).order_by("at", "id")
        for e in events:
            q = questions.get(e.question_id)
            shown = answer_text(q, e.answer) if q else str(e.answer)
            answers.append(Given(e.question_id, q.prompt if q else "", shown, e.correct, e.at))
        right = scores.first_right([progress.pk]).get(progress.pk, {})
    rules = scores.room_rules(room)
    score = scores.lesson_score(lesson, progress, right, due, rules)
    return Work(
        room,
        member.user.get_username(),
        lesson,
        score,
        attempts,
        answers,
        name=display_name(member.user),
        rules=rules,
    )


def work_json(work: Work) -> dict:
    """The API's answer (docs/api.md): times in ISO 8601."""
    return {
        "username": work.username,
        "name": work.name,
        "lesson": work.lesson.id,
        "score": work.score.score,
        "max_score": work.score.max_score,
        "attempts": [
            {"at": t.at.isoformat(), "verdict": t.verdict, "code": t.code, "case": t.case}
            for t in work.attempts
        ],
        "answers": [
            {
                "question": g.question,
                "answer": g.answer,
                "correct": g.correct,
                "at": g.at.isoformat(),
            }
            for g in work.answers
        ],
    }
