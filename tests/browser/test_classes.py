"""A teacher's class in Chromium, at phone width: the
teacher makes a class, one learner joins by its link (signing up on the way, their anonymous
run carried over), another by its code; they solve and fail a lesson through the real sandbox,
and the roster and its CSV show exactly that; axe finds nothing serious, nothing is wider than
the phone."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import expect

from codeblanks.content import catalog

from .conftest import WIDTHS, axe_violations, one_width, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
GOOD = "a-long-enough-passphrase-42"


def lesson(lesson_id: str):
    return catalog().lesson(lesson_id)


def sign_up(page, name):
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(GOOD)
    page.get_by_label("Password confirmation").fill(GOOD)
    page.get_by_role("button", name="Create account").click()


def run(page, site, lesson_id, code, verdict):
    page.goto(f"{site}/lessons/{lesson_id}/")
    set_code(page, code)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result .verdict")).to_have_attribute("data-verdict", verdict)


@one_width("phone")  # the class form, roster and item analysis must fit
def test_a_teacher_sees_two_learners_join_solve_and_fail(site, page, another_page, width):
    size = WIDTHS[width]
    User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    page.set_viewport_size(size)
    page.goto(f"{site}/accounts/login/")
    page.get_by_label("Username").fill("teacher")
    page.get_by_label("Password").fill(GOOD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Classes", exact=True).click()
    page.get_by_role("link", name="New class").click()
    page.get_by_label("Name").fill("Class 7B")
    first, second = lesson("arrays-and-shapes"), lesson("broadcasting")
    page.get_by_label(first.title, exact=True).check()
    page.get_by_label(second.title, exact=True).check()
    page.get_by_label(f"Due time for {second.title}").fill("2030-01-31T23:59")
    assert axe_violations(page) == [] and overflow(page) is None
    page.get_by_role("button", name="Make the class").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Class 7B")
    code = page.locator(".join-code").inner_text()
    link = page.locator(".join-link").inner_text()

    ada = another_page(viewport=size)
    run(ada, site, first.id, first.exercise.solution, "correct")  # before having an account
    ada.goto(link)
    ada.get_by_role("link", name="Sign up").first.click()
    sign_up(ada, "ada")
    ada.get_by_role("button", name="Join the class").click()
    expect(ada.locator(".class-list")).to_contain_text("Class 7B")

    bob = another_page(viewport=size)
    bob.goto(f"{site}/accounts/signup/")
    sign_up(bob, "bob")
    bob.goto(f"{site}/classes/")
    bob.get_by_label("Join a class with its code").fill(code.lower())
    bob.get_by_role("button", name="Join", exact=True).click()
    expect(bob.locator(".class-list")).to_contain_text("Class 7B")
    run(bob, site, first.id, first.exercise.starter, "error")
    run(bob, site, first.id, first.exercise.starter, "error")

    page.reload()
    roster = page.locator("table.roster")
    ada_row = roster.locator("tr", has=page.locator("th", has_text="ada"))
    bob_row = roster.locator("tr", has=page.locator("th", has_text="bob"))
    expect(ada_row.locator("td.cell").first).to_contain_text("Solved")
    expect(ada_row.locator("td.cell").first).to_contain_text("1 run")
    expect(bob_row.locator("td.cell").first).to_contain_text("Tried")
    expect(bob_row.locator("td.cell").first).to_contain_text("2 runs")
    expect(roster.locator("thead")).to_contain_text("1/2 solved")
    assert axe_violations(page) == [] and overflow(page) is None

    href = page.get_by_role("link", name="Download as CSV").get_attribute("href")
    answer = page.request.get(f"{site}{href}")
    rows = {
        (r["learner"], r["lesson"]): r
        for r in csv.DictReader(io.StringIO(answer.body().decode("utf-8-sig")))
    }
    assert (rows["ada", first.id]["solved"], rows["ada", first.id]["runs"]) == ("1", "1")
    assert (rows["bob", first.id]["solved"], rows["bob", first.id]["runs"]) == ("0", "2")
    assert rows["bob", "broadcasting"]["due_on"] == "2030-01-31"

    # Where the class struggles: bob's two failing runs of the first lesson, no names shown.
    page.get_by_role("link", name=f"Item analysis of {first.title}").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(first.title)
    expect(page.locator(".stats")).to_contain_text("Runs")
    chart = page.get_by_role("img", name=re.compile("^Failing runs per case: .*: 2$"))
    expect(chart).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("bob")
    assert axe_violations(page) == [] and overflow(page) is None
