"""Drafts, in real Chromium: what a learner types and does not run survives a reload
(this browser's copy) and reaches another device (the server's), marked "Draft" beside the
last-run code; a Run makes it the saved code and the mark goes."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models.signals import post_save
from playwright.sync_api import expect

from codeblanks.web.models import Draft

from .conftest import WIDTHS, axe_violations, editor_text, one_width, overflow, set_code
from .conftest import log_in as sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LESSON = "arrays-and-shapes"
PASSWORD = "a-long-enough-passphrase-42"


def log_in(page, site, name="ada"):
    """Signed in (a session cookie, not the form) and on the lesson's page."""
    sign_in(page, site, User.objects.get(username=name))
    page.goto(f"{site}/lessons/{LESSON}/")


@one_width("phone")  # the page with its draft mark must fit; the other device is wide
def test_a_draft_survives_a_reload_and_reaches_another_device(site, page, another_page, width):
    User.objects.create_user("ada", password=PASSWORD)
    page.set_viewport_size(WIDTHS[width])
    log_in(page, site)
    state = page.locator(".draft-state")
    expect(state).to_be_hidden()
    set_code(page, "# typed, never run\nx = 42\n")
    expect(state).to_be_visible()
    expect(state).to_have_attribute("data-how", "saved")  # on the server within seconds
    expect(state.locator(".draft-tag")).to_have_text("Draft")
    assert overflow(page) is None
    assert axe_violations(page) == []

    page.reload()
    expect(page.locator(".cb-editor .cm-content")).to_contain_text("# typed, never run")
    assert editor_text(page) == "# typed, never run\nx = 42\n"
    expect(state).to_be_visible()

    other = "desktop" if width == "phone" else "phone"
    device = another_page(viewport=WIDTHS[other])  # another device: no localStorage of its own
    log_in(device, site)
    expect(device.locator(".cb-editor .cm-content")).to_contain_text("# typed, never run")
    assert editor_text(device) == "# typed, never run\nx = 42\n"
    expect(device.locator(".draft-state")).to_have_attribute("data-how", "saved")


def test_leaving_the_page_at_once_still_sends_the_draft(site, page, another_page):
    """Typed and gone before the pause that sends it: the page sends it as it is left."""
    User.objects.create_user("ada", password=PASSWORD)
    log_in(page, site)
    set_code(page, "print('left in a hurry')\n")
    # A keepalive request sent as the page goes is not one Playwright reports: wait on the
    # server's side instead, for the draft's row to be committed.
    saved = threading.Event()

    def committed(sender, **kwargs):
        transaction.on_commit(saved.set)

    post_save.connect(committed, sender=Draft, weak=False)
    try:
        page.goto(f"{site}/")
        assert saved.wait(timeout=60), "the draft never reached the server"
    finally:
        post_save.disconnect(committed, sender=Draft)
    assert Draft.objects.get().code == "print('left in a hurry')\n"
    other = another_page()
    log_in(other, site)
    assert editor_text(other) == "print('left in a hurry')\n"


@one_width("desktop")
def test_an_anonymous_draft_is_kept_in_this_browser_until_run(site, page, width):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{LESSON}/?lang=tr")
    set_code(page, "print('taslak')\n")
    state = page.locator(".draft-state")
    expect(state).to_have_attribute("data-how", "local")
    expect(state.locator(".draft-tag")).to_have_text("Taslak")
    page.reload()
    expect(page.locator(".cb-editor .cm-content")).to_contain_text("taslak")
    expect(state).to_be_visible()
    assert not Draft.objects.exists()  # an anonymous visitor's drafts stay in the browser

    page.locator("#run-form button.run").click()
    expect(page.locator("#result .verdict")).to_be_visible()
    expect(state).to_be_hidden()  # run: the saved code now, no draft
    page.reload()
    assert editor_text(page) == "print('taslak')\n"  # the run's code
    expect(state).to_be_hidden()
    assert page.evaluate("() => Object.keys(localStorage).filter(k => k.includes('draft'))") == []
