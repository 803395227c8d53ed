"""The class at a glance and a lesson's solve rate by day in Chromium: a class of a few learners,
one late, one with an extension; at phone width, light and dark, the grid and the chart are there,
the grid's cells are links reached by the keyboard that open the learner's work, the page never
scrolls sideways (the grid scrolls in its own box), and axe finds nothing serious."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from codeblanks.web.models import LessonProgress
from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import Classroom

from .conftest import WIDTHS, axe_violations, log_in, one_width, overflow
from .test_classes import GOOD, lesson

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LESSONS = ("arrays-and-shapes", "broadcasting", "query-key-value")


def make_room() -> Classroom:
    """Four learners with long and short names; the first lesson was due yesterday (so ada's
    solve after it is late, and dan's nothing is), bea has until next week."""
    teacher = User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = User.objects.get(pk=teacher.pk)
    first = lesson(LESSONS[0])
    due = timezone.now() - timedelta(days=1)
    plan = classes.Plan("Class 7B", LESSONS, {first.id: due}, "Europe/Istanbul")
    room = classes.class_create(teacher, plan)
    Classroom.objects.filter(pk=room.pk).update(created_at=due - timedelta(days=5))
    names = {
        "ada": ("Ada", "Byron"),
        "bea": ("Beatrix Konstantinopolitanische", "Wolkenkratzer-Überlänge"),
        "cem": ("", ""),
        "dan": ("Dan", ""),
    }
    for username, (given, family) in names.items():
        learner = User.objects.create_user(
            username, password=GOOD, first_name=given, last_name=family
        )
        classes.class_join(learner, room)
    solved = {
        "ada": due + timedelta(hours=2),
        "bea": due - timedelta(days=2),
        "cem": due - timedelta(days=3),
    }
    for username, at in solved.items():
        LessonProgress.objects.create(
            user=User.objects.get(username=username), lesson_uuid=first.uuid, solved_at=at, runs=1
        )
    second = lesson(LESSONS[1])
    LessonProgress.objects.create(
        user=User.objects.get(username="dan"), lesson_uuid=second.uuid, runs=2
    )
    classes.class_extend(room, "bea", first.id, datetime(2031, 1, 31, 14, 0, tzinfo=UTC))
    return room


@pytest.mark.parametrize("scheme", ["light", "dark"])
@one_width("phone")  # the grid scrolls in its own box
def test_the_class_grid_and_the_solve_rate_chart_fit_and_pass_axe(site, page, width, scheme):
    room = make_room()
    first = lesson(LESSONS[0])
    page.set_viewport_size(WIDTHS[width])
    page.emulate_media(color_scheme=scheme)
    log_in(page, site, room.teacher)
    page.goto(f"{site}/classes/{room.pk}/")

    grid = page.locator("table.glance-grid")
    expect(grid).to_be_visible()
    expect(grid.locator("tbody tr")).to_have_count(4)
    expect(grid.locator(".glance-cell")).to_have_count(4 * len(LESSONS))
    expect(grid.locator("a.glance-cell")).to_have_count(4)  # a link where there is work
    ada_late = grid.get_by_role("link", name=f"Ada Byron, {first.title}: solved")
    expect(ada_late).to_contain_text("!")
    expect(grid.get_by_role("link", name="extended to 2031-01-31 17:00")).to_contain_text("+")
    expect(page.locator(".glance-legend")).to_contain_text("Late: 2")  # ada's solve, dan's nothing
    assert axe_violations(page) == []
    if width == "phone":
        assert overflow(page) is None
        box = page.locator(".glance-wrap")
        sizes = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert sizes[1] <= WIDTHS["phone"]["width"]  # the box fits; what is wider scrolls inside

    ada_late.focus()  # a link the keyboard reaches: Enter opens the learner's work
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{site}/classes/{room.pk}/learners/ada/lessons/{first.id}/#latest")

    page.goto(f"{site}/classes/{room.pk}/analysis/{first.id}/")
    chart = page.get_by_role("img", name="who had solved")
    expect(chart).to_be_visible()
    assert "Due " in (chart.get_attribute("aria-label") or "")
    expect(page.locator(".solve-rate")).to_contain_text("By the due time")
    expect(page.locator(".solve-rate")).to_contain_text("Now: 3 of 4 learners.")
    assert axe_violations(page) == []
    if width == "phone":
        assert overflow(page) is None
