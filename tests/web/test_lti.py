"""LTI 1.3 end to end against the platform emulator (tests/web/lti_platform.py): real HTTP on
both sides, real RSA keys. A lesson launched from the LMS signs the learner in and opens the
lesson; solving it and answering a question send the score back through Assignment and Grade
Services; a class launch puts the learner in the class; a launch the tool cannot check is
refused in words."""

from __future__ import annotations

import io
import re

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from django.contrib.auth import get_user_model
from django.core.management import call_command
from lti_tool.models import LtiDeployment, LtiRegistration

from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import Membership

from .conftest import FIRST, LAST
from .lti_platform import Platform, new_sub

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def platform(live_server):
    lms = Platform(live_server.url)
    out = io.StringIO()
    call_command("lti_register", *lms.registration_args(), stdout=out)
    assert "Initiate login URL" in out.getvalue()
    yield lms
    lms.close()


def registration():
    return LtiRegistration.objects.get().uuid


def run(browser, live_server, lesson_id, code):
    browser.get(f"{live_server.url}/lessons/{lesson_id}/")
    token = browser.cookies["csrftoken"]
    answer = browser.post(
        f"{live_server.url}/lessons/{lesson_id}/run",
        data={"code": code},
        headers={"X-CSRFToken": token, "HX-Request": "true"},
    )
    assert answer.status_code == 200, answer.text
    return answer.text


def test_a_lesson_launch_signs_in_opens_the_lesson_and_sends_the_score_back(
    platform, live_server, grader
):
    browser, sub = requests.Session(), new_sub()
    launched = platform.launch(browser, registration(), sub=sub, custom={"lesson": FIRST.id})
    assert launched.status_code == 302 and launched.headers["Location"] == f"/lessons/{FIRST.id}/"
    page = browser.get(f"{live_server.url}/lessons/{FIRST.id}/").text
    assert re.search(r'class="who"[^>]*>lti-[0-9a-f]{16}<', page), "signed in as the LMS's user"
    assert platform.wait_for_scores(1)[0]["scoreGiven"] == 0  # the launch sends where they stand

    assert 'data-verdict="correct"' in run(browser, live_server, FIRST.id, FIRST.exercise.solution)
    scores = platform.wait_for_scores(2)
    assert (scores[1]["scoreGiven"], scores[1]["scoreMaximum"]) == (1, 1 + len(FIRST.questions))
    assert scores[1]["userId"] == sub and scores[1]["gradingProgress"] == "FullyGraded"
    assert scores[1]["lineitem"] == "1"

    token = browser.cookies["csrftoken"]
    browser.post(
        f"{live_server.url}/lessons/{FIRST.id}/questions/pick",
        data={"choice": "1"},
        headers={"X-CSRFToken": token, "HX-Request": "true"},
    )
    assert platform.wait_for_scores(3)[2]["scoreGiven"] == 2
    assert platform.refusals == []

    again = requests.Session()  # the same LMS user on another day: the same account
    platform.launch(again, registration(), sub=sub, custom={"lesson": FIRST.id})
    assert get_user_model().objects.filter(username__startswith="lti-").count() == 1


def test_a_class_launch_puts_the_learner_in_the_class_and_grades_its_lessons(
    platform, live_server, grader
):
    teacher = get_user_model().objects.create_user("teacher", password="x" * 20)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = get_user_model().objects.get(pk=teacher.pk)
    room = classes.class_create(teacher, classes.Plan("7B", (FIRST.id, LAST.id), {}))
    browser = requests.Session()
    launched = platform.launch(
        browser, registration(), sub=new_sub(), custom={"class": room.join_code}, lineitem=7
    )
    assert launched.status_code == 302 and launched.headers["Location"] == "/classes/"
    assert Membership.objects.filter(classroom=room).count() == 1
    run(browser, live_server, LAST.id, LAST.exercise.solution)
    # Each save that may change the score can send one (the launch, the progress row the run
    # makes, the solve); once, in a full suite on a busy machine, two 0s came before the solve's
    # 1. The LMS keeps the latest, so the test waits for the solve's score to be the last one.
    scores = platform.wait_for_scores(2, until=lambda s: s[-1]["scoreGiven"] == 1)
    assert (scores[-1]["scoreGiven"], scores[-1]["scoreMaximum"], scores[-1]["lineitem"]) == (
        1,
        2,
        "7",
    )


def test_launches_the_tool_cannot_trust_are_refused_in_words(platform, live_server):
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    forged = platform.launch(
        requests.Session(), registration(), sub=new_sub(), custom={"lesson": FIRST.id}, key=stranger
    )
    assert forged.status_code == 400 and "could not be checked" in forged.text
    replayed = platform.launch(
        requests.Session(),
        registration(),
        sub=new_sub(),
        custom={"lesson": FIRST.id},
        nonce="not-the-tools-nonce",
    )
    assert replayed.status_code == 400 and "could not be checked" in replayed.text
    nowhere = platform.launch(
        requests.Session(), registration(), sub=new_sub(), custom={"lesson": "no-such-lesson"}
    )
    assert nowhere.status_code == 404 and "There is no lesson" in nowhere.text
    bare = platform.launch(requests.Session(), registration(), sub=new_sub(), custom={})
    assert bare.status_code == 400 and "lesson=&lt;lesson id&gt;" in bare.text
    LtiDeployment.objects.update(is_active=False)
    off = platform.launch(
        requests.Session(), registration(), sub=new_sub(), custom={"lesson": FIRST.id}
    )
    assert off.status_code == 403 and "not active" in off.text
    assert not get_user_model().objects.filter(username__startswith="lti-").exists()


def test_a_login_for_no_known_registration_is_refused_in_words(platform, live_server):
    """Anyone can call the login URL: an unknown registration or issuer is a 400, never a 500."""
    for uuid, iss in (
        ("00000000-0000-4000-8000-000000000000", platform.url),
        (registration(), "https://not-the-lms.example"),
    ):
        answer = requests.get(
            f"{live_server.url}/lti/login/{uuid}/",
            params={
                "iss": iss,
                "login_hint": "x",
                "target_link_uri": f"{live_server.url}/lti/launch/",
            },
            allow_redirects=False,
            timeout=30,
        )
        assert answer.status_code == 400 and "login request was refused" in answer.text
