"""The interface's language (codeblanks.web.door.languages): ?lang= beats the account's, which beats
the session's, which beats Accept-Language, which beats English; the switcher's form; the JSON
API's language; and forms, e-mails, numbers and the grader's language following the request."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from codeblanks import i18n
from codeblanks.learning import tutor
from codeblanks.web.door import languages
from codeblanks.web.models import Profile

from .test_api_fast_path import call

pytestmark = pytest.mark.django_db

GOOD = "a-long-enough-passphrase-42"
TURKISH = "Boşlukları doldurarak öğrenin"  # the home page's heading in Turkish
ENGLISH = "Learn by filling in the blanks"


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def speaks(response) -> str:
    """The page's language, checked three ways that must agree."""
    text = response.content.decode()
    lang = html_lang(response)
    assert response["Content-Language"] == lang
    assert (TURKISH in text, ENGLISH in text) == ((True, False) if lang == "tr" else (False, True))
    return lang


def user(name="ayse", language=""):
    u = User.objects.create_user(name, password=GOOD)
    if language:
        Profile.objects.create(user=u, language=language)
    return u


def saved(u) -> str:
    return Profile.objects.filter(user=u).values_list("language", flat=True).first() or ""


def test_english_by_default_and_the_answer_varies_by_language_and_cookie(client):
    r = client.get("/")
    assert speaks(r) == "en"
    vary = {v.strip() for v in r["Vary"].split(",")}
    assert {"Accept-Language", "Cookie"} <= vary


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("tr-TR,tr;q=0.9,en;q=0.8", "tr"),
        ("de-DE, tr;q=0.5", "tr"),  # the first one offered here
        ("en-GB,tr;q=0.9", "en"),
        ("de, fr", "en"),  # none offered: English
        ("tr;q=0.2, en;q=0.9", "en"),  # the browser's order by quality, not as written
        ("", "en"),
    ],
)
def test_accept_language_chooses_when_nothing_else_does(client, header, expected):
    assert speaks(client.get("/", HTTP_ACCEPT_LANGUAGE=header)) == expected


def test_the_session_beats_accept_language(client):
    r = client.post("/language", {"language": "tr", "next": "/"})
    assert r.status_code == 302
    assert speaks(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "tr"


def test_the_query_beats_the_session_and_is_remembered_in_it(client):
    client.post("/language", {"language": "tr", "next": "/"})
    assert speaks(client.get("/?lang=en", HTTP_ACCEPT_LANGUAGE="tr")) == "en"
    assert speaks(client.get("/", HTTP_ACCEPT_LANGUAGE="tr")) == "en"  # kept in the session
    assert client.session[languages.SESSION_KEY] == "en"


def test_an_unknown_query_is_ignored(client):
    assert speaks(client.get("/?lang=xx", HTTP_ACCEPT_LANGUAGE="tr")) == "tr"
    assert speaks(client.get("/?lang=tr-TR")) == "tr"  # a region of an offered language


def test_the_account_beats_the_session_and_accept_language(client):
    u = user(language="tr")
    client.force_login(u)
    session = client.session
    session[languages.SESSION_KEY] = "en"
    session.save()
    assert speaks(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "tr"


def test_the_query_beats_the_account_and_is_saved_on_it(client):
    u = user(language="tr")
    client.force_login(u)
    assert speaks(client.get("/?lang=en")) == "en"
    assert saved(u) == "en"
    assert speaks(client.get("/", HTTP_ACCEPT_LANGUAGE="tr")) == "en"


def test_an_account_without_a_language_uses_the_session_then_the_browser(client):
    client.force_login(user())
    assert speaks(client.get("/", HTTP_ACCEPT_LANGUAGE="tr")) == "tr"
    session = client.session
    session[languages.SESSION_KEY] = "en"
    session.save()
    assert speaks(client.get("/", HTTP_ACCEPT_LANGUAGE="tr")) == "en"


def test_logging_in_applies_the_accounts_language(client):
    user(language="tr")
    assert speaks(client.get("/")) == "en"
    r = client.post("/accounts/login/", {"username": "ayse", "password": GOOD})
    assert r.status_code == 302
    assert client.session[languages.SESSION_KEY] == "tr"
    assert speaks(client.get("/")) == "tr"


def test_logging_in_keeps_the_visitors_choice_on_an_account_without_one(client):
    u = user()
    client.post("/language", {"language": "tr", "next": "/"})
    client.post("/accounts/login/", {"username": "ayse", "password": GOOD})
    assert saved(u) == "tr"
    other = Client()  # another browser, logged in as the same learner
    other.force_login(u)
    assert speaks(other.get("/")) == "tr"


def test_signing_up_keeps_the_choice_made_before(client):
    client.post("/language", {"language": "tr", "next": "/"})
    form = {"username": "mehmet", "password1": GOOD, "password2": GOOD}
    assert client.post("/accounts/signup/", form).status_code == 302
    assert saved(User.objects.get(username="mehmet")) == "tr"


def test_the_switcher_saves_on_the_account_when_logged_in(client):
    u = user(language="en")
    client.force_login(u)
    client.post("/language", {"language": "tr", "next": "/"})
    assert saved(u) == "tr"


@pytest.mark.parametrize(
    ("next_url", "back"),
    [
        ("/progress/", "/progress/"),
        ("/lessons/first-steps/?lang=en#editor", "/lessons/first-steps/#editor"),  # no ?lang
        ("/courses/test-course/beginner/?x=1&lang=en", "/courses/test-course/beginner/?x=1"),
        ("https://elsewhere.example/", "/"),
        ("//elsewhere.example/", "/"),
        ("", "/"),
    ],
)
def test_the_switcher_goes_back_to_the_same_page_on_this_site_only(client, next_url, back):
    r = client.post("/language", {"language": "tr", "next": next_url})
    assert r.status_code == 302 and r["Location"] == back


def test_the_switcher_refuses_a_language_not_offered_and_a_get(client):
    r = client.post("/language", {"language": "xx", "next": "/"}, HTTP_ACCEPT_LANGUAGE="tr")
    assert r.status_code == 400 and "Bu dil burada sunulmuyor." in r.content.decode()
    assert client.get("/language").status_code == 405


def test_the_switcher_needs_the_csrf_token(csrf_client):
    assert csrf_client.post("/language", {"language": "tr", "next": "/"}).status_code == 403
    page = csrf_client.get("/")
    token = page.cookies["csrftoken"].value
    form = {"language": "tr", "next": "/", "csrfmiddlewaretoken": token}
    assert csrf_client.post("/language", form).status_code == 302
    assert speaks(csrf_client.get("/")) == "tr"


def test_every_page_has_the_switcher_with_each_language_named_in_itself(client):
    for url in ("/", "/progress/", "/lessons/first-steps/", "/accounts/login/", "/nowhere/"):
        text = client.get(url, HTTP_ACCEPT_LANGUAGE="tr").content.decode()
        assert '<form method="post" action="/language"' in text, url
        assert '<label for="language-choice">Dil</label>' in text, url
        assert '<option value="en" lang="en">English</option>' in text, url
        assert '<option value="tr" lang="tr" selected>Türkçe</option>' in text, url


def test_the_error_pages_speak_the_language(client):
    r = client.get("/nowhere/", HTTP_ACCEPT_LANGUAGE="tr")
    assert r.status_code == 404 and html_lang(r) == "tr"
    assert "Bu adreste hiçbir şey yok." in r.content.decode()


def test_form_errors_and_labels_are_translated(client):
    form = {"username": "zeynep", "password1": GOOD, "password2": GOOD + "x"}
    r = client.post("/accounts/signup/?lang=tr", form)
    text = r.content.decode()
    assert r.status_code == 400
    assert "E-posta (isteğe bağlı)" in text  # ours
    assert "İki parola alanı eşleşmedi." in text  # Django's own, in its Turkish
    client.force_login(user())
    r = client.post("/accounts/delete/", {"password": "wrong"})
    assert r.status_code == 400 and "Bu sizin parolanız değil." in r.content.decode()


def test_the_password_reset_mail_is_in_the_requests_language(client, settings):
    """The mail is rendered after the answer, in a thread of its own (mailer.py): still in the
    request's language."""
    import dataclasses

    from codeblanks.web import mailer

    settings.CODEBLANKS = dataclasses.replace(settings.CODEBLANKS, site_url="https://x.example")
    User.objects.create_user("elif", email="elif@example.org", password=GOOD)
    r = client.post("/accounts/password_reset/?lang=tr", {"email": "elif@example.org"})
    assert r.status_code == 302 and mailer.wait_sent(30) and len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.subject == "CodeBlanks parolanız"
    assert message.body.startswith("Merhaba elif,")
    assert "bağlantı bir gün boyunca, yalnızca bir kez geçerlidir" in message.body
    assert "/accounts/reset/" in message.body


def test_numbers_are_written_the_languages_way(client):
    """The form-too-large page gives the limit with the language's digit grouping."""
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=2048 * 1024):
        from codeblanks.web.views.pages import _too_large_text

        with translation.override("en"):
            assert "limit of 2,048 KB" in _too_large_text()
        with translation.override("tr"):
            assert "2.048 KB sınırını" in _too_large_text()


def test_the_middleware_speaks_for_django_and_for_the_grader_while_serving():
    seen = {}

    def view(request):
        from django.http import HttpResponse

        seen.update(django=translation.get_language(), ours=i18n.current())
        seen["request"] = request.LANGUAGE_CODE
        return HttpResponse("ok")

    before = (translation.get_language(), i18n.current())
    request = RequestFactory().get("/?lang=tr")
    request.session = {}
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    response = languages.languages(view)(request)
    assert seen == {"django": "tr", "ours": "tr", "request": "tr"}
    assert response["Content-Language"] == "tr" and request.session == {"codeblanks_language": "tr"}
    assert (translation.get_language(), i18n.current()) == before  # nothing left behind


# The JSON API: its own handler, no session; ?lang= and Accept-Language only.


def test_the_api_answers_in_english_by_default_and_says_so():
    r = call("GET", "/api/nothing/here")
    assert r.status == 404 and r.headers["content-language"] == "en"
    assert r.json()["message"] == "No such API endpoint; see docs/api.md."


def test_the_api_takes_accept_language():
    r = call("GET", "/api/nothing/here", headers=[(b"accept-language", b"tr-TR,tr;q=0.9")])
    assert r.status == 404 and r.headers["content-language"] == "tr"
    assert r.headers["vary"] == "Accept-Language"
    assert r.json() == {
        "error": "not-found",  # the code stays as it is: programs read it
        "message": "Böyle bir API uç noktası yok; docs/api.md dosyasına bakın.",
    }


def test_the_api_takes_the_query_over_accept_language():
    tr = [(b"accept-language", b"tr")]
    r = call("GET", "/api/nothing/here", headers=tr, query=b"lang=en")
    assert r.headers["content-language"] == "en" and r.json()["message"].startswith("No such")
    r = call("POST", "/api/run", b"{", headers=[(b"content-type", b"application/json")],
             query=b"lang=tr")  # fmt: skip
    assert r.status == 400 and r.headers["content-language"] == "tr"
    assert r.json()["message"].startswith("Gövde JSON olmalı")
    assert not r.cookies  # nothing remembered: the API has no session


@pytest.mark.django_db(transaction=True)  # the ASGI handler writes the session from its thread
def test_the_site_through_asgi_takes_the_language_too():
    r = call("GET", "/", headers=[(b"accept-language", b"tr")])
    assert r.status == 200 and r.headers["content-language"] == "tr"
    assert '<html lang="tr">' in r.body.decode() and TURKISH in r.body.decode()
    r = call("GET", "/", query=b"lang=tr")
    assert "sessionid" in r.cookies  # the choice is remembered in a new session
    cookie = [(b"cookie", f"sessionid={r.cookies['sessionid'].value}".encode())]
    again = call("GET", "/progress/", headers=[*cookie, (b"accept-language", b"en")])
    assert again.headers["content-language"] == "tr" and '<html lang="tr">' in again.body.decode()


# The pages said before or around the views: the lock-out, the CSRF refusal, the database
# outage and a body refused before the session is read.


def test_the_lock_out_page_is_in_the_sessions_language(client):
    from django.conf import settings

    user()
    client.post("/language", {"language": "tr", "next": "/"})
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        r = client.post("/accounts/login/", {"username": "ayse", "password": "wrong"})
    text = r.content.decode()
    assert r.status_code == 429 and html_lang(r) == "tr"
    assert "Giriş 15 dakika boyunca durduruldu" in text
    assert "15 dakika sonra yeniden deneyin" in text


def test_the_csrf_refusal_is_in_the_browsers_language(csrf_client):
    r = csrf_client.post("/lessons/first-steps/reset", HTTP_ACCEPT_LANGUAGE="tr")
    assert r.status_code == 403 and html_lang(r) == "tr"
    assert "Bu sayfa güncel değil" in r.content.decode()


def test_the_database_outage_page_keeps_the_requests_language(monkeypatch):
    from django.http import HttpResponse

    from codeblanks.web.door import outages

    monkeypatch.setattr(outages, "database_answers", lambda: False)
    middleware = outages.database_outage(lambda request: HttpResponse("boom", status=500))
    request = RequestFactory().get("/progress/", HTTP_ACCEPT_LANGUAGE="tr")
    r = middleware(request)
    assert r.status_code == 503 and r["Content-Language"] == "tr"
    assert "Veritabanı yanıt vermiyor" in r.content.decode()
    request = RequestFactory().get("/api/me", HTTP_ACCEPT_LANGUAGE="de")
    request.LANGUAGE_CODE = "tr"  # what languages.py chose before the database failed
    r = middleware(request)
    assert r.status_code == 503 and "veritabanına ulaşamadık" in json.loads(r.content)["message"]


@pytest.mark.django_db(transaction=True)
def test_a_body_refused_before_the_session_is_read_is_in_the_browsers_language():
    from .test_run import _config

    with override_settings(CODEBLANKS=_config(max_body_bytes=100)):
        r = call(
            "POST",
            "/lessons/first-steps/run",
            b"code=" + b"x" * 500,
            headers=[
                (b"content-type", b"application/x-www-form-urlencoded"),
                (b"content-length", b"505"),
                (b"accept-language", b"tr"),
            ],
        )
    assert r.status == 413 and r.headers["content-language"] == "tr"
    assert "Gönderilemeyecek kadar büyük" in r.body.decode()


def test_an_async_view_and_the_grader_it_calls_speak_the_requests_language(client, monkeypatch):
    """Run is an async view: it and whatever it calls see the request's language, for Django
    and for codeblanks.i18n (the grader's sentences)."""
    from codeblanks.grading import Grade

    heard = []

    async def grader(lesson, code, sandbox=None, client=None):
        heard.append((translation.get_language(), i18n.current()))
        expected = lesson.exercise.expected_output
        return Grade("correct", expected, "", expected, duration_ms=1234.0)

    monkeypatch.setattr(tutor, "agrade", grader)
    r = client.post(
        "/lessons/first-steps/run",
        {"code": "print('a')"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="tr",
    )
    text = r.content.decode()
    assert r.status_code == 200 and heard == [("tr", "tr")]
    assert "Çıktın" in text and "Çalışma süresi: 1.234 ms." in text  # the number, the Turkish way


def test_a_stopping_node_refuses_in_the_browsers_language():
    """draining.py answers before Django sees the request: ?lang= or Accept-Language."""
    import asyncio

    from codeblanks.web.door import draining
    from codeblanks.web.door.inprocess import asgi_request

    async def django(scope, receive, send):
        raise AssertionError("a stopping node's refusal reached Django")

    drain = draining.Drain()
    drain.begin(grace_s=0)

    def refuse(path, query=b"", language=b""):
        headers = [(b"accept-language", language)] if language else []
        answer = asyncio.run(asgi_request(drain.guard(django), "GET", path, headers, query=query))
        return dict(answer.headers), answer.body.decode()

    headers, page = refuse("/lessons/", language=b"tr-TR,tr;q=0.9")
    assert headers[b"content-language"] == b"tr" and "<html lang=tr>" in page
    assert "Bu sunucu yeniden başlıyor" in page
    headers, body = refuse("/api/run", query=b"lang=tr", language=b"en")
    assert json.loads(body)["message"].startswith("Bu sunucu yeniden başlıyor")
    headers, page = refuse("/lessons/")
    assert headers[b"content-language"] == b"en" and "This server is restarting" in page


def test_dates_on_the_progress_page_are_in_the_language(client):
    """The last run's time is Django's natural time, in the page's language."""
    from datetime import timedelta

    from django.utils import timezone

    from codeblanks.grading import Grade
    from codeblanks.web.learner import store
    from codeblanks.web.learner.learners import Learner
    from codeblanks.web.models import LessonProgress

    from .conftest import FIRST

    u = user(language="tr")
    client.force_login(u)
    wrong = Grade("incorrect", "", "", "")
    store.attempt_record(learner=Learner(user_id=u.pk), lesson=FIRST, grade=wrong, code="x")
    three_hours_ago = timezone.now() - timedelta(hours=3)
    LessonProgress.objects.filter(user=u).update(last_run_at=three_hours_ago)
    text = client.get("/progress/").content.decode()
    assert re.search(r"<time datetime=\"[^\"]+\">3[ \xa0]saat önce</time>", text)
    assert re.search(
        r">3[ \xa0]hours ago</time>", client.get("/progress/?lang=en").content.decode()
    )
