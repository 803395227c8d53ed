"""The site's chrome (base.html: the head, the nav, the footer) is rendered once per key with
the rendered-parts cache on (web/pages/pagecache.py), yet each page still marks its own place in the
nav, sends a guest's log-in back to this page, shows a learner's own name, and selects the
page's language."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from codeblanks.web.pages import pagecache

from .conftest import FIRST

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def kept():
    pagecache.clear()
    assert pagecache.enabled
    yield
    pagecache.clear()


def _current(page: str) -> list[str]:
    """The site nav's links marked as the page one is on."""
    nav = page[page.index('<nav class="bar"') : page.index("</nav>")]
    return re.findall(r'<a href="([^"]+)" aria-current="page">', nav)


def test_each_page_marks_its_own_place_in_the_nav(client):
    for _ in range(2):  # the second time from the kept parts
        assert _current(client.get("/").content.decode()) == ["/"]
        assert _current(client.get("/progress/").content.decode()) == ["/progress/"]
        assert _current(client.get(f"/lessons/{FIRST.id}/").content.decode()) == []


def test_a_guest_s_log_in_link_comes_back_to_this_page(client):
    for path in ("/", f"/lessons/{FIRST.id}/", "/progress/"):
        page = client.get(path).content.decode()
        assert f'?next={path}"' in page


def test_a_learner_sees_their_own_name(client):
    for name in ("ada", "grace"):
        user = User.objects.create_user(name, password="a long enough password 1")
        client.force_login(user)
        page = client.get(f"/lessons/{FIRST.id}/").content.decode()
        assert f">{name}</a>" in page and "Log out" in page and "?next=" not in page


def test_the_page_s_language_is_selected_and_every_form_has_this_request_s_token(client):
    for lang in ("en", "tr", "en"):
        page = client.get(f"/lessons/{FIRST.id}/?lang={lang}").content.decode()
        assert re.search(rf'<option value="{lang}" lang="{lang}" selected>', page)
        tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
        assert len(tokens) == 1 and pagecache.enabled
        assert "cbpartcsrfmarker" not in page
        forms = page.count("<form")
        assert page.count('name="csrfmiddlewaretoken"') >= forms - 1  # the solution form is a GET
