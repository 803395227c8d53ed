"""A lesson's score, the one number the roster, the CSV, the API and the LMS all show: points
(the exercise 1, each question 1) that cannot go down and cannot be taken for free.

- The best is kept: a point once earned stays (the first solve; a question's first right
  answer), whatever the learner tries after it.
- Nothing is earned once the answers are known: the exercise solved after its solution was
  revealed, or a question answered right after "Review with answers" was opened or the solution
  revealed, earns no point. Earned before, it stays.

Read from the progress row and every answer logged (``AnswerEvent``), in one query for a
whole class (``first_right``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Min

from codeblanks.content.model import Lesson
from codeblanks.web.models import LessonProgress, QuestionAnswer
from codeblanks.web.teaching.models import AnswerEvent


@dataclass(frozen=True)
class Score:
    score: int
    max_score: int


def max_score(lesson: Lesson) -> int:
    return 1 + len(lesson.questions)


def _earliest(*times: datetime | None) -> datetime | None:
    return min((t for t in times if t is not None), default=None)


def first_right(progress_ids: list[int]) -> dict[int, dict[str, datetime]]:
    """Progress row -> question id -> when it was first answered right (every answer logged,
    and the latest answer kept, for rows older than the log)."""
    found: dict[int, dict[str, datetime]] = defaultdict(dict)

    def keep(pid: int, qid: str, at: datetime) -> None:
        if qid not in found[pid] or at < found[pid][qid]:
            found[pid][qid] = at

    events = (
        AnswerEvent.objects.filter(progress_id__in=progress_ids, correct=True)
        .values("progress_id", "question_id")
        .annotate(at=Min("at"))
    )
    for e in events:
        keep(e["progress_id"], e["question_id"], e["at"])
    latest = QuestionAnswer.objects.filter(progress_id__in=progress_ids, correct=True)
    for pid, qid, at in latest.values_list("progress_id", "question_id", "answered_at"):
        keep(pid, qid, at)
    return found


def lesson_score(
    lesson: Lesson, progress: LessonProgress | None, right: dict[str, datetime]
) -> Score:
    """The points of one learner in one lesson, from their row and ``first_right``'s times."""
    top = max_score(lesson)
    if progress is None:
        return Score(0, top)
    known = _earliest(progress.reviewed_at, progress.revealed_at)  # from then on: nothing earned
    solved = progress.solved_at
    points = int(
        solved is not None and (progress.revealed_at is None or solved < progress.revealed_at)
    )
    for q in lesson.questions:
        at = right.get(q.id)
        if at is not None and (known is None or at < known):
            points += 1
    return Score(points, top)


def score_of(user_id: int, lesson: Lesson) -> Score:
    """One learner's score in one lesson, read now."""
    row = LessonProgress.objects.filter(user_id=user_id, lesson_uuid=lesson.uuid).first()
    right = first_right([row.pk]).get(row.pk, {}) if row else {}
    return lesson_score(lesson, row, right)
