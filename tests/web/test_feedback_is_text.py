"""Grader feedback and program output are text on every page that shows them; lesson prose is
still Markdown. A learner's value holding Markdown or HTML never becomes a link or an element."""

from __future__ import annotations

import pytest

from codeblanks.grading import Grade
from codeblanks.learning import tutor
from codeblanks.web.pages.prose import feedback_text

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
LINK = "[Session expired: log in](https://evil.example/l)"
TAG = '<img src=x onerror="alert(1)">'


def test_feedback_text_escapes_everything_but_shows_code_spans():
    html = feedback_text(f"`x` holds {LINK} and {TAG} and **bold**")
    assert html.startswith("<code>x</code> holds ")
    assert "<a" not in html and "<img" not in html and "<strong>" not in html
    assert LINK in html and "&lt;img" in html and "**bold**" in html


def test_run_feedback_with_a_learners_markdown_is_no_link(client, monkeypatch):
    async def agrade(lesson, code, sandbox=None, client=None):
        feedback = (f"`total` is {LINK}", TAG)
        return Grade("incorrect", LINK + "\n", TAG, "a\nb\n", feedback, "visible")

    monkeypatch.setattr(tutor, "agrade", agrade)
    html = client.post("/lessons/first-steps/run", {"code": "x"}, **HTMX).content.decode()
    assert "Not quite" in html
    assert 'href="https://evil.example' not in html and "<img" not in html
    assert "<code>total</code> is [Session expired: log in](https://evil.example/l)" in html


def test_a_blank_answers_message_is_text(client, blank_checker):
    r = client.post("/lessons/first-steps/questions/fill", {"blank": LINK}, **HTMX)
    html = r.content.decode()
    assert "Not right yet" in html and f"{LINK} gives a value" in html
    assert 'href="https://evil.example' not in html


def test_lesson_prose_is_still_markdown(client):
    html = client.get("/lessons/first-steps/").content.decode()
    assert "<code>a</code>" in html  # the task's `a`, from Markdown
