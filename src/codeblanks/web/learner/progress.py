"""A learner's progress in each lesson, read: one ``Progress`` per lesson they touched (their
saved code, solved or not, hints seen, answers, runs), in two queries compiled once
(``statements``). The store (``store``) writes these rows and the tutor reads them back through
it; pages build on them (``pages/selectors.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from codeblanks.content.model import Lesson
from codeblanks.web.learner import statements
from codeblanks.web.learner.learners import Learner

# A lesson's state for its learner, from nothing done to everything done.
NOT_STARTED = "not-started"
STARTED = "started"
SOLVED = "exercise-solved"
ANSWERED = "questions-answered"
COMPLETE = "complete"


@dataclass(frozen=True)
class Answer:
    value: object
    correct: bool
    tries: int


@dataclass(frozen=True)
class Progress:
    """One learner's progress in one lesson (empty when they never touched it)."""

    code: str | None = None  # last saved code; None means "show the starter"
    solved: bool = False
    revealed: bool = False
    hints: int = 0  # how many of the exercise's hints the learner has seen
    question_hints: dict[str, int] = field(default_factory=dict)
    answers: dict[str, Answer] = field(default_factory=dict)
    runs: int = 0
    last_run: datetime | None = None

    def questions_right(self, lesson: Lesson) -> int:
        return sum(
            1 for q in lesson.questions if q.id in self.answers and self.answers[q.id].correct
        )

    def state(self, lesson: Lesson) -> str:
        answered = bool(lesson.questions) and self.questions_right(lesson) == len(lesson.questions)
        if self.solved and (answered or not lesson.questions):
            return COMPLETE
        if self.solved:
            return SOLVED
        if answered:
            return ANSWERED
        if self.code is not None or self.answers or self.runs:
            return STARTED
        return NOT_STARTED


EMPTY = Progress()


def progress_map(
    learner: Learner | None, uuids: Iterable[str] | None = None
) -> dict[str, Progress]:
    """Progress per lesson uuid for this learner (lessons never touched are absent), of the
    lessons in ``uuids`` (None: all). Two queries read as plain values (no model instances: a
    page reads a whole course's rows), selected by the learner alone: a learner has a row per
    lesson they touched, so the few rows of other courses are cheaper to skip here than an
    ``IN`` of every lesson in the course is to build."""
    if learner is None:
        return {}
    wanted = None if uuids is None else set(uuids)
    answers: dict[int, dict[str, Answer]] = {}
    shape, key = learner.owner_slots
    found = statements.answer_rows(shape, values=key)
    for progress_id, question_id, answer, correct, tries in found:
        answers.setdefault(progress_id, {})[question_id] = Answer(answer, correct, tries)
    out: dict[str, Progress] = {}
    rows = statements.progress_rows(shape, values=key)
    for row_id, uuid, code, has_code, solved, revealed, hints, q_hints, runs, last in rows:
        if wanted is not None and uuid not in wanted:
            continue
        out[uuid] = Progress(
            code=code if has_code else None,
            solved=solved is not None,
            revealed=revealed is not None,
            hints=hints,
            question_hints=dict(q_hints or {}),
            answers=answers.get(row_id, {}),
            runs=runs,
            last_run=last,
        )
    return out


def progress_get(learner: Learner | None, lesson: Lesson) -> Progress:
    return progress_map(learner, [lesson.uuid]).get(lesson.uuid, EMPTY)
