"""Both built-in courses on the site: the home page, a level page and the progress page list
"Attention from scratch" and "Python from the first line" side by side, in English and in
Turkish, and a lesson solved in the Python course (through the real grader) is counted there,
in its own course, and not in the other one."""

from __future__ import annotations

import re

import pytest

from codeblanks.content import catalog
from codeblanks.web.pages import selectors
from codeblanks.web.pages.selectors import current_catalog as builtin_catalog

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}
PY = "python-from-the-first-line"
FIRST_PY = "py-print-and-variables"


@pytest.fixture(autouse=True)
def the_builtin_courses(monkeypatch):
    """The real courses (conftest's catalogue is one small course of its own)."""
    monkeypatch.setattr(selectors, "current_catalog", builtin_catalog)


def _course(course_id: str):
    return next(c for c in catalog().courses if c.id == course_id)


def _section(page: str, course_id: str) -> str:
    """The part of a page from one course's heading to the next course's."""
    start = page.index(f'id="course-{course_id}"')
    end = page.find('<h2 id="course-', start + 1)
    return page[start : end if end != -1 else len(page)]


def test_the_home_page_shows_both_courses_with_their_lessons(client):
    page = client.get("/?lang=en").content.decode()
    assert "Attention from scratch" in page and "Python from the first line" in page
    python = _section(page, PY)
    for lesson in _course(PY).lessons_at("Beginner"):
        assert f'href="/lessons/{lesson.id}/"' in python, lesson.id
        assert lesson.title in python
    assert f'href="/courses/{PY}/beginner/"' in python
    assert "query-key-value" not in python  # the other course's lessons stay in theirs


def test_the_home_page_shows_both_courses_in_turkish(client):
    page = client.get("/?lang=tr").content.decode()
    assert "Sıfırdan dikkat mekanizması" in page and "İlk satırdan Python" in page
    python = _section(page, PY)
    assert "Başlangıç" in python and "Yazdırma ve değişkenler" in python
    assert "Python from the first line" not in page and "Printing and variables" not in page


@pytest.mark.parametrize(
    ("lang", "level_name", "title"),
    [("en", "Beginner", "Printing and variables"), ("tr", "Başlangıç", "Yazdırma ve değişkenler")],
)
def test_the_beginner_level_page_lists_the_python_lessons(client, lang, level_name, title):
    r = client.get(f"/courses/{PY}/beginner/?lang={lang}")
    page = r.content.decode()
    assert r.status_code == 200 and level_name in page and title in page
    assert page.count('href="/lessons/py-') >= len(_course(PY).lessons_at("Beginner"))


def test_a_lesson_s_neighbours_stay_in_its_course(client):
    page = client.get(f"/lessons/{FIRST_PY}/?lang=en").content.decode()
    last_of_attention = _course("attention-from-scratch").lessons[-1]
    assert f'href="/lessons/{last_of_attention.id}/"' not in page
    second = _course(PY).lessons[1]
    assert f'href="/lessons/{second.id}/"' in page


def _progress_rows(page: str, course_id: str) -> dict[str, str]:
    """Each lesson's row of the progress table of one course, by lesson id."""
    title = _course(course_id).title
    start = page.index(f"<h2>{title}</h2>")
    end = page.find('<section class="course">', start)
    part = page[start : end if end != -1 else len(page)]
    rows = re.findall(
        r'<tr>\s*<th scope="row"><a href="/lessons/([a-z0-9-]+)/">(.*?)</tr>', part, re.S
    )
    return dict(rows)


def test_progress_counts_a_solved_python_lesson_in_its_own_course(client):
    page = client.get("/progress/?lang=en").content.decode()
    python, attention = _progress_rows(page, PY), _progress_rows(page, "attention-from-scratch")
    assert set(python) == {x.id for x in _course(PY).lessons}
    assert set(attention) == {x.id for x in _course("attention-from-scratch").lessons}
    lessons = len(python) + len(attention)
    assert f"<dd>0 / {lessons}</dd>" in page

    solution = catalog().lesson(FIRST_PY).exercise.solution
    html = client.post(f"/lessons/{FIRST_PY}/run", {"code": solution}, **HTMX).content.decode()
    assert 'data-verdict="correct"' in html

    page = client.get("/progress/?lang=en").content.decode()
    assert f"<dd>1 / {lessons}</dd>" in page
    python, attention = _progress_rows(page, PY), _progress_rows(page, "attention-from-scratch")
    assert "Solved" in python[FIRST_PY]
    assert [i for i, row in python.items() if "Solved" in row] == [FIRST_PY]
    assert not [i for i, row in attention.items() if "Solved" in row]


@pytest.mark.parametrize(
    ("lang", "titles"),
    [
        ("en", {"Attention from scratch", "Python from the first line"}),
        ("tr", {"Sıfırdan dikkat mekanizması", "İlk satırdan Python"}),
    ],
)
def test_the_api_names_each_lesson_s_course_in_the_language_asked_for(client, lang, titles):
    rows = client.get(f"/api/lessons?lang={lang}").json()["lessons"]
    assert {row["course_title"] for row in rows} == titles
    python = [row["id"] for row in rows if row["course"] == PY]
    assert python == [x.id for x in _course(PY).lessons]
    assert {row["course_title"] for row in rows if row["course"] == PY} == {
        _course(PY).in_language(lang).title
    }
