"""The home page's course map in Chromium: a new learner sees where to start and the capstone
ahead; after a solved lesson and a tried one, the map says so in words and shapes and leads to
the next lesson. In English and Turkish, at desktop width (the sweeps check the home page at
both), in both colour schemes, axe clean."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog

from .conftest import SCREENSHOTS, WIDTHS, axe_violations, one_width, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def path_of(course_id: str):
    course = next(c for c in catalog().courses if c.id == course_id)
    return [x for level in course.levels for x in course.lessons_at(level)]


def check(page, width: str, what: str) -> list[str]:
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        problems += [f"{what}, {scheme}: {v}" for v in axe_violations(page)]
        if width == "phone" and (wide := overflow(page)):
            problems.append(f"{what}, {scheme}: {wide}")
    return problems


@one_width("desktop")
def test_the_course_map_shows_the_path_the_states_and_what_is_next(site, page, width):
    page.set_viewport_size(WIDTHS[width])
    lessons = path_of("attention-from-scratch")
    first, second, capstone = lessons[0], lessons[1], lessons[-1]
    problems = []

    page.goto(f"{site}/")
    # every course installed has its map, a list of levels of lists of lessons
    assert page.locator("section.course-map").count() == len(catalog().courses)
    course = page.locator("section.course-map").filter(has_text="Attention from scratch")
    expect(course.locator("ol.map-path > li.map-level")).to_have_count(4)
    expect(course.locator("li.map-stop")).to_have_count(len(lessons))
    start = course.locator(".map-next a")
    expect(start).to_contain_text(f"Start here: {first.title}")
    expect(course.locator(".map-goal")).to_contain_text(capstone.title)
    expect(course.locator("li.map-stop.is-capstone")).to_contain_text("Capstone")
    expect(course.locator("a[aria-current=step]")).to_contain_text(first.title)
    # the way in comes before the path on the page
    assert start.bounding_box()["y"] < course.locator("ol.map-path").bounding_box()["y"]
    problems += check(page, width, "new learner")

    # solve the first lesson, try the second
    page.goto(f"{site}/lessons/{first.id}/")
    set_code(page, first.exercise.solution)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result .verdict.good")).to_be_visible()
    page.goto(f"{site}/lessons/{second.id}/")
    set_code(page, second.exercise.starter)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result .verdict")).to_be_visible()

    page.goto(f"{site}/")
    stops = course.locator("li.map-stop")
    expect(stops.nth(0)).to_have_class(has_class("state-solved"))
    expect(stops.nth(0).locator(".map-state-word")).to_have_text("Solved")
    expect(stops.nth(0).locator(".map-mark")).to_have_text("✓")
    expect(stops.nth(1)).to_have_class(has_class("state-tried"))
    expect(stops.nth(1).locator(".map-state-word")).to_have_text("Tried")
    expect(stops.nth(1).locator(".map-mark")).to_have_text("◐")
    expect(stops.nth(2).locator(".map-state-word")).to_have_text("Not started")
    expect(course.locator("a[aria-current=step]")).to_contain_text(second.title)
    expect(page.locator(".resume")).to_contain_text(second.title)  # continue: first on the page
    expect(course.locator(".map-count")).to_contain_text(f"1 of {len(lessons)} exercises solved")
    problems += check(page, width, "after two lessons")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.emulate_media(color_scheme="light")
    page.screenshot(path=SCREENSHOTS / f"course-map-{width}.png", full_page=True)

    page.goto(f"{site}/?lang=tr")
    turkish = page.locator("section.course-map").first
    expect(turkish.locator("li.map-stop").nth(0).locator(".map-state-word")).to_have_text("Çözüldü")
    expect(turkish.locator("li.map-stop").nth(1).locator(".map-state-word")).to_have_text("Denendi")
    expect(turkish.locator(".map-goal")).to_contain_text("İleride sizi bekleyen bitirme dersi")
    problems += check(page, width, "Turkish")
    assert not problems, "\n".join(problems)


def has_class(name: str) -> re.Pattern:
    return re.compile(rf"(^|\s){re.escape(name)}(\s|$)")
