"""The built-in course in Chromium: one lesson of every level solved as a learner would, from the
home page's link to its level to the "Correct" verdict, with the real sandbox and grader."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog

from .conftest import set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def one_lesson_per_level():
    (course,) = [c for c in catalog().courses if c.id == "attention-from-scratch"]
    return [(level, course.lessons_at(level)[-1]) for level in course.levels]


@pytest.mark.parametrize(
    ("level", "lesson"), one_lesson_per_level(), ids=lambda v: getattr(v, "id", v)
)
def test_a_lesson_of_each_level_is_solved_in_the_browser(site, page, level, lesson):
    page.goto(f"{site}/")
    course_map = page.locator("section.course-map", has_text="Attention from scratch")
    course_map.get_by_role("link", name=f"All lessons in {level}").click()
    page.locator(f"a[href='/lessons/{lesson.id}/']").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(lesson.title)
    expect(page.locator(".tab")).to_contain_text(lesson.exercise.filename)
    set_code(page, lesson.exercise.solution)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="Correct").first).to_be_visible()
    first_line = lesson.exercise.expected_output.splitlines()[0].strip()
    expect(page.locator("#result")).to_contain_text(first_line)
