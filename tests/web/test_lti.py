"""LTI 1.3 end to end against the platform emulator (tests/web/lti_platform.py): real HTTP on
both sides, real RSA keys. A lesson launched from the LMS signs the learner in and opens the
lesson; solving it and answering a question send the score back through Assignment and Grade
Services; a class launch puts the learner in the class; a launch the tool cannot check is
refused in words."""

from __future__ import annotations

import hashlib
import io
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from lti_tool.models import LtiDeployment, LtiRegistration, LtiUser

from codeblanks.web.teaching import classes, lti, roster
from codeblanks.web.teaching.models import LtiGrade, LtiHosts, Membership

from .conftest import FIRST, LAST
from .lti_platform import new_sub

pytestmark = pytest.mark.django_db(transaction=True)


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
        1 + len(FIRST.questions) + 1,  # the class's points: each lesson's exercise and questions
        "7",
    )


def test_the_lms_gets_the_rosters_score_which_never_goes_down_nor_counts_seen_answers(
    platform, live_server
):
    """Right, wrong, a review, a revealed solution pasted back: every score the LMS receives,
    with the real sandbox and grader, is the roster's, weighted by the class (the exercise 3,
    each question 2), and never lower than the one before. A change to the class's rules sends
    the new score at once, with no launch and nothing done by the learner: weights that change
    only the maximum, then answers after review counting."""
    teacher = get_user_model().objects.create_user("teacher", password="x" * 20)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = get_user_model().objects.get(pk=teacher.pk)
    plan = classes.Plan("7B", (FIRST.id, LAST.id), {}, exercise_points=3, question_points=2)
    room = classes.class_create(teacher, plan)
    browser = requests.Session()
    platform.launch(
        browser, registration(), sub=new_sub(), custom={"class": room.join_code}, lineitem=8
    )
    top = 3 + 2 * len(FIRST.questions) + 3
    assert platform.wait_for_scores(1)[-1]["scoreGiven"] == 0

    def post(path, data=None):
        token = browser.cookies["csrftoken"]
        answer = browser.post(
            f"{live_server.url}{path}", data=data or {}, headers={"X-CSRFToken": token}
        )
        assert answer.status_code == 200, answer.text

    post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "1"})  # right: 2
    assert platform.wait_for_scores(2, until=lambda s: s[-1]["scoreGiven"] >= 2)
    post(f"/lessons/{FIRST.id}/questions/pick", {"choice": "0"})  # wrong after it: still 2
    post(f"/lessons/{LAST.id}/solution")  # revealed, then pasted back: no point
    run(browser, live_server, LAST.id, LAST.exercise.solution)
    assert browser.get(f"{live_server.url}/lessons/{FIRST.id}/review/").status_code == 200
    pairs = {"match-0": "0", "match-1": "1", "match-2": "2"}
    post(f"/lessons/{FIRST.id}/questions/pairs", pairs)  # right, after the review: 0
    assert 'data-verdict="correct"' in run(browser, live_server, FIRST.id, FIRST.exercise.solution)
    scores = platform.wait_for_scores(3, until=lambda s: s[-1]["scoreGiven"] >= 5)

    user = LtiGrade.objects.get(lineitem__endswith="/8").user
    report = roster.roster_json(roster.roster(room))
    cells = next(x for x in report["learners"] if x["username"] == user.username)["lessons"]
    assert (cells[FIRST.id]["score"], cells[LAST.id]["score"]) == (5, 0)
    assert lti.score(LtiGrade.objects.get(lineitem__endswith="/8")) == (5.0, float(top))
    given = [s["scoreGiven"] for s in scores]
    assert given == sorted(given) and set(given) == {0, 2, 5}, given  # never down, never free
    assert {s["scoreMaximum"] for s in scores} == {top}
    sent = len(scores)

    # Weights that keep what was earned (4 + 1 = 5) and change only the maximum: sent too.
    assert classes.class_set_scoring(room, 4, 1, False)
    top = 4 + len(FIRST.questions) + 4
    scores = platform.wait_for_scores(sent + 1, until=lambda s: s[-1]["scoreMaximum"] == top)
    assert (scores[-1]["scoreGiven"], scores[-1]["scoreMaximum"]) == (5, top)
    # The answer after the review (1) and the solve after the solution (4) count from now on.
    assert classes.class_set_scoring(room, 4, 1, True)
    scores = platform.wait_for_scores(sent + 2, until=lambda s: s[-1]["scoreGiven"] == 10)
    assert (scores[-1]["scoreGiven"], scores[-1]["scoreMaximum"]) == (10, top)
    assert lti.score(LtiGrade.objects.get(lineitem__endswith="/8")) == (10.0, float(top))
    assert len(scores) == sent + 2  # one send per change, none repeated
    assert platform.refusals == []


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


def who(browser, live_server) -> str:
    """The username the page shows as signed in."""
    page = browser.get(f"{live_server.url}/lessons/{FIRST.id}/").text
    found = re.search(r'class="who"[^>]*>([^<]+)<', page)
    return found.group(1) if found else ""


# ---- S1: an LTI account is found by (registration, sub) only, and named at random ----------


def test_a_launch_never_adopts_an_account_named_as_the_old_launches_named_theirs(
    platform, live_server
):
    """The old name, lti- + sha256("<registration pk>:<sub>")[:12], could be computed and signed
    up first with a password; the launch then signed the learner into that account."""
    sub = new_sub()
    digest = hashlib.sha256(f"{LtiRegistration.objects.get().pk}:{sub}".encode()).hexdigest()
    planted = get_user_model().objects.create_user(f"lti-{digest[:12]}", password="x" * 20)
    browser = requests.Session()
    assert platform.launch(browser, registration(), sub=sub, custom={"lesson": FIRST.id}).ok
    made = LtiUser.objects.get(sub=sub).auth_user
    assert made.pk != planted.pk and not made.has_usable_password()
    assert re.fullmatch(r"lti-[0-9a-f]{16}", made.username)
    assert who(browser, live_server) == made.username
    other = new_sub()
    platform.launch(requests.Session(), registration(), sub=other, custom={"lesson": FIRST.id})
    assert LtiUser.objects.get(sub=other).auth_user.username != made.username


def test_an_lms_user_linked_before_keeps_their_account_whatever_its_name(platform, live_server):
    """Rows made by the old launches stay as they are: the (registration, sub) row leads to
    the account, the name plays no part."""
    sub = new_sub()
    old = get_user_model().objects.create_user("lti-0123456789ab")
    old.set_unusable_password()
    old.save()
    LtiUser.objects.create(registration=LtiRegistration.objects.get(), sub=sub, auth_user=old)
    browser = requests.Session()
    assert platform.launch(browser, registration(), sub=sub, custom={"lesson": FIRST.id}).ok
    assert who(browser, live_server) == "lti-0123456789ab"
    assert get_user_model().objects.filter(username__startswith="lti-").count() == 1


# ---- S2: a launch is used once, by the browser that started it ----------------------------


def test_a_launch_is_used_up_by_its_first_use(platform, live_server):
    browser = requests.Session()
    first = platform.launch(browser, registration(), sub=new_sub(), custom={"lesson": FIRST.id})
    assert first.status_code == 302
    body, nonce = platform.last_launch, platform.last_nonce
    url = f"{live_server.url}/lti/launch/"

    stranger = requests.Session()  # the body seen in a log, posted from another browser
    replayed = stranger.post(url, data=body, allow_redirects=False, timeout=30)
    assert replayed.status_code == 400 and "did not start this launch" in replayed.text
    assert who(stranger, live_server) == ""

    again = browser.post(url, data=body, allow_redirects=False, timeout=30)  # its own cookie
    assert again.status_code == 400 and "used already" in again.text

    reused = platform.launch(
        requests.Session(), registration(), sub=new_sub(), custom={"lesson": FIRST.id}, nonce=nonce
    )
    assert reused.status_code == 400 and "could not be checked" in reused.text


def test_of_one_launch_posted_twice_at_once_one_gets_in(platform, live_server):
    """The state and nonce are used up with the cache's atomic add: whichever post comes
    second is refused, however the two interleave."""
    browser = requests.Session()
    url, data = platform.authorise(
        browser, registration(), sub=new_sub(), custom={"lesson": FIRST.id}
    )
    start, answers = threading.Barrier(2), []

    def post():
        twin = requests.Session()
        twin.cookies.update(browser.cookies)
        start.wait(timeout=30)
        answers.append(twin.post(url, data=data, allow_redirects=False, timeout=60).status_code)

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(answers) == [302, 400]


# ---- S3: exp and iat are required ----------------------------------------------------------


@pytest.mark.parametrize("claim", ["exp", "iat"])
def test_an_id_token_without_exp_or_iat_is_refused(platform, live_server, claim):
    answer = platform.launch(
        requests.Session(),
        registration(),
        sub=new_sub(),
        custom={"lesson": FIRST.id},
        drop=(claim,),
    )
    assert answer.status_code == 400 and "could not be checked" in answer.text
    assert f"&quot;{claim}&quot;" in answer.text
    assert not get_user_model().objects.filter(username__startswith="lti-").exists()


# ---- S8: a claim of the wrong type is a 400 in words ---------------------------------------

LTI_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


@pytest.mark.parametrize(
    "claims",
    [
        {LTI_CLAIM + "custom": "lesson=arrays"},
        {LTI_CLAIM + "custom": ["lesson", "arrays"]},
        {AGS: "https://lms.example/lineitems/1"},
        {AGS: {"scope": SCORE, "lineitem": "https://lms.example/lineitems/1"}},
        {AGS: {"scope": [SCORE], "lineitem": ["https://lms.example/lineitems/1"]}},
        {LTI_CLAIM + "context": "course-1"},
        {LTI_CLAIM + "resource_link": "link-1"},
        {LTI_CLAIM + "roles": "Learner"},
        {"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": "x"},
        {LTI_CLAIM + "tool_platform": {"name": "no guid"}},
        {"sub": 5},
        {"sub": "x" * 256},
        {"given_name": ["Ada"]},
        {"nonce": ["n"]},
        {"aud": {"client": "codeblanks-tool"}},
    ],
    ids=lambda c: json.dumps(c)[:60],
)
def test_a_claim_of_the_wrong_type_is_refused_in_words(platform, live_server, claims):
    answer = platform.launch(
        requests.Session(),
        registration(),
        sub=new_sub(),
        custom={"lesson": FIRST.id},
        claims=claims,
    )
    assert answer.status_code == 400, answer.text[:300]
    assert "could not be checked" in answer.text and "must be" in answer.text
    assert not get_user_model().objects.filter(username__startswith="lti-").exists()


# ---- S9: the LMS's services are contacted on the registration's hosts only -----------------


class Trap:
    """A server no score may reach: it keeps every request it gets; ``/redirect`` answers 307
    to ``redirect_to``."""

    def __init__(self):
        self.hits: list[str] = []
        self.redirect_to = ""
        trap = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                trap.hits.append(self.path)
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path.startswith("/redirect"):
                    self.send_response(307)
                    self.send_header("Location", trap.redirect_to)
                else:
                    self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def trap():
    t = Trap()
    yield t
    t.close()


def ags(lineitem: str) -> dict:
    return {AGS: {"scope": [SCORE], "lineitem": lineitem}}


def test_a_line_item_off_the_registrations_hosts_is_never_contacted(platform, live_server, trap):
    lineitem = f"{trap.url}/lineitems/9"  # loopback, another port than the LMS's
    browser = requests.Session()
    launched = platform.launch(
        browser, registration(), sub=new_sub(), custom={"lesson": FIRST.id}, claims=ags(lineitem)
    )
    assert launched.status_code == 302  # the lesson opens; no grade goes anywhere
    assert not LtiGrade.objects.filter(lineitem=lineitem).exists()

    # A row kept before this check (or an operator's edit) is checked again when sending.
    user = get_user_model().objects.get(username__startswith="lti-")
    kept = LtiGrade.objects.create(
        user=user,
        registration=LtiRegistration.objects.get(),
        sub="s",
        lineitem=lineitem,
        scope=[SCORE],
        lesson_uuid=FIRST.uuid,
    )
    assert lti.send(LtiGrade.objects.select_related("registration").get(pk=kept.pk)) is False
    assert "not a host of the registration" in LtiGrade.objects.get(pk=kept.pk).error
    assert trap.hits == []

    # Listed by the operator for this registration: contacted.
    LtiHosts.objects.create(
        registration=LtiRegistration.objects.get(), hosts=f"127.0.0.1:{trap.port}"
    )
    assert lti.send(LtiGrade.objects.select_related("registration").get(pk=kept.pk)) is True
    assert trap.hits == ["/lineitems/9/scores"]


def test_a_redirect_off_the_registrations_hosts_is_not_followed(platform, live_server, trap):
    elsewhere = Trap()
    try:
        trap.redirect_to = f"{elsewhere.url}/steal"
        reg = LtiRegistration.objects.get()
        LtiHosts.objects.create(registration=reg, hosts=f"127.0.0.1:{trap.port}")
        with pytest.raises(lti.RefusedHost):
            lti.RegistrationSession(reg).post(f"{trap.url}/redirect", data="x")
        assert trap.hits == ["/redirect"] and elsewhere.hits == []
    finally:
        elsewhere.close()


@pytest.mark.parametrize(
    ("issuer", "hosts", "url", "allowed"),
    [
        ("https://lms.example", "", "https://lms.example/lineitems/1", True),
        ("https://lms.example", "", "https://lms.example:8443/lineitems/1", False),
        ("https://lms.example", "", "https://other.example/lineitems/1", False),
        ("https://lms.example", "", "http://169.254.169.254/latest/meta-data", False),
        ("https://lms.example", "", "file:///etc/passwd", False),
        ("https://lms.example", "scores.example", "https://scores.example/x", True),
        ("https://lms.example", "scores.example:8443", "https://scores.example/x", False),
        ("http://127.0.0.1:9", "", "http://127.0.0.1:9/lineitems/1", True),  # an address, typed
        ("http://localhost:9", "", "http://localhost:9/lineitems/1", False),  # a name: resolved
        ("http://localhost:9", "localhost:9", "http://localhost:9/lineitems/1", True),
    ],
)
def test_which_service_urls_a_registration_allows(issuer, hosts, url, allowed):
    reg = LtiRegistration.objects.create(
        name="LMS",
        issuer=issuer,
        client_id="c",
        auth_url=f"{issuer}/auth",
        token_url=f"{issuer}/token",
        keyset_url=f"{issuer}/jwks",
    )
    if hosts:
        LtiHosts.objects.create(registration=reg, hosts=hosts)
    assert (lti.service_url_refusal(reg, url) is None) is allowed


def test_a_value_too_long_for_the_database_is_never_a_500(platform, live_server):
    """django-lti keeps a name in 500 characters: PostgreSQL refuses more (a 400 in words);
    SQLite keeps it (the launch goes on)."""
    answer = platform.launch(
        requests.Session(),
        registration(),
        sub=new_sub(),
        custom={"lesson": FIRST.id},
        claims={"given_name": "A" * 600},
    )
    if connection.vendor == "postgresql":
        assert answer.status_code == 400 and "too long to keep" in answer.text
    else:
        assert answer.status_code == 302
