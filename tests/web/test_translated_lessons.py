"""The course in the learner's language: pages, the JSON API and grades take each lesson in its
Turkish version when the request speaks Turkish, and progress stays one per lesson."""

from __future__ import annotations

import pytest

from codeblanks.content import catalog
from codeblanks.web.pages import selectors
from codeblanks.web.pages.selectors import current_catalog as builtin_catalog

from .test_api_fast_path import call

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def the_builtin_course(monkeypatch):
    """The real course and its real Turkish translation (conftest's course is English only)."""
    monkeypatch.setattr(selectors, "current_catalog", builtin_catalog)


QKV = "query-key-value"


def qkv(language: str):
    return catalog().lesson(QKV).in_language(language)


def test_the_lesson_page_in_turkish_is_the_turkish_lesson(client):
    page = client.get(f"/lessons/{QKV}/?lang=tr").content.decode()
    assert '<html lang="tr">' in page
    assert "<h1>Sorgu, Anahtar, Değer</h1>" in page or "Sorgu, Anahtar, Değer</h1>" in page
    assert "Orta" in page  # the level's name in Turkish
    assert "def softmax(z, axis):" in page and "# buraya yaz" in page  # the starter
    assert "scores = Q @ " in page  # the blank question's line, its code names as in English
    english = client.get(f"/lessons/{QKV}/?lang=en").content.decode()
    assert "Query, Key, Value</h1>" in english and "buraya yaz" not in english


def test_the_home_page_lists_the_course_in_turkish(client):
    page = client.get("/?lang=tr").content.decode()
    assert "Sıfırdan dikkat mekanizması" in page and "Başlangıç" in page
    assert "Attention from scratch" not in page


def test_the_api_lists_the_lessons_in_the_language_asked_for():
    r = call("GET", "/api/lessons", query=b"lang=tr")
    row = next(x for x in r.json()["lessons"] if x["id"] == QKV)
    assert r.headers["content-language"] == "tr"
    assert (row["language"], row["title"], row["level"], row["level_name"]) == (
        "tr",
        "Sorgu, Anahtar, Değer",
        "Intermediate",  # the key stays; the name is the language's
        "Orta",
    )
    assert "# buraya yaz" in row["starter"]
    r = call("GET", "/api/lessons", headers=[(b"accept-language", b"en-GB,en;q=0.9")])
    row = next(x for x in r.json()["lessons"] if x["id"] == QKV)
    assert (row["language"], row["title"]) == ("en", "Query, Key, Value")


def grade(code: str, language: str):
    import json

    body = json.dumps({"code": code}).encode()
    headers = [(b"content-type", b"application/json"), (b"accept-language", language.encode())]
    return call("POST", f"/api/lessons/{QKV}/grade", body, headers=headers)


def test_a_grade_in_turkish_is_judged_against_the_turkish_version_with_turkish_feedback():
    r = grade(qkv("tr").exercise.solution, "tr")
    assert r.status == 200 and r.json()["verdict"] == "correct", r.json()
    assert r.headers["content-language"] == "tr"
    wrong = qkv("tr").exercise.solution.replace("axis=1", "axis=0")
    r = grade(wrong, "tr")
    answer = r.json()
    assert answer["verdict"] == "incorrect"
    # the lesson's own nudge in Turkish, and the grader's sentences in Turkish
    assert any("her satırın toplamı 1" in line for line in answer["feedback"]), answer
    assert any("şekil (3, 3)" in line for line in answer["feedback"]), answer
    # the English learner's program is judged the same; its feedback is English
    r = grade(qkv("en").exercise.solution.replace("axis=1", "axis=0"), "en")
    assert r.json()["verdict"] == "incorrect"
    assert any("Add up each row" in line for line in r.json()["feedback"]), r.json()


def test_progress_is_one_per_lesson_whatever_the_language(client):
    from django.contrib.auth.models import User

    from codeblanks.web.models import LessonProgress

    client.force_login(User.objects.create_user("ayse", password="a-long-enough-passphrase-42"))
    solution = qkv("tr").exercise.solution
    r = client.post(f"/lessons/{QKV}/run?lang=tr", {"code": solution}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    english = client.get(f"/lessons/{QKV}/?lang=en").content.decode()
    assert "Exercise solved" in english  # solved in Turkish, solved in English
    assert "agirliklar" in english  # and the editor keeps the learner's own (Turkish) code
    (row,) = LessonProgress.objects.filter(lesson_uuid=qkv("en").uuid)
    assert row.solved_at is not None
