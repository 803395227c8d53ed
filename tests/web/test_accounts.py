"""Accounts: sign up, log in, log out; an anonymous visitor's work comes along."""

import pytest
from django.contrib.auth.models import User

from codeblanks.web.learners import Learner
from codeblanks.web.models import Attempt, LessonProgress, QuestionAnswer
from codeblanks.web.services import code_save

from .conftest import FIRST

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
PASSWORD = "a-long-enough-passphrase-42"


def test_signup_carries_anonymous_progress_over(client, grader):
    client.post("/lessons/first-steps/run", {"code": FIRST.exercise.solution}, **HTMX)
    client.post("/lessons/first-steps/questions/pick", {"choice": "1"}, **HTMX)
    r = client.post(
        "/accounts/signup/",
        {"username": "ada", "password1": PASSWORD, "password2": PASSWORD, "next": "/progress/"},
    )
    assert r.status_code == 302 and r.url == "/progress/"
    ada = User.objects.get(username="ada")
    row = LessonProgress.objects.get()
    assert row.user == ada and row.anon_key == "" and row.solved_at is not None
    assert Attempt.objects.get().user == ada
    assert QuestionAnswer.objects.get().progress == row
    page = client.get("/lessons/first-steps/").content.decode()
    assert "ada" in page and "print(&#x27;a&#x27;)" in page and "Exercise solved" in page
    assert "codeblanks_learner" not in client.session


def test_login_merges_into_existing_progress(client, grader):
    ada = User.objects.create_user("ada", password=PASSWORD)
    code_save(learner=Learner(user_id=ada.pk), lesson=FIRST, code="old code")
    client.post("/lessons/first-steps/run", {"code": "print:newer"}, **HTMX)
    r = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert r.status_code == 302
    row = LessonProgress.objects.get()
    assert row.user == ada and row.code == "print:newer"
    assert Attempt.objects.filter(user=ada).count() == 1


def test_bad_signup_and_login_show_errors(client):
    r = client.post("/accounts/signup/", {"username": "x", "password1": "a", "password2": "b"})
    assert r.status_code == 400 and b'role="alert"' in r.content
    r = client.post("/accounts/login/", {"username": "nobody", "password": "nope"})
    assert r.status_code == 200 and b'role="alert"' in r.content


def test_logout_is_a_post_and_forgets_the_user(client):
    User.objects.create_user("ada", password=PASSWORD)
    client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert "Log in" in client.get("/").content.decode()


def test_signup_never_redirects_off_site(client):
    r = client.post(
        "/accounts/signup/",
        {
            "username": "bo",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert r.status_code == 302 and r.url == "/"
