"""In Chromium: a teacher opens a class's item analysis while its wrong programs
are not grouped yet; the page says so, and the groups fill in by themselves (htmx asks the page
again) once the background thread has run them through the real sandbox. Nothing serious for
axe; the programs are shown as text."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.web.models import Attempt
from codeblanks.web.teaching import classes

from .conftest import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
GOOD = "a-long-enough-passphrase-42"
LESSON = "py-dictionaries"
COUNTING = """\
votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    counts[drink] = counts.get(drink, 0) + 1
for drink, count in counts.items():
"""
PROGRAMS = (
    COUNTING + '    print(drink + ":", count)\n',
    COUNTING + '    print(drink + ": " + str(count))\n',
    COUNTING + '    print("<b>" + drink, count)\n',
)


def test_the_groups_fill_in_once_computed(site, page):
    lesson = catalog().lesson(LESSON)
    teacher = User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    room = classes.class_create(User.objects.get(pk=teacher.pk), classes.Plan("7B", (LESSON,), {}))
    for name, code in zip(("ada", "bob", "cy"), PROGRAMS, strict=True):
        learner = User.objects.create_user(name, password=GOOD)
        classes.class_join(learner, room)
        # as a run keeps it (web/teaching/analysis.py attempt_fields); the page runs it again
        Attempt.objects.create(
            user=learner, lesson_uuid=lesson.uuid, verdict="incorrect", case="visible",
            program=code, wrong_code=code.strip(), code_digest=name,
        )  # fmt: skip

    page.goto(f"{site}/accounts/login/")
    page.get_by_label("Username").fill("teacher")
    page.get_by_label("Password").fill(GOOD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{site}/classes/{room.pk}/analysis/{LESSON}/")
    expect(page.locator("#groups-body")).to_contain_text("Computing the groups")
    assert axe_violations(page) == []

    groups = page.locator("article.program-group")
    expect(groups).to_have_count(2)  # filled in without a reload
    expect(groups.nth(0).get_by_role("heading")).to_contain_text("2 programs")
    expect(groups.nth(1).get_by_role("heading")).to_contain_text("1 program")
    expect(groups.nth(0).get_by_role("heading")).to_contain_text("candidate-2x-")
    expect(groups.nth(1).locator("pre")).to_contain_text('print("<b>" + drink, count)')
    expect(page.locator("#groups-body")).not_to_contain_text("Computing")
    assert axe_violations(page) == []
