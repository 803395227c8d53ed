"""The home page in English and in Turkish, in real Chromium: <html lang> and the
words follow the browser's language, the footer's switcher (a plain form) changes the language
and comes back to the same page, the choice is kept, and axe-core passes in Turkish too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import WIDTHS, axe_violations, one_width, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENGLISH = "Learn by filling in the blanks"
TURKISH = "Boşlukları doldurarak öğrenin"


@pytest.fixture
def turkish_browser(browser, live_server):
    """A browser whose user prefers Turkish (Accept-Language: tr-TR, tr)."""
    context = browser.new_context(locale="tr-TR")
    yield context
    context.close()


def check(page, width: str) -> None:
    found = axe_violations(page)
    assert not found, found
    if width == "phone":
        assert overflow(page) is None, overflow(page)


@one_width("phone")  # Turkish pages the sweeps see only in English must fit
def test_the_switcher_goes_to_turkish_and_back_on_the_same_page(site, page, width):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/progress/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    check(page, width)

    switcher = page.get_by_label("Language")
    expect(switcher).to_have_value("en")
    expect(switcher.locator("option[value=tr]")).to_have_attribute("lang", "tr")
    switcher.focus()
    expect(switcher).to_be_focused()
    switcher.select_option("tr")
    page.get_by_role("button", name="Change language").click()

    page.wait_for_url(f"{site}/progress/")  # the same page, now in Turkish
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.get_by_role("heading", level=1)).to_have_text("İlerlemeniz")
    expect(page.get_by_role("link", name="Kurslar").first).to_be_visible()
    check(page, width)

    page.get_by_role("link", name="Kurslar").first.click()  # kept for the next page
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.get_by_role("heading", level=1)).to_have_text(TURKISH)
    check(page, width)

    page.get_by_label("Dil").select_option("en")
    page.get_by_role("button", name="Dili değiştir").click()
    page.wait_for_url(f"{site}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text(ENGLISH)


@one_width("desktop")
def test_a_turkish_browser_gets_the_home_page_in_turkish(site, turkish_browser, width):
    page = turkish_browser.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/")
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.get_by_role("heading", level=1)).to_have_text(TURKISH)
    expect(page.get_by_role("link", name="Giriş yap")).to_be_visible()
    expect(page.get_by_role("link", name="İçeriğe geç")).to_be_attached()
    expect(page.get_by_label("Dil")).to_have_value("tr")
    check(page, width)

    page.goto(f"{site}/?lang=en")  # the URL beats the browser, and is remembered
    expect(page.get_by_role("heading", level=1)).to_have_text(ENGLISH)
    page.goto(f"{site}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert not errors, errors
