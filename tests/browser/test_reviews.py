"""The review queue in real Chromium: after answering questions in two lessons the
home page shows reviews due, and a review session walks them with the lessons' feedback, at
phone width (a review card is a state the sweeps do not reach), in English and Turkish; the
queue's clock is moved on in-process (``web.reviews.clock``: the live server runs in this
process)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.web.learner import reviews
from codeblanks.web.models import ReviewCard

from .conftest import WIDTHS, axe_violations, one_width, overflow

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("midday"),
]
PASSWORD = "a-long-enough-passphrase-42"
LESSONS = ("arrays-and-shapes", "broadcasting")
WORDS = {
    "en": ("questions to review today", "Check", "Next question", "Right.", "Not right yet."),
    "tr": ("soru", "Denetle", "Sonraki soru", "Doğru.", "Henüz doğru değil."),
}


def first_choice(lesson_id):
    return next(q for q in catalog().lesson(lesson_id).questions if q.kind == "choice")


@pytest.mark.parametrize("lang", ["en", "tr"])
@one_width("phone")
def test_answered_questions_come_back_for_review(site, page, width, lang, monkeypatch):
    due, check, go_on, right, wrong = WORDS[lang]
    User.objects.create_user("ada", password=PASSWORD)
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/accounts/login/?lang={lang}")
    page.locator("input[name=username]").fill("ada")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    expect(page.locator("input[name=username]")).to_have_count(0)
    for lesson_id, correct in zip(LESSONS, (True, False), strict=True):
        q = first_choice(lesson_id)
        pick = q.answer if correct else (q.answer + 1) % len(q.options)
        page.goto(f"{site}/lessons/{lesson_id}/")
        page.locator(f"#q-{q.id} input[type=radio][value='{pick}']").check()
        page.locator(f"#q-{q.id} button[type=submit]").click()
        expect(page.locator(f"#q-{q.id} .q-feedback")).to_contain_text(right if correct else wrong)

    later = timezone.now() + timedelta(days=30)
    monkeypatch.setattr(reviews, "clock", lambda: later)
    page.goto(f"{site}/")
    link = page.locator(".review-due a")
    expect(link).to_contain_text("2")
    expect(link).to_contain_text(due)
    assert overflow(page) is None
    link.click()
    seen = set()
    for _ in LESSONS:
        card = page.locator("#review-card")
        expect(card).to_be_visible()
        assert overflow(page) is None
        assert axe_violations(page) == []
        card_id = card.locator("form").get_attribute("action").rsplit("/", 1)[1]
        asked = ReviewCard.objects.get(id=card_id).question_id
        q = next(first_choice(x) for x in LESSONS if first_choice(x).id == asked)
        seen.add(q.id)
        card.locator(f"input[type=radio][value='{q.answer}']").check()
        card.get_by_role("button", name=check).click()
        expect(page.locator("#review-card .q-feedback")).to_contain_text(right)
        expect(page.locator("#review-card .review-next")).to_be_visible()
        page.locator("#review-card .review-go-on").click()
    assert seen == {first_choice(x).id for x in LESSONS}
    expect(page.locator(".review-none")).to_be_visible()
    assert axe_violations(page) == []
