"""Hints on the lesson page, one at a time and recorded; a question's hints likewise; and a
mistake's nudge first, its explanation on request or when the same mistake comes back (the
real grader and sandbox, on the documented example lesson)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeblanks.content import load_courses
from codeblanks.web.models import LessonProgress
from codeblanks.web.pages import selectors

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
VALID = Path(__file__).parents[1] / "content" / "fixtures" / "valid"
(COURSE,), _ = load_courses([VALID])
(SUM,) = COURSE.lessons
PAGE = f"/lessons/{SUM.id}/"
NUDGE = SUM.exercise.grading.mistakes[0].nudge
MESSAGE = SUM.exercise.grading.mistakes[0].message


class OneCourse:
    courses = (COURSE,)
    problems = ()

    def lesson(self, lesson_id):
        return SUM if lesson_id == SUM.id else None

    def lessons(self):
        return [SUM]


@pytest.fixture(autouse=True)
def example_catalog(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: OneCourse())


def test_hints_come_one_at_a_time_and_are_recorded(client):
    first, second = SUM.exercise.hints
    second = second.replace("`a + b`", "<code>a + b</code>")  # as Markdown shows it
    page = client.get(PAGE).content.decode()
    assert "Stuck? Show hint 1 of 2" in page and first not in page
    html = client.post(f"{PAGE}hint", **HTMX).content.decode()
    assert "Hint 1 of 2." in html and first in html and second not in html
    assert "Show hint 2 of 2" in html and "<html" not in html
    assert LessonProgress.objects.get().hints_revealed == 1
    html = client.post(f"{PAGE}hint", **HTMX).content.decode()
    assert first in html and second in html and "Show hint" not in html  # no third
    client.post(f"{PAGE}hint", **HTMX)  # asking past the end changes nothing
    assert LessonProgress.objects.get().hints_revealed == 2
    page = client.get(PAGE).content.decode()
    assert "Hint 2 of 2." in page and second in page  # still shown after a reload


def test_hints_work_without_javascript(client):
    r = client.post(f"{PAGE}hint")
    assert r.status_code == 302 and r["Location"] == f"{PAGE}#hints"
    assert SUM.exercise.hints[0] in client.get(PAGE).content.decode()


def test_a_question_has_its_own_hints(client):
    blank = next(q for q in SUM.questions if q.hints)
    url = f"{PAGE}questions/{blank.id}/hint"
    assert "Stuck? Show hint 1 of 1" in client.get(PAGE).content.decode()
    html = client.post(url, **HTMX).content.decode()
    assert f'id="hints-{blank.id}"' in html and blank.hints[0] in html
    assert LessonProgress.objects.get().question_hints == {blank.id: 1}
    assert LessonProgress.objects.get().hints_revealed == 0  # the exercise's are separate
    assert client.post(f"{PAGE}questions/nope/hint").status_code == 404


def test_the_nudge_comes_first_and_the_explanation_when_the_mistake_comes_back(client):
    minus = (SUM.path / "mistakes" / "minus.py").read_text()
    html = client.post(f"{PAGE}run", {"code": minus}, **HTMX).content.decode()
    assert NUDGE.replace("?", "") in html.replace("&#x27;", "'")
    assert "<summary>Explain</summary>" in html and "do not subtract them" in html  # on request
    again = minus.replace("total = a - b", "total = a - b  # really")
    html = client.post(f"{PAGE}run", {"code": again}, **HTMX).content.decode()
    assert "<summary>Explain</summary>" not in html
    assert "<li>Add the two numbers; do not subtract them.</li>" in html  # now said outright
    client.post(f"{PAGE}run", {"code": "print(1)\n"}, **HTMX)  # another mistake: start over
    html = client.post(f"{PAGE}run", {"code": minus}, **HTMX).content.decode()
    assert "<summary>Explain</summary>" in html
