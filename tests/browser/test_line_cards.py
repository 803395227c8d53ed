""" "Fill in the line" in real Chromium: an exercise solved on its page comes back in the
review queue as a line of its program with a part blanked, answered in the page's blank field
and judged by value in the real sandbox (any code giving the same value is right), at phone
width (the review card is a state the sweeps do not reach), in English and Turkish; the
queue's clock moved on in-process."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.web.learner import reviews

from .conftest import WIDTHS, axe_violations, one_width, overflow, set_code

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("midday"),
]
PASSWORD = "a-long-enough-passphrase-42"
LESSON = "arrays-and-shapes"
WORDS = {
    "en": ("question to review today", "Check", "Right.", "Fill in this line"),
    "tr": ("soru", "Denetle", "Doğru.", "satırı tamamla"),
}


@pytest.mark.parametrize("lang", ["en", "tr"])
@one_width("phone")
def test_a_solved_exercise_comes_back_as_a_line_to_fill(site, page, width, lang, monkeypatch):
    due, check, right, prompt = WORDS[lang]
    User.objects.create_user("ada", password=PASSWORD)
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/accounts/login/?lang={lang}")
    page.locator("input[name=username]").fill("ada")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    expect(page.locator("input[name=username]")).to_have_count(0)
    page.goto(f"{site}/lessons/{LESSON}/")
    set_code(page, catalog().in_language(lang).lesson(LESSON).exercise.solution)
    page.locator("#practice").get_by_role("button", name="Run" if lang == "en" else "Çalıştır",
                                          exact=True).click()  # fmt: skip
    expect(page.locator("#result .verdict")).to_have_attribute("data-verdict", "correct")

    later = timezone.now() + timedelta(days=30)
    monkeypatch.setattr(reviews, "clock", lambda: later)
    page.goto(f"{site}/")
    link = page.locator(".review-due a")
    expect(link).to_contain_text(due)
    link.click()
    card = page.locator("#review-card")
    expect(card).to_contain_text(prompt)
    expect(card).to_contain_text("feature =")  # the blank: the field below
    assert overflow(page) is None and axe_violations(page) == []
    card.locator("input[name=blank]").fill("E[ids][:, 1]")  # not the solution's text: its value
    card.get_by_role("button", name=check).click()
    expect(page.locator("#review-card .q-feedback")).to_contain_text(right)
    assert overflow(page) is None and axe_violations(page) == []
