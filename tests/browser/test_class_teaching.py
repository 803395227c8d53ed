"""What a teacher clicks on the class page in Chromium: add a co-teacher, set the late
policy, give a learner more time, grade the last programs again through the real sandbox. At
desktop width every step; at phone width the page with its new forms fits and axe finds
nothing serious."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import expect

from codeblanks.web.models import Attempt, LessonProgress
from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import Classroom

from .conftest import WIDTHS, axe_violations, log_in, overflow
from .test_classes import GOOD, lesson

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def make_room() -> tuple[Classroom, object]:
    first = lesson("arrays-and-shapes")
    teacher = User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = User.objects.get(pk=teacher.pk)
    due = {first.id: datetime(2030, 1, 31, 14, 0, tzinfo=UTC)}
    plan = classes.Plan("Class 7B", (first.id,), due, "Europe/Istanbul")
    room = classes.class_create(teacher, plan)
    ada = User.objects.create_user("ada", password=GOOD, first_name="Ada", last_name="Byron")
    classes.class_join(ada, room)
    User.objects.create_user("bob", password=GOOD)
    # A right program a faulty check called wrong: grading it again makes it right.
    LessonProgress.objects.create(user=ada, lesson_uuid=first.uuid, runs=1)
    Attempt.objects.create(
        user=ada, lesson_uuid=first.uuid, verdict="incorrect", program=first.exercise.solution
    )
    return room, first


def test_a_teacher_adds_a_co_teacher_sets_late_work_extends_and_regrades(site, page):
    room, first = make_room()
    page.set_viewport_size(WIDTHS["desktop"])
    log_in(page, site, room.teacher)
    page.goto(f"{site}/classes/{room.pk}/")
    expect(page.locator("table.roster thead")).to_contain_text("due 2030-01-31 17:00")
    expect(page.locator("th.learner-name")).to_contain_text("Ada Byron")

    page.get_by_label("Add a co-teacher (their username)").fill("nobody")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#add-teacher-error")).to_contain_text("There is no account")
    page.get_by_label("Add a co-teacher (their username)").fill("bob")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("bob teaches this class too now.")
    expect(page.locator(".teacher-list")).to_contain_text("bob")

    page.get_by_label("counts less, per day late (percent):").check()
    page.get_by_label("Percent off per day late").fill("20")
    page.get_by_role("button", name="Save the late policy").click()
    expect(page.get_by_label("counts less, per day late (percent):")).to_be_checked()
    expect(page.get_by_label("Percent off per day late")).to_have_value("20")

    page.get_by_label("Learner", exact=True).select_option("ada")
    page.get_by_label("Lesson", exact=True).select_option(first.id)
    page.get_by_label("New due time").fill("2030-02-01T17:00")
    page.get_by_role("button", name="Give the extension").click()
    expect(page.locator("td.cell.extended")).to_contain_text("extended to 2030-02-01 17:00")

    page.get_by_role("button", name="Grade the last programs again").click()
    report = page.locator(".regrade-report")
    expect(report).to_contain_text("1 program graded again, 1 changed.")
    expect(report).to_contain_text(f"Ada Byron · {first.id}: incorrect → correct")
    expect(page.locator("td.cell")).to_contain_text("✓ Solved")
    assert axe_violations(page) == [] and overflow(page) is None


def test_the_class_page_fits_a_phone(site, page):
    room, _first = make_room()
    page.set_viewport_size(WIDTHS["phone"])
    log_in(page, site, room.teacher)
    page.goto(f"{site}/classes/{room.pk}/")
    page.get_by_label("Add a co-teacher (their username)").fill("bob")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".teacher-list")).to_contain_text("bob")
    expect(page.get_by_role("button", name="Give the extension")).to_be_visible()
    assert axe_violations(page) == [] and overflow(page) is None
