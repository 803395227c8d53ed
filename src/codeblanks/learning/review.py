"""The review queue's schedule: every question a learner has answered is a card that
FSRS (the ``fsrs`` package, not a scheduler of our own) brings back just before it would be
forgotten. The same rules for every door; a store keeps the cards (web: ``web/learner/reviews.py``).

A right answer is FSRS's "Good", a wrong one "Again"; there is no self-rating. One learning
step of ten minutes: a card first answered wrong (or wrong at review) is due again the same day,
one answered right goes straight to FSRS's interval in days. No fuzz, so a schedule can be
proved under a controlled clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any, TypeVar

from fsrs import Card, Rating, Scheduler

STEP = timedelta(minutes=10)
SCHEDULER = Scheduler(learning_steps=(STEP,), relearning_steps=(STEP,), enable_fuzzing=False)

T = TypeVar("T")


@dataclass(frozen=True)
class Scheduled:
    """A card's FSRS state (``fsrs.Card.to_dict()``, JSON) and when it is due next."""

    state: dict[str, Any]
    due: datetime


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("review times must be timezone-aware")
    return moment.astimezone(UTC)


def rating(correct: bool) -> Rating:
    return Rating.Good if correct else Rating.Again


def first(correct: bool, at: datetime) -> Scheduled:
    """The card of a question answered for the first time at ``at``: right or not."""
    return review(dict(Card(card_id=0, due=_utc(at)).to_dict()), correct, at)


def review(state: dict[str, Any], correct: bool, at: datetime) -> Scheduled:
    """The card after an answer at ``at``, by FSRS."""
    card, _log = SCHEDULER.review_card(Card.from_dict(state), rating(correct), _utc(at))  # type: ignore[arg-type]
    return Scheduled(dict(card.to_dict()), card.due)


def day_end(now: datetime, zone: tzinfo) -> datetime:
    """The end of ``now``'s day where the learner is (the site's time zone): a card due before
    it is due today."""
    local = now.astimezone(zone)
    return datetime.combine(local.date() + timedelta(days=1), time(0), tzinfo=zone)


def mixed(cards: Sequence[T], lesson_of: Callable[[T], str], seed: str) -> list[T]:
    """The cards in a mixed order (``seed``: the same order for the same learner on the same
    day), no two of one lesson side by side where another lesson's card can go between."""
    rest = list(cards)
    random.Random(seed).shuffle(rest)
    out: list[T] = []
    while rest:
        pick = next((c for c in rest if not out or lesson_of(c) != lesson_of(out[-1])), rest[0])
        rest.remove(pick)
        out.append(pick)
    return out
