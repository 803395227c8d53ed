"""Accounts in Chromium: sign up with an e-mail address, a password reset end to
end through Django's file e-mail backend (the message read from disk, its link followed), change
the password, delete the account with its data; each refused password's error under its field."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from codeblanks.web import mailer
from codeblanks.web.models import Attempt, LessonProgress

from .conftest import WIDTHS, log_in, one_width, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
GOOD = "a-long-enough-passphrase-42"
NEW = "another-long-passphrase-77"


@pytest.fixture
def mailbox(settings, tmp_path):
    """Outgoing e-mail as files in a folder of this test (the live server shares settings)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    return tmp_path


def field_of(page, label):
    """The .field block of the input with this label: its errors are shown inside it."""
    return page.locator(".field").filter(has=page.get_by_label(label, exact=True))


def sign_up(page, site, name, email=""):
    page.goto(f"{site}/accounts/signup/")
    page.get_by_label("Username").fill(name)
    if email:
        page.get_by_label("E-mail (optional)").fill(email)
    page.get_by_label("Password", exact=True).fill(GOOD)
    page.get_by_label("Password confirmation").fill(GOOD)
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".who")).to_have_text(name)


@one_width("desktop")
def test_password_reset_end_to_end_through_the_file_backend(site, page, mailbox, width):
    page.allowed_statuses.add(400)  # the too-short new password is answered 400
    page.set_viewport_size(WIDTHS[width])
    sign_up(page, site, "grace", "grace@example.org")
    page.get_by_role("button", name="Log out").click()

    page.goto(f"{site}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill("grace@example.org")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your e-mail")

    assert mailer.wait_sent(30)  # the message goes after the answer
    (message,) = [p.read_text() for p in mailbox.iterdir()]
    assert "To: grace@example.org" in message and "Subject: Your CodeBlanks password" in message
    link = re.search(r"http://\S+/accounts/reset/\S+/", message).group(0)
    page.goto(link)
    page.get_by_label("New password", exact=True).fill("short")
    page.get_by_label("New password confirmation").fill("short")
    page.get_by_role("button", name="Set the new password").click()
    # the validators' verdict under the password typed, not under its confirmation
    expect(field_of(page, "New password").locator(".field-errors")).to_contain_text("too short")
    expect(field_of(page, "New password confirmation").locator(".field-errors")).to_have_count(0)
    page.get_by_label("New password", exact=True).fill(NEW)
    page.get_by_label("New password confirmation").fill(NEW)
    page.get_by_role("button", name="Set the new password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your new password is set")

    page.goto(link)  # a link works once
    expect(page.get_by_role("heading", level=1)).to_have_text("This link no longer works")
    page.goto(f"{site}/accounts/login/")
    page.get_by_label("Username").fill("grace")
    page.get_by_label("Password").fill(NEW)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".who")).to_have_text("grace")


def test_sign_up_errors_sit_under_the_field_they_are_about(site, page):
    page.allowed_statuses.add(400)
    page.goto(f"{site}/accounts/signup/")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("E-mail (optional)").fill(
        "ada@example"
    )  # the browser lets it through; Django does not
    page.get_by_label("Password", exact=True).fill("short")
    page.get_by_label("Password confirmation").fill("short")
    page.get_by_role("button", name="Create account").click()
    expect(field_of(page, "Password").locator(".field-errors")).to_contain_text("too short")
    expect(field_of(page, "Password confirmation").locator(".field-errors")).to_have_count(0)
    expect(field_of(page, "E-mail (optional)").locator(".field-errors")).to_contain_text(
        "valid email"
    )
    page.get_by_label("Password", exact=True).fill(GOOD)
    page.get_by_label("Password confirmation").fill(GOOD + "x")
    page.get_by_role("button", name="Create account").click()
    expect(field_of(page, "Password confirmation").locator(".field-errors")).to_contain_text(
        "didn’t match"
    )


@one_width("phone")
def test_change_password_then_delete_the_account_with_its_data(site, page, width):
    page.allowed_statuses.add(400)  # the wrong password at deletion is answered 400
    page.set_viewport_size(WIDTHS[width])
    log_in(page, site, User.objects.create_user("alan", password=GOOD))
    page.goto(f"{site}/lessons/shapes-and-matmul/")
    set_code(page, "print('mine')\n")
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result .verdict")).to_be_visible()
    user = User.objects.get(username="alan")
    assert LessonProgress.objects.filter(user=user).exists()
    assert Attempt.objects.filter(user=user).exists()

    page.locator(".who").click()
    page.get_by_role("link", name="Change your password").click()
    page.get_by_label("Old password").fill(GOOD)
    page.get_by_label("New password", exact=True).fill(NEW)
    page.get_by_label("New password confirmation").fill(NEW)
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Password changed")
    expect(page.locator(".who")).to_have_text("alan")  # still logged in

    page.goto(f"{site}/accounts/")
    page.get_by_role("link", name="Delete your account").click()
    page.get_by_label("Your password").fill(GOOD)  # the old one no longer counts
    page.get_by_role("button", name="Delete my account").click()
    expect(field_of(page, "Your password").locator(".field-errors")).to_contain_text(
        "not your password"
    )
    assert User.objects.filter(username="alan").exists()
    page.get_by_label("Your password").fill(NEW)
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your account is deleted")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert not User.objects.filter(username="alan").exists()
    assert not LessonProgress.objects.filter(user_id=user.pk).exists()
    assert not Attempt.objects.filter(user_id=user.pk).exists()
