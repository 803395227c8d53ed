"""The review queue's schedule is FSRS's, under a controlled clock: a card answered
wrong is due again the same day, one answered right moves out by FSRS's intervals, and the
mixed order keeps one lesson's cards apart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from fsrs import Card, Rating, Scheduler

from codeblanks.learning import review

MONDAY_9 = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


def test_a_wrong_first_answer_is_due_again_the_same_day():
    card = review.first(False, MONDAY_9)
    assert card.due == MONDAY_9 + review.STEP
    assert card.due < review.day_end(MONDAY_9, UTC)


def test_a_right_first_answer_moves_out_by_fsrs_interval():
    card = review.first(True, MONDAY_9)
    assert card.due - MONDAY_9 >= timedelta(days=1)
    # the same as FSRS itself says, with the same settings and no fuzz
    own = Scheduler(learning_steps=(review.STEP,), relearning_steps=(review.STEP,),
                    enable_fuzzing=False)  # fmt: skip
    expected, _ = own.review_card(Card(card_id=0, due=MONDAY_9), Rating.Good, MONDAY_9)
    assert card.due == expected.due


def test_intervals_grow_while_right_and_fall_back_when_wrong():
    card = review.first(True, MONDAY_9)
    gaps = []
    for _ in range(3):
        at = card.due
        card = review.review(card.state, True, at)
        gaps.append(card.due - at)
    assert gaps[0] < gaps[1] < gaps[2]
    wrong_at = card.due
    lapsed = review.review(card.state, False, wrong_at)
    assert lapsed.due == wrong_at + review.STEP  # relearning: again the same day
    back = review.review(lapsed.state, True, lapsed.due)
    assert back.due - lapsed.due < gaps[2]  # forgotten once: a shorter interval than before


def test_the_day_ends_at_midnight_where_the_site_is():
    istanbul = ZoneInfo("Europe/Istanbul")  # UTC+3
    late = datetime(2027, 3, 1, 22, 30, tzinfo=UTC)  # already 01:30 on the 2nd there
    assert review.day_end(late, istanbul) == datetime(2027, 3, 3, 0, 0, tzinfo=istanbul)
    assert review.day_end(late, UTC) == datetime(2027, 3, 2, 0, 0, tzinfo=UTC)


def test_the_mixed_order_keeps_a_lessons_cards_apart_and_is_stable():
    cards = [("a", 1), ("a", 2), ("a", 3), ("b", 1), ("b", 2), ("c", 1)]
    order = review.mixed(cards, lambda c: c[0], "ada:2027-03-01")
    assert sorted(order) == sorted(cards)
    assert all(x[0] != y[0] for x, y in zip(order, order[1:], strict=False))
    assert order == review.mixed(cards, lambda c: c[0], "ada:2027-03-01")
