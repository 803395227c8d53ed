"""A teacher helps a stuck learner, in Chromium at phone width: the
learner fails then solves a lesson through the real sandbox and answers a question right; the
roster shows their points, and one click on the cell opens their latest program, every run
with what changed, and their answers. axe finds nothing serious, nothing is wider than the
phone."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import expect

from codeblanks.web.teaching import classes

from .conftest import WIDTHS, axe_violations, log_in, one_width, overflow
from .test_classes import GOOD, lesson, run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@one_width("phone")  # the learner's work page, its runs and diffs, must fit
def test_a_teacher_opens_a_learners_latest_program_from_the_roster(site, page, another_page, width):
    size = WIDTHS[width]
    first = lesson("arrays-and-shapes")
    teacher = User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = User.objects.get(pk=teacher.pk)
    room = classes.class_create(teacher, classes.Plan("Class 7B", (first.id,), {}))
    ada = another_page(viewport=size)
    log_in(ada, site, User.objects.create_user("ada", password=GOOD))
    ada.goto(f"{site}/classes/join/{room.join_token}/")
    expect(ada.locator("main")).to_contain_text("every program you ran")
    ada.get_by_role("button", name="Join the class").click()
    run(ada, site, first.id, first.exercise.starter, "error")
    run(ada, site, first.id, first.exercise.solution, "correct")
    choice = next(q for q in first.questions if q.kind == "choice")
    box = ada.locator(f"#q-{choice.id}")
    box.locator(f"input[type=radio][value='{choice.answer}']").check()
    box.get_by_role("button", name="Check").click()
    expect(box.locator(".q-feedback")).to_contain_text("Right.")

    page.set_viewport_size(size)
    log_in(page, site, teacher)
    page.goto(f"{site}/classes/{room.pk}/")
    cell = page.locator("table.roster tr", has=page.locator("th", has_text="ada")).locator(
        "td.cell"
    )
    expect(cell).to_contain_text(f"2/{1 + len(first.questions)} points")
    assert axe_violations(page) == [] and overflow(page) is None
    cell.get_by_role("link", name="Work of ada in this lesson").click()

    expect(page.get_by_role("heading", level=1)).to_have_text(f"ada in {first.title}")
    latest = page.locator("#latest")
    expect(latest).to_contain_text("correct")
    last_line = first.exercise.solution.strip().splitlines()[-1].strip()
    expect(latest.locator("pre code")).to_contain_text(last_line)
    expect(page.locator(".work-run")).to_have_count(2)
    expect(page.locator(".work-run").first.locator(".diff-row.got").first).to_be_visible()
    expect(page.locator(".work-answers")).to_contain_text("✓ right")
    assert axe_violations(page) == [] and overflow(page) is None


def test_a_teacher_rotates_the_code_removes_a_learner_and_edits_the_class(site, page):
    first = lesson("arrays-and-shapes")
    teacher = User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = User.objects.get(pk=teacher.pk)
    room = classes.class_create(teacher, classes.Plan("Class 7B", (first.id,), {}))
    classes.class_join(User.objects.create_user("ada", password=GOOD), room)
    log_in(page, site, teacher)
    page.goto(f"{site}/classes/{room.pk}/")
    old = page.locator(".join-code").inner_text()
    page.get_by_role("button", name="New code and link").click()
    expect(page.locator(".join-code")).not_to_have_text(old)
    assert classes.class_by_code(old) is None

    row = page.locator("table.roster tr", has=page.locator("th", has_text="ada"))
    row.get_by_role("button", name="Remove ada from the class").click()
    expect(row.locator(".left-mark")).to_have_text("(left)")
    expect(row.get_by_role("button")).to_have_count(0)
    assert axe_violations(page) == [] and overflow(page) is None

    page.get_by_role("link", name="Edit the name, lessons and due dates").click()
    expect(page.get_by_label(first.title, exact=True)).to_be_checked()
    assert axe_violations(page) == [] and overflow(page) is None
    page.get_by_label("Name").fill("Class 7C")
    page.get_by_label(f"Due time for {first.title}").fill("2030-01-31T17:00")
    page.get_by_role("button", name="Save the class").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Class 7C")
    expect(page.locator("table.roster thead")).to_contain_text("due 2030-01-31 17:00")
