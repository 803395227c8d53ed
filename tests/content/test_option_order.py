"""Choice options are shown in each learner's own order (``content.public.option_order``): the
author's order and a habit of writing the answer first give nothing away, a learner's order
never changes, and an answer given by its shown position is judged as the option shown there."""

from __future__ import annotations

from collections import Counter

from codeblanks.content import catalog
from codeblanks.content.model import ChoiceQuestion
from codeblanks.content.public import choice_pick, option_order, question_public

CHOICES = [q for lesson in catalog().lessons() for q in lesson.questions if q.kind == "choice"]


def test_the_built_in_course_has_choices_to_shuffle():
    assert len(CHOICES) >= 20 and all(isinstance(q, ChoiceQuestion) for q in CHOICES)


def test_an_order_is_the_options_reordered_and_the_same_every_time():
    for q in CHOICES:
        order = option_order(q, "user:7")
        assert sorted(order) == list(range(len(q.options)))
        assert option_order(q, "user:7") == order


def test_two_learners_see_different_orders():
    differ = [q.id for q in CHOICES if option_order(q, "user:1") != option_order(q, "user:2")]
    assert len(differ) > len(CHOICES) / 2


def test_no_shown_position_holds_most_answers():
    for seed in ("user:1", "anon:0123abcd", ""):
        shown = Counter(option_order(q, seed).index(q.answer) for q in CHOICES)
        assert max(shown.values()) / len(CHOICES) < 0.4, (seed, shown)


def test_an_answer_by_shown_position_is_the_option_shown_there():
    for q in CHOICES:
        public = question_public(q, "anon:ff")
        for position, text in enumerate(public["options"]):
            assert q.options[choice_pick(q, "anon:ff", position)] == text
        assert choice_pick(q, "anon:ff", len(q.options)) == -1
        assert choice_pick(q, "anon:ff", -1) == -1


def test_the_built_in_course_gives_no_answer_away():
    """No answer position or longest option over 40 %, no explanation that holds the exercise
    (content.W004-W006): what `codeblanks check` warns about is fixed in the course itself."""
    from codeblanks.content.giveaways import giveaways

    for course in catalog().courses:
        assert giveaways(course) == [], [str(p) for p in giveaways(course)]
