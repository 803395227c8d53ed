"""The item analysis page tells a teacher how well the class retains the lesson, from
the review queue's cards (FSRS states made by the real scheduler): the share answered right on
their last review and how many are due now; members only for a class, everyone for the site."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from codeblanks.content import catalog
from codeblanks.learning import review
from codeblanks.web.models import ReviewCard
from codeblanks.web.teaching import classes
from codeblanks.web.teaching.retention import lesson_retention

from .test_analysis import LESSON, person
from .test_analysis import real_course as real_course  # noqa: F401  (a fixture)
from .test_reviews import clock as clock  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


def card(user, question, *answers, at):
    """A card of ``user``'s, answered right or wrong in turn, the first at ``at``."""
    state = review.first(answers[0], at)
    for later in answers[1:]:
        state = review.review(state.state, later, state.due)
    return ReviewCard.objects.create(user=user, lesson_uuid=catalog().lesson(LESSON).uuid,
                                     question_id=question, state=state.state, due=state.due,
                                     reviewed_at=at)  # fmt: skip


def test_the_class_sees_the_share_right_on_the_last_review_and_how_many_are_due(clock):
    teacher, t = person("teacher", teacher=True)
    room = classes.class_create(teacher, classes.Plan("7B", (LESSON,), {}))
    url = f"/classes/{room.pk}/analysis/{LESSON}/"
    empty = t.get(url).content.decode()
    assert "No review card yet" in empty and "<meter" not in empty
    ada, a = person("ada")
    cy, c = person("cy")
    bob, _ = person("bob")  # not in the class
    for client in (a, c):
        client.post("/classes/join", {"code": room.join_code})
    at = clock.now
    card(ada, "q1", True, at=at)  # right: days away
    card(ada, "q2", False, at=at)  # wrong: ten minutes away
    card(cy, "q1", False, True, at=at)  # wrong, then right at its review: right last
    card(bob, "q1", False, at=at)  # not counted for the class
    clock.now = at + review.STEP + timedelta(seconds=1)

    page = t.get(url).content.decode()
    assert "67% right on the last review: 2 of 3 review cards." in page
    assert "1 card is due for review now." in page and 'value="67"' in page
    turkish = t.get(url + "?lang=tr").content.decode()
    assert "Son tekrarda %67 doğru: 3 tekrar kartından 2 tanesi." in turkish
    assert "Şu an tekrarı gelmiş 1 kart var." in turkish

    everyone = lesson_retention(catalog().lesson(LESSON))
    assert (everyone.cards, everyone.right, everyone.due, everyone.learners) == (4, 2, 2, 3)
    clock.now = at + timedelta(days=400)
    assert lesson_retention(catalog().lesson(LESSON), [ada.pk, cy.pk]).due == 3


def test_the_site_analysis_counts_every_learner(clock):
    staff, s = person("staff")
    staff.is_staff = True
    staff.save()
    ada, _ = person("ada")
    card(ada, "q1", True, at=timezone.now())
    page = s.get(f"/analysis/{LESSON}/").content.decode()
    assert "100% right on the last review: 1 of 1 review card." in page
    assert "0 cards are due for review now." in page
