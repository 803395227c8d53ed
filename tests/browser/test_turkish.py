"""A Turkish-speaking learner in Chromium, at desktop width: the home page and the QKV
lesson in Turkish (its Turkish comments and `# buraya yaz`, the code names as in every
lesson), solved and its questions answered in Turkish, and the switch between languages keeping
code and progress."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.content.public import meaning_order

from .conftest import (
    DESKTOP,
    SCREENSHOTS,
    WIDTHS,
    axe_violations,
    editor_text,
    one_width,
    overflow,
    set_code,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
QKV = "query-key-value"


def turkish():
    return catalog().lesson(QKV).in_language("tr")


@one_width("desktop")
def test_the_course_in_turkish_solved_and_answered(site, page, width):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/?lang=tr")
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.locator("main")).to_contain_text("Sıfırdan dikkat mekanizması")
    expect(page.locator("main")).to_contain_text("Başlangıç")
    assert axe_violations(page) == []
    page.get_by_role("link", name="Sorgu, Anahtar, Değer").first.click()
    expect(page).to_have_url(re.compile(rf"/lessons/{QKV}/$"))  # the language is remembered
    expect(page.locator("h1")).to_have_text("Sorgu, Anahtar, Değer")
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    assert editor_text(page) == turkish().exercise.starter
    assert "def softmax(z, axis):" in editor_text(page) and "# buraya yaz" in editor_text(page)
    assert overflow(page) is None
    assert axe_violations(page) == []

    # a first try that forgot the softmax's axis: Turkish feedback, with the lesson's nudge
    set_code(page, turkish().exercise.solution.replace("axis=1", "axis=0"))
    page.get_by_role("button", name="Çalıştır", exact=True).click()
    expect(page.locator("#result")).to_contain_text("her satırın toplamı 1")
    set_code(page, turkish().exercise.solution)
    page.get_by_role("button", name="Çalıştır", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="Doğru").first).to_be_visible()
    expect(page.locator("#result")).to_contain_text("(3, 2) (3, 3) (3, 4)")

    questions = {q.kind: q for q in reversed(turkish().questions)}  # the first of each kind
    choice = questions["choice"]
    card = page.locator(f"#q-{choice.id}")
    card.locator(f'input[type=radio][value="{choice.answer}"]').check()  # shown in any order
    card.get_by_role("button", name="Denetle").click()
    expect(card.locator(".q-feedback")).to_contain_text("Doğru.")

    blank = questions["blank"]
    card = page.locator(f"#q-{blank.id}")
    expect(card).to_contain_text(blank.code.split("____")[0].strip())
    card.locator("input[name=blank]").fill(blank.answer)
    card.get_by_role("button", name="Denetle").click()
    expect(card.locator(".q-feedback")).to_contain_text("Doğru.")

    match = questions["match"]
    card = page.locator(f"#q-{match.id}")
    order = meaning_order(match)
    for i, select in enumerate(card.locator("select").all()):
        select.select_option(index=order.index(i) + 1)  # option 0 is "Bir anlam seç…"
    card.get_by_role("button", name="Denetle").click()
    expect(card.locator(".q-feedback")).to_contain_text("Doğru.")
    assert axe_violations(page) == []

    page.get_by_role("link", name="Cevaplarla gözden geçir").first.click()
    expect(page.locator(f"#review-{blank.id}")).to_contain_text(
        blank.code.replace("____", blank.answer)
    )
    expect(page.locator(f"#review-{choice.id}")).to_contain_text("Neden:")


def switch_to(page, language: str) -> None:
    page.get_by_label(re.compile("^(Language|Dil)$")).select_option(language)
    page.get_by_role("button", name=re.compile("^(Change language|Dili değiştir)$")).click()


def test_switching_language_keeps_the_code_and_the_progress(site, page):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site}/lessons/{QKV}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    english = catalog().lesson(QKV).exercise.solution
    mine = "# my own attempt, in English\n" + english
    set_code(page, mine)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="Correct").first).to_be_visible()

    switch_to(page, "tr")
    expect(page).to_have_url(re.compile(rf"/lessons/{QKV}/$"))  # back on the same page
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.locator("h1")).to_have_text("Sorgu, Anahtar, Değer")
    assert editor_text(page) == mine  # the learner's own code, not the Turkish starter
    expect(page.locator(".eyebrow")).to_contain_text("Alıştırma çözüldü")  # one progress
    page.goto(f"{site}/")
    expect(page.locator(".map-stop.state-solved")).to_contain_text("Sorgu, Anahtar, Değer")

    switch_to(page, "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".map-stop.state-solved")).to_contain_text("Query, Key, Value")


def test_an_unfilled_blank_is_named_in_turkish(site, page):
    first = catalog().lessons()[0].in_language("tr")
    page.goto(f"{site}/lessons/{first.id}/?lang=tr")
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    assert editor_text(page) == first.exercise.starter
    expect(page.locator(".cb-blank").first).to_have_attribute("title", "Burayı doldur")
    page.get_by_role("button", name="Çalıştır", exact=True).click()  # the starter, unchanged
    # the first blank in code (the comment above it that mentions ____ is not one)
    lines = first.exercise.starter.splitlines()
    line = 1 + next(i for i, text in enumerate(lines) if text.startswith("X = ____"))
    expect(page.locator("#result")).to_contain_text(f"{line}. satırdaki boşluğu")


def test_take_screenshots_of_the_turkish_lesson(site, page):
    """The README's picture of the QKV lesson solved in Turkish."""
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site}/lessons/{QKV}/?lang=tr")
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    set_code(page, turkish().exercise.solution)
    page.get_by_role("button", name="Çalıştır", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="Doğru").first).to_be_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lesson-solved-tr.png"))
