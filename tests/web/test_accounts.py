"""Accounts without a browser: the e-mail settings read from CODEBLANKS_EMAIL_URL, a password
reset's message and link through Django's mail outbox, each password error under its own field,
and a deleted account taking its rows with it."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from codeblanks.web import config
from codeblanks.web.account_forms import SetPasswordForm, SignupForm
from codeblanks.web.models import LessonProgress, PersonalToken

from .conftest import FIRST

GOOD = "a-long-enough-passphrase-42"


def test_email_urls_become_django_settings():
    assert config.email("console://")["EMAIL_BACKEND"].endswith("console.EmailBackend")
    files = config.email("file:///var/mail/codeblanks")
    assert files["EMAIL_BACKEND"].endswith("filebased.EmailBackend")
    assert files["EMAIL_FILE_PATH"] == "/var/mail/codeblanks"
    smtp = config.email("smtp://me%40example.org:p%3Ass@mail.example.org")
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"], smtp["EMAIL_USE_TLS"]) == (
        "mail.example.org",
        587,
        True,
    )
    assert (smtp["EMAIL_HOST_USER"], smtp["EMAIL_HOST_PASSWORD"]) == ("me@example.org", "p:ss")
    smtps = config.email("smtps://mail.example.org:2465")
    assert (smtps["EMAIL_PORT"], smtps["EMAIL_USE_SSL"], smtps["EMAIL_USE_TLS"]) == (
        2465,
        True,
        False,
    )


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("pigeon://coop", "unknown scheme 'pigeon'"),
        ("file://", "give a folder"),
        ("smtp://", "name the mail server"),
        ("smtp://host:port", "the port is not a number"),
    ],
)
def test_a_bad_email_url_is_refused_at_start_naming_the_variable(url, says, tmp_path):
    with pytest.raises(config.ConfigError, match="CODEBLANKS_EMAIL_URL") as refused:
        config.from_env({"CODEBLANKS_DATA_DIR": str(tmp_path), "CODEBLANKS_EMAIL_URL": url})
    assert says in str(refused.value)


def test_the_default_is_the_console(tmp_path):
    c = config.from_env({"CODEBLANKS_DATA_DIR": str(tmp_path)})
    assert c.email_url == "console://" and c.email_from == "CodeBlanks <noreply@localhost>"


@pytest.mark.django_db
def test_sign_up_errors_are_under_the_field_they_are_about():
    form = SignupForm({"username": "ada", "password1": "short", "password2": "short"})
    assert not form.is_valid()
    assert "password2" not in form.errors
    assert any("too short" in e for e in form.errors["password1"])
    form = SignupForm({"username": "ada", "password1": GOOD, "password2": GOOD + "x"})
    assert list(form.errors) == ["password2"]  # a mismatch is about the confirmation
    form = SignupForm({"username": "ada", "email": "", "password1": GOOD, "password2": GOOD})
    assert form.is_valid()  # the e-mail address is optional


@pytest.mark.django_db
def test_set_password_errors_are_under_the_new_password():
    user = User.objects.create_user("ada", password=GOOD)
    form = SetPasswordForm(user, {"new_password1": "123", "new_password2": "123"})
    assert not form.is_valid() and list(form.errors) == ["new_password1"]


@pytest.mark.django_db
def test_password_reset_mails_a_link_that_sets_a_new_password(client):
    User.objects.create_user("ada", "ada@example.org", GOOD)
    r = client.post("/accounts/password_reset/", {"email": "ada@example.org"})
    assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
    (message,) = mail.outbox
    assert message.to == ["ada@example.org"] and message.subject == "Your CodeBlanks password"
    link = re.search(r"http://[^/\s]+(/accounts/reset/\S+/)", message.body).group(1)
    r = client.get(link, follow=True)
    form_url = r.redirect_chain[-1][0]
    r = client.post(form_url, {"new_password1": "x" * 20, "new_password2": "x" * 20})
    assert r.status_code == 302 and r["Location"] == "/accounts/reset/done/"
    assert User.objects.get(username="ada").check_password("x" * 20)


@pytest.mark.django_db
def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client):
    r = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []


@pytest.mark.django_db
def test_deleting_the_account_needs_its_password_and_takes_its_rows(client):
    user = User.objects.create_user("ada", password=GOOD)
    LessonProgress.objects.create(user=user, lesson_uuid=FIRST.uuid)
    PersonalToken.objects.create(user=user, name="laptop", prefix="abc", digest="d" * 64)
    client.force_login(user)
    r = client.post("/accounts/delete/", {"password": "wrong"})
    assert r.status_code == 400 and "not your password" in r.content.decode()
    assert User.objects.filter(pk=user.pk).exists()
    r = client.post("/accounts/delete/", {"password": GOOD})
    assert r.status_code == 200 and "Your account is deleted" in r.content.decode()
    assert not User.objects.filter(pk=user.pk).exists()
    assert not LessonProgress.objects.exists() and not PersonalToken.objects.exists()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_account_pages_need_a_log_in(client):
    for url in ("/accounts/", "/accounts/delete/", "/accounts/password_change/"):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith("/accounts/login/?next=")
