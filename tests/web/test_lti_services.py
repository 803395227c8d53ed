"""LTI as teachers expect it, part two, against the platform emulator
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
from lti_tool.models import LtiRegistration, LtiUser

from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import LtiRoster, Membership

from .conftest import FIRST, LAST
from .lti_platform import DL_SETTINGS, LTI, Platform, new_sub

pytestmark = pytest.mark.django_db(transaction=True)
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
NAMELESS = {"given_name": None, "name": None}


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
    assert "names were read from the LMS." in answer.text
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


# ---- Deep Linking --------------------------------------------------------------------------


def deep_link_launch(platform, browser, sub, role=INSTRUCTOR, drop=(), **settings):
    claims = {**platform.deep_linking_claims(**settings), LTI + "roles": [role]}
    return launch(platform, browser, sub, custom={}, drop=(LTI + "resource_link", *drop), **claims)


def pick(browser, live_server, picker: str, items: list[str], code="") -> requests.Response:
    browser.get(picker)
    return browser.post(
        picker,
        data={"item": items, "code": code},
        headers={"X-CSRFToken": browser.cookies["csrftoken"], "Referer": picker},
    )


def returned_form(page: str) -> tuple[str, str]:
    """The deep-linking answer's form: where it goes, and its JWT."""
    action = re.search(r'<form method="post" action="([^"]+)" id="lti-return">', page)
    token = re.search(r'name="JWT" value="([^"]+)"', page)
    assert action and token, page[:500]
    return html.unescape(action.group(1)), html.unescape(token.group(1))


def test_a_teacher_adds_lessons_and_a_class_and_the_links_open_them(platform, live_server, room):
    teacher, sub = requests.Session(), new_sub()
    class_launch(platform, teacher, sub, room, INSTRUCTOR)  # co-teaches the class now
    started = deep_link_launch(platform, teacher, sub)
    assert started.status_code == 302, started.text[:300]
    picker = live_server.url + started.headers["Location"]
    page = teacher.get(picker)
    assert page.status_code == 200
    assert page.text.index(f'value="lesson:{FIRST.id}"') < page.text.index(
        f'value="lesson:{LAST.id}"'
    )  # the course's path order
    assert f'value="class:{room.pk}"' in page.text and 'type="checkbox"' in page.text

    answer = pick(teacher, live_server, picker, [f"lesson:{FIRST.id}", f"class:{room.pk}"])
    assert answer.status_code == 200
    action, token = returned_form(answer.text)
    assert action == f"{platform.url}/deep-links"
    assert f"form-action 'self' {platform.url}" in answer.headers["Content-Security-Policy"]

    assert teacher.post(action, data={"JWT": token}).status_code == 200  # as the browser posts
    assert platform.refusals == []
    (returned,) = platform.deep_links
    claims, items = returned["claims"], returned["items"]
    assert claims["aud"] == [platform.url]
    assert claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "opaque-data-1"
    assert [(i["type"], i["title"], i["custom"]) for i in items] == [
        ("ltiResourceLink", FIRST.title, {"lesson": FIRST.id}),
        ("ltiResourceLink", "7B", {"class": classes.shown_code(room.join_code)}),
    ]
    assert {i["url"] for i in items} == {f"{live_server.url}/lti/launch/"}
    assert items[0]["lineItem"]["scoreMaximum"] == 1 + len(FIRST.questions)
    assert items[1]["lineItem"]["scoreMaximum"] == 1 + len(FIRST.questions) + 1

    again = pick(teacher, live_server, picker, [f"lesson:{FIRST.id}"])
    assert again.status_code == 400 and "not open any more" in again.text  # used once

    # A learner opens each link the LMS made.
    learner = requests.Session()
    opened = launch(platform, learner, new_sub(), custom=items[0]["custom"])
    assert opened.status_code == 302 and opened.headers["Location"] == f"/lessons/{FIRST.id}/"
    joined = launch(platform, requests.Session(), new_sub(), custom=items[1]["custom"])
    assert joined.status_code == 302 and joined.headers["Location"] == "/classes/"
    assert Membership.objects.filter(classroom=room).count() == 1


def test_a_learner_cannot_deep_link(platform, live_server):
    answer = deep_link_launch(platform, requests.Session(), new_sub(), role=LEARNER)
    assert answer.status_code == 403
    assert "Only a teacher of the course" in answer.text
    assert not get_user_model().objects.filter(username__startswith="lti-").exists()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"drop": (DL_SETTINGS,)}, "must carry the claim deep_linking_settings"),
        ({"claims": {DL_SETTINGS: "https://lms.example/return"}}, "must be a JSON object"),
        ({"settings": {"deep_link_return_url": 5}}, "deep_link_return_url must be a string"),
        ({"settings": {"deep_link_return_url": None}}, "deep_link_return_url must be a string"),
        ({"claims": {DL_SETTINGS: {"accept_types": ["ltiResourceLink"]}}}, "must be a string"),
        ({"settings": {"accept_types": "ltiResourceLink"}}, "accept_types must be a list"),
        ({"settings": {"deep_link_return_url": "javascript:alert(1)"}}, "not an http(s) URL"),
        ({"settings": {"deep_link_return_url": "https://a.example;x/"}}, "not an http(s) URL"),
    ],
    ids=lambda x: str(x)[:40],
)
def test_a_deep_linking_request_with_bad_settings_is_refused_in_words(
    platform, live_server, change, words
):
    claims = {**platform.deep_linking_claims(**change.get("settings", {})), LTI + "roles": [
        INSTRUCTOR
    ]}  # fmt: skip
    claims.update(change.get("claims", {}))
    answer = launch(
        platform,
        requests.Session(),
        new_sub(),
        custom={},
        drop=(LTI + "resource_link", *change.get("drop", ())),
        **claims,
    )
    assert answer.status_code == 400, answer.text[:300]
    assert html.escape(words, quote=False) in answer.text, answer.text[:600]
    assert not get_user_model().objects.filter(username__startswith="lti-").exists()


def test_the_picker_refuses_what_it_cannot_send_in_words(platform, live_server, room):
    teacher, sub = requests.Session(), new_sub()
    started = deep_link_launch(platform, teacher, sub, accept_multiple=False)
    picker = live_server.url + started.headers["Location"]
    assert 'type="radio"' in teacher.get(picker).text
    assert f'value="class:{room.pk}"' not in teacher.get(picker).text  # not one of theirs
    for items, words in (
        ([], "Choose a lesson or a class to add."),
        ([f"lesson:{FIRST.id}", f"lesson:{LAST.id}"], "takes one item at a time"),
        (["lesson:no-such-lesson"], "There is no lesson or class of yours"),
        ([f"class:{room.pk}"], "There is no lesson or class of yours"),
        (["class:99999999999999999999"], "There is no lesson or class of yours"),
        (["code:"], "No class has this code."),
    ):
        answer = pick(teacher, live_server, picker, items)
        assert answer.status_code == 400 and words in answer.text, (items, answer.text[:300])
    for items, code, words in (
        ([], "ZZZZ-ZZZZ", "No class has this code."),
        ([f"lesson:{FIRST.id}"], room.join_code, "takes one item at a time"),
    ):
        answer = pick(teacher, live_server, picker, items, code)
        assert answer.status_code == 400 and words in answer.text, (code, answer.text[:300])
        assert f'value="{code}"' in answer.text  # kept in the box
    assert platform.deep_links == []
    other = requests.Session()  # the picker's URL in another browser: nothing to pick
    assert other.get(picker).status_code == 400


def test_any_class_is_added_by_its_join_code(platform, live_server, room):
    """A class the LMS account does not teach yet (its owner's account is another): by its
    code, as a class link would name it anyway."""
    teacher = requests.Session()
    started = deep_link_launch(platform, teacher, new_sub())
    picker = live_server.url + started.headers["Location"]
    typed = room.join_code.lower()[:4] + " " + room.join_code.lower()[4:]
    answer = pick(teacher, live_server, picker, [], code=typed)
    assert answer.status_code == 200, answer.text[:300]
    action, token = returned_form(answer.text)
    assert teacher.post(action, data={"JWT": token}).status_code == 200
    (item,) = platform.deep_links[0]["items"]
    assert (item["title"], item["custom"]) == ("7B", {"class": classes.shown_code(room.join_code)})
