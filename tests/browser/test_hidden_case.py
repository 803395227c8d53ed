"""A failing hidden case on the lesson page (the learner trial's F7), in Chromium at phone width
(the case's code must scroll in its own box), in English and Turkish: the verdict names the case and
says what its inputs hold in words; the code that builds the case is in a closed "How this case is
built", seen only once it is opened."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog

from .conftest import WIDTHS, axe_violations, one_width, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LESSON = "arrays-and-shapes"
WORDS = {
    "en": ("E: a 10×4 array of whole numbers", "ids: an array of 7 whole numbers",
           "How this case is built"),
    "tr": ("E: 10×4 boyutlu bir tam sayı dizisi", "ids: 7 tam sayı içeren bir dizi",
           "Bu durum nasıl kuruluyor"),
}  # fmt: skip
CODE = "E = np.random.default_rng(21).integers(-5, 6, size=(10, 4))"


def counted_by_hand(lang: str) -> str:
    """The trial's program: `X[3:]`, right on the visible five tokens, wrong on seven."""
    lesson = catalog().in_language(lang).lesson(LESSON)
    return next(m.code for m in lesson.exercise.grading.mistakes if "counted" in str(m.path))


@pytest.mark.parametrize("lang", ["en", "tr"])
@one_width("phone")
def test_a_hidden_case_in_words_and_its_code_on_request(site, page, width, lang):
    shape, ids, summary = WORDS[lang]
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{LESSON}/?lang={lang}")
    set_code(page, counted_by_hand(lang))
    page.locator("button.run").click()
    verdict = page.locator("#result .verdict")
    feedback = verdict.locator(".feedback")
    expect(feedback).to_contain_text(shape)
    expect(feedback).to_contain_text(ids)
    expect(feedback).not_to_contain_text("default_rng")

    built = verdict.locator("details.setup")
    expect(built).to_have_count(1)
    assert built.get_attribute("open") is None  # closed until the learner opens it
    expect(built.locator("summary")).to_have_text(summary)
    code = built.locator("pre")
    expect(code).to_be_hidden()
    assert overflow(page) is None
    assert axe_violations(page) == []

    built.locator("summary").click()
    expect(code).to_be_visible()
    expect(code).to_contain_text(CODE)
    expect(code).to_contain_text("ids = np.random.default_rng(22)")
    assert overflow(page) is None  # a long line scrolls inside its own box
    assert axe_violations(page) == []
