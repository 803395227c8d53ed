"""The input() lesson of "Python from the first line" in Chromium: the page shows, under the
task, the lines the program is given; a program that reads one line too many is told so in
words, the solution is right, through the real sandbox and grader; in light and dark, at
desktop width, axe-core finds nothing serious and nothing sticks out sideways."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog

from .conftest import WIDTHS, axe_violations, one_width, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LESSON = "py-input"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@one_width("desktop")
def test_the_input_lesson_shows_its_input_and_runs_the_program_on_it(site, page, width, scheme):
    lesson = catalog().lesson(LESSON)
    page.set_viewport_size(WIDTHS[width])
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{site}/lessons/{LESSON}/")
    expect(page).to_have_url(re.compile(rf"/lessons/{LESSON}/$"))
    given = page.locator("pre.given-input")
    expect(given).to_be_visible()
    expect(given).to_have_text("12\n30\n")
    expect(page.locator(".builds-on")).to_contain_text("choices with if and else")
    assert overflow(page) is None
    assert axe_violations(page) == []

    past = lesson.exercise.solution.replace("b = input()\n", "b = input()\nc = input()\n")
    set_code(page, past)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result .verdict")).to_have_attribute("data-verdict", "error")
    expect(page.locator("#result")).to_contain_text(
        "Your program asked for more input than this case gives"
    )

    set_code(page, lesson.exercise.solution)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result .verdict")).to_have_attribute("data-verdict", "correct")
    assert axe_violations(page) == []
