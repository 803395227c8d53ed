"""Log-in throttling (django-axes): after a few wrong passwords for one account from one
address, that pair waits, and is told for how long in words, on the site's log-in page and
the admin's alike; the right password does not get in meanwhile."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from .conftest import HOST

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-enough-passphrase-42"
PAGES = {"/accounts/login/": "ada", "/admin/login/": "boss"}


@pytest.fixture(autouse=True)
def people():
    User.objects.create_user("ada", password=PASSWORD)
    User.objects.create_superuser("boss", password=PASSWORD)


def _client(address="127.0.0.1"):
    return Client(HTTP_HOST=HOST, REMOTE_ADDR=address)


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.parametrize("url", PAGES)
def test_after_the_failure_limit_the_pair_waits_and_is_told_how_long(url):
    name, client = PAGES[url], _client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        r = client.post(url, {"username": name, "password": "wrong"})
        assert r.status_code == 200 and not _logged_in(client)
    r = client.post(url, {"username": name, "password": "wrong"})
    assert r.status_code == 429
    r = client.post(url, {"username": name, "password": PASSWORD})
    html = r.content.decode()
    assert r.status_code == 429 and not _logged_in(client)
    assert "Too many wrong passwords" in html and "Try again in 15 minutes" in html
    assert r["Content-Security-Policy"]


def test_the_lock_is_for_the_pair_only():
    locked = _client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        locked.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    elsewhere = _client("10.0.0.9")
    r = elsewhere.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert r.status_code == 302 and _logged_in(elsewhere)
    User.objects.create_user("cy", password=PASSWORD)
    r = locked.post("/accounts/login/", {"username": "cy", "password": PASSWORD})
    assert r.status_code == 302 and _logged_in(locked)


def test_a_success_forgets_the_failures():
    client = _client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    assert (
        client.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code
        == 302
    )
    client = _client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        r = client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
        assert r.status_code == 200


def test_a_forwarded_address_does_not_escape_the_lock():
    for i in range(settings.AXES_FAILURE_LIMIT + 1):
        client = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_FOR=f"10.1.0.{i}")
        r = client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    assert r.status_code == 429


def test_signup_still_logs_the_new_learner_in():
    client = _client()
    r = client.post(
        "/accounts/signup/", {"username": "dee", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert r.status_code == 302 and _logged_in(client)
