"""A lesson's score, the one number the roster, the CSV, the API and the LMS all show: points
that cannot go down and cannot be taken for free. What the parts are worth is the class's
(``Rules``: the exercise 1 and each question 1 unless the teacher said otherwise; outside a
class always 1 and 1).

- The best is kept: a point once earned stays (the first solve; a question's first right
  answer), whatever the learner tries after it.
- Nothing is earned once the answers are known: the exercise solved after its solution was
  revealed, or a question answered right after "Review with answers" was opened or the solution
  revealed, earns no point. Earned before, it stays. A class may say such answers count all
  the same (``Rules.after_review``: practice, not a grade).
- In a class, a point earned after the lesson's due time (the learner's extension, if any) is
  worth what the class's late policy says (``deadlines.Policy``): all, less per day, nothing.

Read from the progress row and every answer logged (``AnswerEvent``), in one query for a
whole class (``first_right``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Min
from django.utils.translation import gettext as _

from codeblanks.content.model import Lesson
from codeblanks.web.models import LessonProgress, QuestionAnswer
from codeblanks.web.teaching.deadlines import Policy, room_policy
from codeblanks.web.teaching.models import AnswerEvent, Classroom


@dataclass(frozen=True)
class Rules:
    """How a class scores a lesson: the exercise's points, each question's, whether what is
    answered once the answers were seen earns them too, and what late work is worth."""

    exercise: int = 1
    question: int = 1
    after_review: bool = False
    late: Policy = Policy()


ON_TIME = Rules()  # outside a class: 1 and 1, no due time, nothing earned from the answers


def room_rules(room: Classroom) -> Rules:
    return Rules(
        room.exercise_points, room.question_points, room.count_after_review, room_policy(room)
    )


def counting_after_review(user_id: int | None, lesson: Lesson) -> list[str]:
    """The names of the learner's classes that cover ``lesson`` and give what is answered
    after the answers were seen its points all the same (``Rules.after_review``): the lesson
    pages say so beside "earns no points", which holds everywhere else."""
    if user_id is None:  # a visitor without an account is in no class
        return []
    rooms = Classroom.objects.filter(
        members__user_id=user_id,
        members__left_at__isnull=True,
        lessons__lesson_uuid=lesson.uuid,
        count_after_review=True,
    )
    return sorted(set(rooms.values_list("name", flat=True)))


def described(rules: Rules) -> str:
    """The rules in words, shown beside the scores they make."""
    points = _("Points in this class: the exercise %(exercise)s, each question %(question)s.")
    if rules.after_review:
        seen = _(
            "Answers after review count: what is answered after “Review with answers” or a "
            "shown solution earns its points too."
        )
    else:
        seen = _("What is answered after “Review with answers” or a shown solution earns nothing.")
    return f"{points % {'exercise': rules.exercise, 'question': rules.question}} {seen}"


@dataclass(frozen=True)
class Score:
    score: float | int  # an int unless a late penalty took a share of a point
    max_score: int


def number(x: float) -> float | int:
    """A score as shown: 2 rather than 2.0, else two decimals."""
    x = round(x, 2)
    return int(x) if x == int(x) else x


def max_score(lesson: Lesson, rules: Rules = ON_TIME) -> int:
    return rules.exercise + rules.question * len(lesson.questions)


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


def _before(at: datetime, known: datetime | None, rules: Rules) -> bool:
    """Whether a point earned at ``at`` counts, the answers having been seen at ``known``."""
    return rules.after_review or known is None or at < known


def lesson_score(
    lesson: Lesson,
    progress: LessonProgress | None,
    right: dict[str, datetime],
    due: datetime | None = None,
    rules: Rules = ON_TIME,
) -> Score:
    """The points of one learner in one lesson, from their row and ``first_right``'s times;
    in a class, with its due time for them and its rules."""
    top = max_score(lesson, rules)
    if progress is None:
        return Score(0, top)
    known = _earliest(progress.reviewed_at, progress.revealed_at)  # from then on: nothing earned
    solved = progress.solved_at
    points = 0.0
    if solved is not None and _before(solved, progress.revealed_at, rules):
        points += rules.exercise * rules.late.worth(solved, due)
    for q in lesson.questions:
        at = right.get(q.id)
        if at is not None and _before(at, known, rules):
            points += rules.question * rules.late.worth(at, due)
    return Score(number(points), top)


def score_of(
    user_id: int, lesson: Lesson, due: datetime | None = None, rules: Rules = ON_TIME
) -> Score:
    """One learner's score in one lesson, read now."""
    row = LessonProgress.objects.filter(user_id=user_id, lesson_uuid=lesson.uuid).first()
    right = first_right([row.pk]).get(row.pk, {}) if row else {}
    return lesson_score(lesson, row, right, due, rules)
