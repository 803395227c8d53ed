"""The review queue's store: a signed-in learner's cards, made from their answers
and scheduled by ``codeblanks.learning.review`` (FSRS). The page (``views/reviews.py``) and the
API read and answer cards here; the answer itself is judged by the ``Tutor``, as in a lesson,
but never changes the lesson's own answer.

``clock`` is the one source of "now" here, so a test can move time on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from codeblanks.content.model import Lesson, Question
from codeblanks.learning import review
from codeblanks.learning.linecards import LINE_ID, card_question, line_card
from codeblanks.web.models import LessonProgress, QuestionAnswer, ReviewCard
from codeblanks.web.pages import selectors


def clock() -> datetime:
    return timezone.now()


@dataclass(frozen=True)
class Due:
    """A card to ask: its id, the lesson (in the request's language) and the question."""

    id: int
    lesson: Lesson
    question: Question
    due: datetime

    @property
    def now(self) -> bool:
        """Due already (else later today)."""
        return self.due <= clock()


def _lessons() -> dict[str, Lesson]:
    return {lesson.uuid: lesson for lesson in selectors.lesson_list()}


def cards_sync(user_id: int) -> None:
    """A card for every question the learner answered and has none yet, scheduled from that
    answer: right at the first try is FSRS's Good, else Again; and a "fill in the line" card
    (``learning/linecards.py``) for every exercise solved, as a Good at its solving."""
    have = set(ReviewCard.objects.filter(user_id=user_id).values_list("lesson_uuid", "question_id"))
    rows = QuestionAnswer.objects.filter(progress__user_id=user_id).values_list(
        "progress__lesson_uuid", "question_id", "correct", "tries", "answered_at"
    )
    new = []
    for uuid, qid, correct, tries, at in rows:
        if (uuid, qid) in have:
            continue
        first = review.first(correct and tries == 1, at)
        new.append(ReviewCard(user_id=user_id, lesson_uuid=uuid, question_id=qid,
                              state=first.state, due=first.due, reviewed_at=at))  # fmt: skip
    solved = LessonProgress.objects.filter(user_id=user_id, solved_at__isnull=False)
    lessons = _lessons()
    for uuid, solved_at in solved.values_list("lesson_uuid", "solved_at"):
        lesson = lessons.get(uuid)
        if solved_at is None or (uuid, LINE_ID) in have or lesson is None:
            continue
        if line_card(lesson) is not None:  # the exercise solved: its line, known right then
            first = review.first(True, solved_at)
            new.append(ReviewCard(user_id=user_id, lesson_uuid=uuid, question_id=LINE_ID,
                                  state=first.state, due=first.due,
                                  reviewed_at=solved_at))  # fmt: skip
    if new:
        ReviewCard.objects.bulk_create(new, ignore_conflicts=True)


def due_today(user_id: int) -> list[Due]:
    """The learner's cards due before the day ends (the site's time zone): those due already
    first, in a mixed order (the same all day), then those due later today, soonest first.
    Cards of lessons or questions no longer served are left out."""
    cards_sync(user_id)
    now = clock()
    end = review.day_end(now, timezone.get_current_timezone())
    lessons = _lessons()
    found = []
    for card_id, uuid, qid, due in ReviewCard.objects.filter(user_id=user_id, due__lt=end)\
            .values_list("id", "lesson_uuid", "question_id", "due"):  # fmt: skip
        lesson = lessons.get(uuid)
        question = card_question(lesson, qid) if lesson else None
        if lesson is not None and question is not None:
            found.append(Due(card_id, lesson, question, due))
    day = timezone.localdate(now).isoformat()
    ready = review.mixed([d for d in found if d.due <= now], lambda d: d.lesson.uuid,
                         f"{user_id}:{day}")  # fmt: skip
    later = sorted((d for d in found if d.due > now), key=lambda d: d.due)
    return ready + later


def card_get(user_id: int, card_id: int) -> Due | None:
    """The learner's card ``card_id`` (None: not theirs, or its lesson is gone)."""
    row = ReviewCard.objects.filter(user_id=user_id, id=card_id).first()
    lesson = _lessons().get(row.lesson_uuid) if row else None
    question = card_question(lesson, row.question_id) if row and lesson else None
    if row is None or lesson is None or question is None:
        return None
    return Due(row.id, lesson, question, row.due)


@transaction.atomic
def card_answer(*, user_id: int, card_id: int, correct: bool) -> datetime:
    """Schedule the card after an answer in the queue, now; returns when it is due next."""
    row = ReviewCard.objects.select_for_update().get(user_id=user_id, id=card_id)
    now = clock()
    after = review.review(row.state, correct, now)
    row.state, row.due, row.reviewed_at = after.state, after.due, now
    row.reviews += 1
    row.lapses += 0 if correct else 1
    row.save()
    return after.due
