"""Arrays as pictures in Chromium: a wrong QKV answer and a wrong causal mask show the learner's
and the expected arrays as heatmaps (differing cells marked, values on hover and on keyboard
focus) at phone width, in the light and the dark colour scheme, with axe clean and nothing
wider than the viewport; the causal-mask explanation draws its own heatmaps, in English and in
Turkish, at desktop width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from codeblanks.content import catalog

from .conftest import (
    PATIENCE_MS,
    SCREENSHOTS,
    WIDTHS,
    axe_violations,
    one_width,
    overflow,
    set_code,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WRONG = {  # a lesson, and one of its anticipated mistakes: a real wrong answer
    "query-key-value": ("softmax-axis-0.py", "A"),
    "causal-mask": ("past-masked.py", "mask"),
}


def fits_and_passes(page, width: str, what: str) -> list[str]:
    problems = [f"{what}: {v}" for v in axe_violations(page)]
    if width == "phone" and (wide := overflow(page)):
        problems.append(f"{what}: {wide}")
    return problems


@one_width("phone")  # side by side even at 390 px
@pytest.mark.parametrize("lesson_id", WRONG)
def test_a_wrong_answer_shows_both_arrays_as_heatmaps(site, page, lesson_id, width):
    page.set_viewport_size(WIDTHS[width])
    lesson = catalog().lesson(lesson_id)
    mistake, name = WRONG[lesson_id]
    page.goto(f"{site}/lessons/{lesson_id}/")
    set_code(page, (lesson.path / "mistakes" / mistake).read_text())
    page.get_by_role("button", name="Run", exact=True).click()
    pictures = page.locator("#result .array-pictures")
    expect(pictures).to_be_visible()
    mine = pictures.locator(f"svg[role=img][aria-label^='Heatmap of your {name},']")
    theirs = pictures.locator(f"svg[role=img][aria-label^='Heatmap of the expected {name},']")
    expect(mine).to_have_count(1)
    expect(theirs).to_have_count(1)
    expect(mine).to_have_attribute("aria-label", containing("marked cell"))
    assert mine.locator("g.cell.differs").count() > 0
    assert theirs.locator("g.cell.differs").count() == 0
    # side by side, even on a phone, so that they can be compared at a glance (waited for: the
    # verdict's swap settles its layout a moment after it is visible)
    side_by_side = """([a, b]) => {
        const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
        return p.width > 100 && q.width > 100 && Math.abs(p.top - q.top) < 2 && p.right <= q.left;
    }"""
    pair = [mine.element_handle(), theirs.element_handle()]
    try:
        page.wait_for_function(side_by_side, arg=pair, timeout=PATIENCE_MS)
    except PlaywrightTimeout:
        pytest.fail(f"not side by side: {mine.bounding_box()} {theirs.bounding_box()}")

    figure = mine.locator("xpath=ancestor::figure[1]")
    readout = figure.locator(".heatmap-readout")
    mine.locator("g.cell[data-row='0'][data-col='1']").hover()
    expect(readout).to_have_text(containing(f"{name}[0, 1] = "))
    figure.focus()
    page.keyboard.press("ArrowDown")
    expect(readout).to_have_text(containing(f"{name}[1, 1] = "))
    expect(readout).to_have_text(containing("(expected "))

    problems = []
    colours = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        colours[scheme] = readout.evaluate("e => getComputedStyle(e).color")
        problems += fits_and_passes(page, width, f"{lesson_id}, {scheme}")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pictures.screenshot(path=SCREENSHOTS / f"pictures-{lesson_id}-{width}-{scheme}.png")
    assert colours["light"] != colours["dark"], colours  # the words follow the scheme
    assert not problems, "\n".join(problems)


@one_width("desktop")  # the phone sweep measures the lesson page at 390 px
def test_the_causal_mask_explanation_draws_its_arrays(site, page, width):
    page.set_viewport_size(WIDTHS[width])
    problems = []
    for language, title in (("en", "The masked scores"), ("tr", "Maskelenmiş skorlar")):
        page.goto(f"{site}/lessons/causal-mask/?lang={language}")
        figure = page.locator(".prose figure.heatmap").filter(has_text=title)
        expect(figure).to_have_count(1)
        expect(figure.locator("svg[role=img]")).to_have_attribute(
            "aria-label", containing("(3, 3)")
        )
        expect(figure.locator("g.cell text.glyph")).to_have_count(3)  # the three -inf
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            problems += fits_and_passes(page, width, f"explanation, {language}, {scheme}")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            figure.screenshot(
                path=SCREENSHOTS / f"explanation-heatmap-{language}-{width}-{scheme}.png"
            )
    assert not problems, "\n".join(problems)


def containing(text: str) -> re.Pattern:
    """Playwright's way to say "contains": a pattern."""
    return re.compile(re.escape(text))
