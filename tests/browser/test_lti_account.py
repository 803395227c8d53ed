"""An LTI learner leaves, in Chromium (review M4): launched from the LMS emulator
(tests/web/lti_platform.py), named as the LMS names them on the teacher's roster, they open
their account's delete page, which asks them to type their username (they have no password),
and their account goes."""

from __future__ import annotations

import io

import pytest
import requests
from django.contrib.auth.models import User
from django.core.management import call_command
from lti_tool.models import LtiRegistration, LtiUser
from playwright.sync_api import expect

from codeblanks.web.teaching import classes, roster
from web.lti_platform import Platform, new_sub

from .conftest import WIDTHS
from .test_classes import GOOD, lesson

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_lti_learner_deletes_their_account_by_typing_their_username(site, page):
    lms = Platform(site)
    call_command("lti_register", *lms.registration_args(), stdout=io.StringIO())
    teacher = User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = User.objects.get(pk=teacher.pk)
    room = classes.class_create(teacher, classes.Plan("7B", (lesson("arrays-and-shapes").id,), {}))
    browser, sub = requests.Session(), new_sub()
    claims = {"given_name": "Elif", "family_name": "Şahin", "name": "Elif Şahin"}
    try:
        launched = lms.launch(
            browser,
            LtiRegistration.objects.get().uuid,
            sub=sub,
            custom={"class": room.join_code},
            claims=claims,
        )
        assert launched.status_code == 302
        lms.wait_for_scores(1)  # the launch's score, sent in a thread of its own, has arrived
    finally:
        lms.close()
    account = LtiUser.objects.get(sub=sub).auth_user
    assert [r.name for r in roster.roster(room).rows] == ["Elif Şahin"]
    page.context.add_cookies(
        [{"name": c.name, "value": c.value, "url": site} for c in browser.cookies]
    )
    # Its keep-alive connection holds one of the live server's request threads until closed.
    browser.close()
    page.set_viewport_size(WIDTHS["desktop"])
    page.allowed_statuses = {400}  # the wrong username, on purpose
    page.goto(f"{site}/accounts/delete/")
    expect(page.get_by_label("Your password")).to_have_count(0)
    box = page.get_by_label(f"Type your username, {account.username}, to confirm")
    box.fill("someone-else")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.locator("main")).to_contain_text("That is not your username.")
    page.get_by_label(f"Type your username, {account.username}, to confirm").fill(account.username)
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert not User.objects.filter(pk=account.pk).exists()
    assert not room.members.exists()
