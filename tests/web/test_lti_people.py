"""LTI as teachers expect it (review M4, M5), against the platform emulator: a learner
is named as the LMS names them (roster, CSV, work page), on every launch; an Instructor or TA
who launches a class co-teaches it and is never its learner; an LTI learner, who has no
password, deletes their account from a launched session by typing their username."""

from __future__ import annotations

import csv
import io
import re

import pytest
import requests
from django.contrib.auth import get_user_model
from django.test import Client
from lti_tool.models import LtiRegistration, LtiUser

from codeblanks.web.teaching import lti
from codeblanks.web.teaching.models import LtiGrade, Membership

from .conftest import FIRST
from .lti_platform import LTI, new_sub

pytestmark = pytest.mark.django_db(transaction=True)
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
TA = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


def launch(platform, browser, sub, room, **claims):
    uuid = LtiRegistration.objects.get().uuid
    return platform.launch(
        browser, uuid, sub=sub, custom={"class": room.join_code}, claims=claims or None
    )


def teacher_client(room) -> Client:
    c = Client()
    c.force_login(room.teacher)
    return c


def test_learners_are_named_as_the_lms_names_them_on_every_launch(platform, live_server, room):
    sub = new_sub()
    browser = requests.Session()
    named = {"given_name": "Zoë", "family_name": "Yılmaz", "name": "Zoë Yılmaz"}
    assert launch(platform, browser, sub, room, **named).status_code == 302
    account = LtiUser.objects.get(sub=sub).auth_user
    assert account.username.startswith("lti-")
    t = teacher_client(room)
    page = t.get(f"/classes/{room.pk}/").content.decode()
    assert re.search(r'class="learner-name">Zoë Yılmaz <small class="username">lti-', page)
    rows = list(
        csv.DictReader(
            io.StringIO(t.get(f"/classes/{room.pk}/progress.csv").content.decode("utf-8-sig"))
        )
    )
    assert {(r["learner"], r["name"]) for r in rows} == {(account.username, "Zoë Yılmaz")}

    browser.get(f"{live_server.url}/lessons/{FIRST.id}/")
    token = browser.cookies["csrftoken"]
    browser.post(
        f"{live_server.url}/lessons/{FIRST.id}/run",
        data={"code": "print(1)"},
        headers={"X-CSRFToken": token, "HX-Request": "true"},
    )
    work = t.get(f"/classes/{room.pk}/learners/{account.username}/lessons/{FIRST.id}/")
    assert "<h1>Zoë Yılmaz in " in work.content.decode()

    # A name changed in the LMS changes here; only "name" sent: the whole name is used.
    launch(platform, requests.Session(), sub, room, given_name=None, name="Zoë Kaya")
    account.refresh_from_db()
    assert account.get_full_name() == "Zoë Kaya"
    launch(platform, requests.Session(), sub, room, given_name=None, name=None)  # none sent
    account.refresh_from_db()
    assert account.get_full_name() == "Zoë Kaya"
    assert Membership.objects.filter(classroom=room).count() == 1


@pytest.mark.parametrize("role", [INSTRUCTOR, TA, "Instructor"])
def test_an_instructor_or_ta_who_launches_a_class_co_teaches_it(platform, live_server, room, role):
    browser, sub = requests.Session(), new_sub()
    answer = launch(platform, browser, sub, room, **{LTI + "roles": [role]})
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/classes/{room.pk}/"
    them = LtiUser.objects.get(sub=sub).auth_user
    assert list(room.co_teachers.all()) == [them]
    assert not Membership.objects.filter(classroom=room).exists()
    assert not LtiGrade.objects.filter(user=them).exists()  # never graded in it
    page = browser.get(f"{live_server.url}/classes/{room.pk}/")
    assert page.status_code == 200 and "Teachers" in page.text
    assert not them.has_perm("teaching.add_classroom")  # no right to make classes of their own


def test_an_instructor_once_added_as_a_learner_leaves_the_roster(platform, live_server, room):
    sub = new_sub()
    launch(platform, requests.Session(), sub, room, **{LTI + "roles": [LEARNER]})
    assert Membership.objects.filter(classroom=room).count() == 1
    launch(platform, requests.Session(), sub, room, **{LTI + "roles": [LEARNER, INSTRUCTOR]})
    assert not Membership.objects.filter(classroom=room).exists()
    assert room.co_teachers.count() == 1


@pytest.mark.parametrize(
    ("roles", "teaches"),
    [
        ([LEARNER], False),
        ([], False),
        (["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor"], False),
        (["Learner"], False),
        ([INSTRUCTOR], True),
        ([TA], True),
        (["TeachingAssistant"], True),
        ([LEARNER, "http://purl.imsglobal.org/vocab/lis/v2/membership#TeachingAssistant"], True),
    ],
)
def test_which_roles_teach(roles, teaches):
    assert lti.teaches(roles) is teaches


def test_an_lti_learner_deletes_their_account_by_typing_their_username(platform, live_server, room):
    browser, sub = requests.Session(), new_sub()
    launch(platform, browser, sub, room)
    account = LtiUser.objects.get(sub=sub).auth_user
    form = browser.get(f"{live_server.url}/accounts/delete/")
    assert form.status_code == 200 and 'name="password"' not in form.text
    assert f"Type your username, {account.username}, to confirm" in form.text
    token = browser.cookies["csrftoken"]
    url = f"{live_server.url}/accounts/delete/"
    headers = {"X-CSRFToken": token, "Referer": url}
    wrong = browser.post(url, data={"username": "lti-0"}, headers=headers)
    assert wrong.status_code == 400 and "That is not your username." in wrong.text
    assert get_user_model().objects.filter(pk=account.pk).exists()
    done = browser.post(url, data={"username": account.username}, headers=headers)
    assert done.status_code == 200
    assert not get_user_model().objects.filter(pk=account.pk).exists()
    assert not Membership.objects.filter(classroom=room).exists()


def test_the_same_account_signed_in_another_way_still_needs_a_password(room):
    """Only a session a launch signed in may confirm by the username: a borrowed session of
    an account with a password, or one signed in otherwise, is asked for the password."""
    ada = get_user_model().objects.create_user("ada", password="a-long-passphrase-1")
    c = Client()
    c.force_login(ada)
    session = c.session
    session["codeblanks_lti"] = True  # even so: the account has a password
    session.save()
    page = c.get("/accounts/delete/").content.decode()
    assert 'name="password"' in page
    assert c.post("/accounts/delete/", {"username": "ada"}).status_code == 400
    lti_like = get_user_model().objects.create_user("lti-00aa")
    lti_like.set_unusable_password()
    lti_like.save()
    other = Client()
    other.force_login(lti_like)  # not through a launch
    assert 'name="password"' in other.get("/accounts/delete/").content.decode()
    assert other.post("/accounts/delete/", {"username": "lti-00aa"}).status_code == 400
    assert get_user_model().objects.filter(pk=lti_like.pk).exists()
