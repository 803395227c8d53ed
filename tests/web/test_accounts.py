"""Accounts without a browser: the e-mail settings read from CODEBLANKS_EMAIL_URL, a password
reset's message and link through Django's mail outbox, each password error under its own field,
and a deleted account taking its rows with it."""

import dataclasses
import io
import json
import logging
import re
import threading

import pytest
from django.contrib.auth.models import User
from django.core import mail

from codeblanks.web import config, mailer
from codeblanks.web.account_forms import SetPasswordForm, SignupForm
from codeblanks.web.door import logs, requestlog
from codeblanks.web.models import LessonProgress, PersonalToken
from codeblanks.web.views.accounts import RESETS_PER_ADDRESS, RESETS_PER_EMAIL

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
@pytest.mark.parametrize("name", ["lti-85f2ef987b76", "LTI-abc", "Lti-x"])
def test_sign_up_refuses_the_names_kept_for_lms_accounts(client, name):
    """Accounts an LTI launch makes are named lti-…; no one may take such a name first."""
    page = client.post(
        "/accounts/signup/", {"username": name, "password1": GOOD, "password2": GOOD}
    )
    assert page.status_code == 400
    assert "kept for accounts from an LMS" in page.content.decode()
    assert not User.objects.filter(username__iexact=name).exists()
    assert SignupForm({"username": "lti", "password1": GOOD, "password2": GOOD}).is_valid()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("given", "lands"),
    [("/lessons/first-steps/", "/lessons/first-steps/"), ("²", "/"), ("home", "/"),
     ("https://evil.example/", "/"), ("//evil.example/", "/"), ("", "/")],
)  # fmt: skip
def test_sign_up_goes_on_to_a_path_of_this_site_only(client, given, lands):
    """A bare word was taken for a view's name by redirect() (a 500, found by the fuzz test)."""
    r = client.post(
        "/accounts/signup/",
        {"username": "ada", "password1": GOOD, "password2": GOOD, "next": given},
    )
    assert r.status_code == 302 and r["Location"] == lands


@pytest.mark.django_db
def test_set_password_errors_are_under_the_new_password():
    user = User.objects.create_user("ada", password=GOOD)
    form = SetPasswordForm(user, {"new_password1": "123", "new_password2": "123"})
    assert not form.is_valid() and list(form.errors) == ["new_password1"]


SITE = "https://learn.example.org"


@pytest.fixture
def site(settings):
    """A site URL, as an operator sets it (CODEBLANKS_SITE_URL)."""
    settings.CODEBLANKS = dataclasses.replace(settings.CODEBLANKS, site_url=SITE)


def _sent() -> list:
    """The outbox once every queued message is out (the mail goes after the answer)."""
    assert mailer.wait_sent(30), "the reset mail was never sent"
    return mail.outbox


def _reset(client, email, **extra):
    return client.post("/accounts/password_reset/", {"email": email}, **extra)


@pytest.mark.django_db
def test_password_reset_mails_a_link_that_sets_a_new_password(client, site):
    User.objects.create_user("ada", "ada@example.org", GOOD)
    r = _reset(client, "ada@example.org")
    assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
    (message,) = _sent()
    assert message.to == ["ada@example.org"] and message.subject == "Your CodeBlanks password"
    link = re.search(r"https://learn\.example\.org(/accounts/reset/\S+/)", message.body).group(1)
    r = client.get(link, follow=True)
    form_url = r.redirect_chain[-1][0]
    r = client.post(form_url, {"new_password1": "x" * 20, "new_password2": "x" * 20})
    assert r.status_code == 302 and r["Location"] == "/accounts/reset/done/"
    assert User.objects.get(username="ada").check_password("x" * 20)


@pytest.mark.django_db
def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, site):
    r = _reset(client, "nobody@example.org")
    assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
    assert _sent() == []


# ---- password reset, the site's URL, deleting an account -------------------------------------


@pytest.mark.django_db
def test_the_link_comes_from_the_site_url_never_from_the_requests_host(client, site):
    """Any port of an allowed host passes ALLOWED_HOSTS: the link took it from the request, so
    a forged Host sent the token to a server of the forger's choosing."""
    User.objects.create_user("ada", "ada@example.org", GOOD)
    assert _reset(client, "ada@example.org", HTTP_HOST="localhost:6666").status_code == 302
    (message,) = _sent()
    assert f"{SITE}/accounts/reset/" in message.body and "localhost" not in message.body


@pytest.mark.django_db
def test_without_a_site_url_no_reset_mail_is_sent_and_the_page_says_so(client, settings):
    settings.CODEBLANKS = dataclasses.replace(settings.CODEBLANKS, site_url="")
    User.objects.create_user("ada", "ada@example.org", GOOD)
    page = client.get("/accounts/password_reset/").content.decode()
    assert "sends no password-reset e-mail" in page and 'name="email"' not in page
    r = _reset(client, "ada@example.org")
    assert r.status_code == 503 and "CODEBLANKS_SITE_URL" in r.content.decode()
    assert _sent() == []


@pytest.mark.django_db
def test_reset_requests_are_throttled_per_address(client, site):
    User.objects.create_user("ada", "ada@example.org", GOOD)
    for i in range(RESETS_PER_ADDRESS):
        assert _reset(client, f"someone{i}@example.org").status_code == 302
    r = _reset(client, "ada@example.org")
    assert r.status_code == 429, r.content[:300]
    assert "Too many password-reset requests this hour" in r.content.decode()
    assert _sent() == []  # the refused request for an account sent nothing
    assert _reset(client, "ada@example.org", REMOTE_ADDR="10.0.0.7").status_code == 302
    assert len(_sent()) == 1  # another address is not held up


@pytest.mark.django_db
def test_reset_requests_are_throttled_per_email_address_from_any_address(client, site):
    User.objects.create_user("ada", "ada@example.org", GOOD)
    for i in range(RESETS_PER_EMAIL):
        r = _reset(client, "ada@example.org", REMOTE_ADDR=f"10.0.0.{i}")
        assert r.status_code == 302
    r = _reset(client, "ADA@example.org", REMOTE_ADDR="10.0.1.1")
    assert r.status_code == 429 and "for this e-mail address" in r.content.decode()
    assert len(_sent()) == RESETS_PER_EMAIL
    # an address with no account is throttled the same way, so the 429 tells nothing
    for i in range(RESETS_PER_EMAIL):
        assert _reset(client, "nobody@example.org", REMOTE_ADDR=f"10.0.2.{i}").status_code == 302
    assert _reset(client, "nobody@example.org", REMOTE_ADDR="10.0.3.1").status_code == 429


@pytest.mark.django_db
def test_the_answer_does_not_wait_for_the_mail(client, site, monkeypatch):
    """An address with an account was answered only once its message was rendered and sent
    (SMTP: up to seconds), one without at once: the time told which addresses have accounts.
    Here the mail server holds every message until the answer has come."""
    from django.core.mail.backends.locmem import EmailBackend

    answered, sent_after_answer = threading.Event(), []
    send = EmailBackend.send_messages

    def held(self, messages):
        sent_after_answer.append(answered.wait(30))  # before the fix: 30 s, then False
        return send(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", held)
    User.objects.create_user("ada", "ada@example.org", GOOD)
    assert _reset(client, "ada@example.org").status_code == 302
    answered.set()
    assert len(_sent()) == 1 and sent_after_answer == [True]


def test_the_reset_token_stays_out_of_the_request_log():
    from .test_observability import _app, _call

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("codeblanks.web.request")
    logger.addHandler(handler)
    before, logger.level = logger.level, logging.INFO
    try:
        _call(requestlog.observed(_app()), path="/accounts/reset/MQ/cdlyxs-0123456789abcdef/")
        _call(requestlog.observed(_app()), path="/accounts/reset/MQ/set-password/")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(before)
    lines = [json.loads(x) for x in stream.getvalue().splitlines()]
    assert [x["request"]["path"] for x in lines] == [
        "/accounts/reset/MQ/[token]/",
        "/accounts/reset/MQ/set-password/",
    ]
    assert "0123456789abcdef" not in stream.getvalue()


@pytest.mark.parametrize(
    "url, says",
    [
        ("learn.example.org", "scheme://host"),
        ("ftp://learn.example.org", "scheme://host"),
        ("https://learn.example.org/codeblanks", "scheme://host"),
        ("https://user@learn.example.org", "scheme://host"),
        ("https://learn.example.org:port", "not a number"),
    ],
)
def test_a_bad_site_url_is_refused_at_start_naming_the_variable(url, says):
    with pytest.raises(config.ConfigError, match="CODEBLANKS_SITE_URL") as error:
        config.site_url(url)
    assert says in str(error.value)
    assert config.site_url("https://learn.example.org:8443/") == "https://learn.example.org:8443"


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
