"""A teacher adds lessons to their LMS course from the LMS's dialog, in Chromium: the
deep-linking launch from the LMS emulator (tests/web/lti_platform.py) opens the picker,
signed in as the LMS's Instructor; two lessons ticked and sent, the page's script posts the
signed answer to the LMS (its Content-Security-Policy lets that one form go there), and the
LMS receives a link for each."""

from __future__ import annotations

import io

import pytest
import requests
from django.core.management import call_command
from lti_tool.models import LtiRegistration
from playwright.sync_api import expect

from web.lti_platform import LTI, Platform, new_sub

from .conftest import WIDTHS, axe_violations
from .test_classes import lesson

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"


def test_a_teacher_picks_lessons_and_the_lms_receives_their_links(site, page):
    lms = Platform(site)
    try:
        call_command("lti_register", *lms.registration_args(), stdout=io.StringIO())
        browser = requests.Session()
        started = lms.launch(
            browser,
            LtiRegistration.objects.get().uuid,
            sub=new_sub(),
            custom={},
            claims={**lms.deep_linking_claims(), LTI + "roles": [INSTRUCTOR]},
            drop=(LTI + "resource_link",),
        )
        assert started.status_code == 302, started.text[:300]
        page.context.add_cookies(
            [{"name": c.name, "value": c.value, "url": site} for c in browser.cookies]
        )
        browser.close()
        page.set_viewport_size(WIDTHS["desktop"])
        page.goto(site + started.headers["Location"])
        expect(page.get_by_role("heading", level=1)).to_have_text("Add CodeBlanks to your course")
        assert axe_violations(page) == []

        first, second = lesson("arrays-and-shapes"), lesson("broadcasting")
        page.get_by_label(first.title, exact=True).check()
        page.get_by_label(second.title, exact=True).check()
        page.get_by_role("button", name="Add to the course").click()
        page.wait_for_url(f"{lms.url}/deep-links")  # the script sent the answer on at once
        assert lms.refusals == []
        (returned,) = lms.deep_links
        got = sorted((i["title"], i["custom"]["lesson"]) for i in returned["items"])
        assert got == sorted([(first.title, first.id), (second.title, second.id)])
    finally:
        lms.close()
