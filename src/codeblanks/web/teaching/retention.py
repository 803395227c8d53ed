"""How well a class (or the site) retains a lesson, read from the review queue's cards (issue
40): the share of the cards whose last review was answered right, and how many are due now. A
card's FSRS state says it: only a right answer leaves a card in FSRS's Review state (a wrong one
sends it to (Re)learning), so no answer log is needed. Counts only, never names."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fsrs import State

from codeblanks.content.model import Lesson
from codeblanks.web.learner import reviews
from codeblanks.web.models import ReviewCard


@dataclass(frozen=True)
class Retention:
    cards: int  # the learners' cards of the lesson (its questions and its line)
    right: int  # of them, answered right on their last review
    due: int  # of them, due now
    learners: int  # who have a card of the lesson

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.cards) if self.cards else 0


def lesson_retention(lesson: Lesson, users: Iterable[int] | None = None) -> Retention:
    """The lesson's retention across ``users`` (None: every learner of the site)."""
    rows = ReviewCard.objects.filter(lesson_uuid=lesson.uuid)
    if users is not None:
        rows = rows.filter(user_id__in=list(users))
    now = reviews.clock()
    cards = right = due = 0
    learners = set()
    for user_id, state, when in rows.values_list("user_id", "state", "due"):
        cards += 1
        learners.add(user_id)
        right += isinstance(state, dict) and state.get("state") == State.Review.value
        due += when <= now
    return Retention(cards, right, due, len(learners))
