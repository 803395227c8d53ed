"""LTI as teachers expect it, part two (issue 38 item 6), against the platform emulator
(tests/web/lti_platform.py), real HTTP and real keys on both sides: the course's names read
from the LMS's Names and Role Provisioning Service (on an Instructor's launch and by the class
page's button, only on the registration's hosts, a bad answer changing nothing), and Deep
Linking: a teacher picks lessons or a class in the LMS's dialog, the signed answer carries
links the launch then opens."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
import requests
from django.contrib.auth import get_user_model
from django.core.management import call_command
from lti_tool.models import LtiRegistration, LtiUser

from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import LtiRoster

from .conftest import FIRST, LAST
from .lti_platform import LTI, Platform, new_sub

pytestmark = pytest.mark.django_db(transaction=True)
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
NAMELESS = {"given_name": None, "name": None}


@pytest.fixture
def platform(live_server):
    lms = Platform(live_server.url)
    call_command("lti_register", *lms.registration_args(), stdout=io.StringIO())
    yield lms
    lms.close()


@pytest.fixture
def room():
    teacher = get_user_model().objects.create_user("teacher", password="x" * 20)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = get_user_model().objects.get(pk=teacher.pk)
    return classes.class_create(teacher, classes.Plan("7B", (FIRST.id, LAST.id), {}))


def launch(platform, browser, sub, *, custom, drop=(), **claims):
    uuid = LtiRegistration.objects.get().uuid
    return platform.launch(browser, uuid, sub=sub, custom=custom, claims=claims, drop=drop)


def class_launch(platform, browser, sub, room, role=LEARNER, nrps_url=None, **claims):
    claims = {**platform.nrps_claim(nrps_url), LTI + "roles": [role], **claims}
    return launch(platform, browser, sub, custom={"class": room.join_code}, **claims)


def account(sub):
    return LtiUser.objects.get(sub=sub).auth_user


def names_in_roster(browser, live_server, room) -> set[str]:
    page = browser.get(f"{live_server.url}/classes/{room.pk}/").text
    return set(re.findall(r'class="learner-name">([^<]+?)(?: <small|</th>)', page))


def sync_names(browser, live_server, room) -> requests.Response:
    """The class page's "Sync names from the LMS" button, as the teacher's browser posts it."""
    browser.get(f"{live_server.url}/classes/")  # any page with a form: the CSRF cookie
    return browser.post(
        f"{live_server.url}/classes/{room.pk}/lms-names",
        headers={"X-CSRFToken": browser.cookies["csrftoken"]},
    )


# ---- Names and Role Provisioning Services ------------------------------------------------


def test_an_instructors_launch_names_every_lms_learner_in_the_roster_and_csv(
    platform, live_server, room
):
    zoe, ben = new_sub(), new_sub()
    for sub in (zoe, ben):  # their launches carry no name
        assert class_launch(platform, requests.Session(), sub, room, **NAMELESS).status_code == 302
    assert "/memberships" not in platform.hits  # a learner's launch reads no names
    assert account(zoe).get_full_name() == ""

    teacher, teacher_sub = requests.Session(), new_sub()
    platform.page_size = 2  # three pages: the Link header is followed
    platform.members = [
        {"user_id": zoe, "given_name": "Zoë", "family_name": "Yılmaz", "name": "Zoë Yılmaz"},
        {"user_id": ben, "name": "Ben <b>Kaya</b>", "roles": [LEARNER]},
        {"user_id": "never-launched", "name": "Nobody Here"},
        {"user_id": teacher_sub, "name": "Prof. Ada", "roles": [INSTRUCTOR]},
        {"user_id": new_sub(), "status": "Inactive"},
    ]
    assert class_launch(platform, teacher, teacher_sub, room, INSTRUCTOR).status_code == 302
    assert [h.split("?")[0] for h in platform.hits].count("/memberships") == 3
    assert platform.refusals == []

    shown = names_in_roster(teacher, live_server, room)
    assert shown == {"Zoë Yılmaz", html.escape("Ben <b>Kaya</b>")}, shown
    download = teacher.get(f"{live_server.url}/classes/{room.pk}/progress.csv")
    rows = csv.DictReader(io.StringIO(download.content.decode("utf-8-sig")))
    assert {r["name"] for r in rows} == {"Zoë Yılmaz", "Ben <b>Kaya</b>"}
    assert not get_user_model().objects.filter(first_name="Nobody Here").exists()
    assert LtiRoster.objects.get(classroom=room).error == ""

    # Another Instructor launch soon after reads nothing again (at most once per N minutes).
    fetched = len(platform.hits)
    class_launch(platform, requests.Session(), teacher_sub, room, INSTRUCTOR)
    assert "/memberships" not in [h.split("?")[0] for h in platform.hits[fetched:]]


def test_the_sync_button_reads_the_names_again(platform, live_server, room):
    teacher, teacher_sub = requests.Session(), new_sub()
    class_launch(platform, teacher, teacher_sub, room, INSTRUCTOR)
    late = new_sub()  # joins after the Instructor's launch, with no name
    class_launch(platform, requests.Session(), late, room, **NAMELESS)
    platform.members = [{"user_id": late, "given_name": "Can", "family_name": "Demir"}]
    assert names_in_roster(teacher, live_server, room) == {account(late).username}

    answer = sync_names(teacher, live_server, room)
    assert answer.status_code == 200
    assert "The learners&#x27; names were read from the LMS." in answer.text
    assert names_in_roster(teacher, live_server, room) == {"Can Demir"}

    stranger = requests.Session()  # a learner of the class: not theirs to sync
    class_launch(platform, stranger, new_sub(), room)
    assert sync_names(stranger, live_server, room).status_code == 404


@pytest.mark.parametrize("where", ["other-port", "localhost", "link-local"])
def test_a_membership_url_off_the_registrations_hosts_is_never_fetched(
    platform, live_server, room, where
):
    other = Platform(live_server.url)  # a server on loopback, on another port than the LMS's
    try:
        url = {
            "other-port": f"{other.url}/memberships",
            "localhost": f"http://localhost:{platform.server.server_port}/memberships",
            "link-local": "http://169.254.169.254/latest/meta-data",
        }[where]
        other.members = platform.members = [{"user_id": "x", "name": "Stolen"}]
        teacher = requests.Session()
        answer = class_launch(platform, teacher, new_sub(), room, INSTRUCTOR, nrps_url=url)
        assert answer.status_code == 302  # the class opens; no names are read
        pressed = sync_names(teacher, live_server, room)
        assert pressed.status_code == 200
        assert "The names could not be read from the LMS" in pressed.text
        assert "is not a host of the registration" in pressed.text
        assert other.hits == []
        assert "/token" not in platform.hits and "/memberships" not in platform.hits
        assert "not a host" in LtiRoster.objects.get(classroom=room).error
    finally:
        other.close()


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"members": "everyone"}',
        b'{"members": [{"name": "No Id"}]}',
        b'{"members": [{"user_id": "SUB", "name": ["Zoe"]}]}',
        b'{"members": [{"user_id": 5, "name": "Five"}]}',
        "status 500",
    ],
)
def test_a_malformed_or_failing_nrps_answer_leaves_the_names_as_they_were(
    platform, live_server, room, body
):
    zoe = new_sub()
    class_launch(platform, requests.Session(), zoe, room, name="Zoë Yılmaz", given_name=None)
    teacher = requests.Session()
    class_launch(platform, teacher, new_sub(), room, INSTRUCTOR)
    if body == "status 500":
        platform.nrps_status = 500
    else:
        platform.nrps_body = body.replace(b"SUB", zoe.encode())
    answer = sync_names(teacher, live_server, room)
    assert answer.status_code == 200
    assert "The names could not be read from the LMS" in answer.text
    assert account(zoe).get_full_name() == "Zoë Yılmaz"
    assert names_in_roster(teacher, live_server, room) == {"Zoë Yılmaz"}
    assert LtiRoster.objects.get(classroom=room).error
