"""Small findings from the learner trial (shared/reviews/learner-trial.md F5, F16,
F17, F18/F19), at desktop width (the sweeps take these pages to a phone), in English and
Turkish: a skip link to the editor,
a question answered right says "Check" and hides its hint button, the level page names the
level it counts, and the token section names no repository path."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from codeblanks.content import catalog

from .conftest import WIDTHS, axe_violations, one_width, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LESSON = "arrays-and-shapes"
WORDS = {
    "en": ("Skip to the editor", "Check", "Beginner"),
    "tr": ("Düzenleyiciye geç", "Denetle", "Başlangıç"),
}


@pytest.mark.parametrize("lang", WORDS)
@one_width("desktop")
def test_the_skip_link_leads_to_the_editor(site, page, width, lang):
    skip, _, _ = WORDS[lang]
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{LESSON}/?lang={lang}")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    link = page.locator("a.skip[href='#practice']")
    expect(link).to_be_focused()
    expect(link).to_have_text(skip)
    expect(link).to_be_in_viewport()  # shown while focused
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(".cb-editor .cm-content")).to_be_focused()


@pytest.mark.parametrize("lang", WORDS)
@one_width("desktop")
def test_a_question_answered_right_says_check_and_drops_its_hint_button(site, page, width, lang):
    _, check, _ = WORDS[lang]
    q = next(q for q in catalog().lesson(LESSON).questions if q.hints and q.kind == "choice")
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{LESSON}/?lang={lang}")
    card = page.locator(f"#q-{q.id}")
    hint_button = card.locator("xpath=following-sibling::div[1]").locator(".hint-button")
    expect(hint_button).to_be_visible()
    wrong = (q.answer + 1) % len(q.options)
    card.locator(f"input[type=radio][value='{wrong}']").check()
    card.locator("button[type=submit]").click()
    expect(page.locator(f"#q-{q.id}.is-wrong")).to_be_visible()
    expect(hint_button).to_be_visible()  # still stuck: the hint is there
    page.locator(f"#q-{q.id} input[type=radio][value='{q.answer}']").check()
    page.locator(f"#q-{q.id} button[type=submit]").click()
    expect(page.locator(f"#q-{q.id}.is-right")).to_be_visible()
    expect(page.locator(f"#q-{q.id} button[type=submit]")).to_have_text(check)
    expect(hint_button).to_be_hidden()
    page.reload()
    expect(page.locator(f"#q-{q.id} button[type=submit]")).to_have_text(check)
    expect(hint_button).to_be_hidden()
    assert overflow(page) is None
    assert axe_violations(page) == []


@pytest.mark.parametrize("lang", WORDS)
@one_width("desktop")
def test_the_level_page_names_the_level_and_the_token_section_no_path(site, page, width, lang):
    _, _, level = WORDS[lang]
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/courses/attention-from-scratch/beginner/?lang={lang}")
    expect(page.locator("p.lede")).to_contain_text(f"{level}:")
    User.objects.create_user("ada", password="a-long-enough-passphrase-42")
    page.goto(f"{site}/accounts/login/?next=/progress/")
    page.locator("input[name=username]").fill("ada")
    page.locator("input[name=password]").fill("a-long-enough-passphrase-42")
    page.locator("input[name=password]").press("Enter")
    expect(page).to_have_url(f"{site}/progress/")
    expect(page.locator("main")).not_to_contain_text("docs/learners.md")
    assert overflow(page) is None
