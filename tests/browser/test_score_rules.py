"""A teacher sets a class's points in Chromium: the exercise worth 3, each
question 2, answers after review counting; the class page says so in words beside the scores,
which follow at once. axe finds nothing serious on the form or the page, and nothing is wider
than the phone."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from codeblanks.web.models import LessonProgress
from codeblanks.web.teaching import classes

from .conftest import WIDTHS, axe_violations, log_in, one_width, overflow
from .test_classes import GOOD, lesson

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@one_width("phone")  # the points form and the class page must fit
def test_a_teacher_sets_the_points_and_the_scores_follow(site, page, width):
    first = lesson("arrays-and-shapes")
    teacher = User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = User.objects.get(pk=teacher.pk)
    room = classes.class_create(teacher, classes.Plan("Class 7B", (first.id,), {}))
    ada = User.objects.create_user("ada", password=GOOD)
    classes.class_join(ada, room)
    LessonProgress.objects.create(user=ada, lesson_uuid=first.uuid, solved_at=timezone.now())

    page.set_viewport_size(WIDTHS[width])
    log_in(page, site, teacher)
    page.goto(f"{site}/classes/{room.pk}/")
    cell = page.locator("table.roster td.cell")
    expect(cell).to_contain_text(f"1/{1 + len(first.questions)} points")
    page.get_by_role("link", name="Change the points").click()
    # The click only starts the navigation: axe run on the page being left fails mid-run.
    expect(page.get_by_label("The exercise is worth")).to_be_visible()
    assert axe_violations(page) == [] and overflow(page) is None
    page.get_by_label("The exercise is worth").fill("3")
    page.get_by_label("Each question is worth").fill("2")
    page.get_by_label("Answers after review count").check()
    page.get_by_role("button", name="Save the class").click()

    expect(page.locator("#rescored")).to_have_text("The scores below follow the new rules.")
    expect(page.locator(".score-rules")).to_contain_text(
        "Points in this class: the exercise 3, each question 2. Answers after review count"
    )
    expect(cell).to_contain_text(f"3/{3 + 2 * len(first.questions)} points")
    assert axe_violations(page) == [] and overflow(page) is None
    room.refresh_from_db()
    assert (room.exercise_points, room.question_points, room.count_after_review) == (3, 2, True)
