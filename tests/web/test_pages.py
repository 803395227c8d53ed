"""The read-only pages: home, level, lesson, review, progress, and the security headers."""

import re

import pytest

from codeblanks.web.learner.learners import Learner
from codeblanks.web.learner.store import code_save

from .conftest import FIRST, LAST

pytestmark = pytest.mark.django_db


def test_home_lists_courses_levels_in_order_and_lessons(client):
    r = client.get("/")
    html = r.content.decode()
    assert r.status_code == 200
    assert "Test course" in html
    assert html.index("Beginner") < html.index("Expert")
    assert 'href="/lessons/first-steps/"' in html and 'href="/lessons/last-steps/"' in html
    assert 'href="/courses/test-course/expert/"' in html
    assert html.count("map-stop state-new") == 2 and "Not started" in html  # the course map


def test_level_page_shows_only_that_level(client):
    html = client.get("/courses/test-course/expert/").content.decode()
    assert "All lessons in Expert" in html and "Last steps" in html and "First steps" not in html
    assert client.get("/courses/test-course/wizard/").status_code == 404
    assert client.get("/courses/nope/expert/").status_code == 404


def test_lesson_page_has_every_part(client):
    r = client.get("/lessons/first-steps/")
    html = r.content.decode()
    assert r.status_code == 200
    assert "<h1>First steps</h1>" in html and "Print two lines." in html
    assert '<span class="math inline">x^2</span>' in html  # left for KaTeX
    assert '<span class="nb">print</span>' in html  # Pygments, server-side
    assert "1 &lt; 2" in html or '<span class="o">&lt;</span>' in html
    assert 'name="code"' in html and "data-codeblanks-editor" in html
    assert 'data-filename="model.py"' in html and "# print a and b" in html
    assert re.search(r'<button type="submit" class="run primary">Run</button>', html)
    assert 'role="status"' in html
    assert "Reset to starter" in html and "Show solution" in html and "hx-confirm" in html
    assert html.count('name="csrfmiddlewaretoken"') >= 6  # run, reset, solution, 3 questions
    assert 'href="/lessons/last-steps/"' in html and "Next" in html
    assert 'name="choice"' in html and 'name="blank"' in html and 'name="match-0"' in html
    assert "print('a')" not in html  # the solution stays hidden until asked for


def test_unknown_lesson_is_404(client):
    assert client.get("/lessons/no-such-lesson/").status_code == 404


def test_lesson_page_shows_saved_code(client):
    client.get("/")
    session = client.session
    session["codeblanks_learner"] = "k" * 32
    session.save()
    code_save(learner=Learner(anon_key="k" * 32), lesson=FIRST, code="print('mine <b>')\n")
    html = client.get("/lessons/first-steps/").content.decode()
    assert "print(&#x27;mine &lt;b&gt;&#x27;)" in html and "# print a and b" not in html


def test_review_page_is_a_study_sheet(client):
    html = client.get("/lessons/first-steps/review/").content.decode()
    assert "two" in html and "Answer" in html and "Two is 2." in html
    assert "Plus one." in html and "what I offer" in html and "Q, K, V." in html
    assert "<form" not in html.split("<main")[1].split("</main>")[0].replace('class="inline"', "")
    # no editor there: the math's scripts, not the editor's, the drafts' or the heatmaps'
    assert "katex.min.js" in html and "math.js" in html
    assert "codemirror" not in html and "drafts.js" not in html and "heatmap" not in html


def test_progress_page(client):
    r = client.get("/progress/")
    assert r.status_code == 200 and b"Your progress" in r.content and b"First steps" in r.content


def test_content_security_policy_allows_only_our_scripts(client):
    r = client.get("/lessons/first-steps/")
    csp = r.headers["Content-Security-Policy"]
    assert (
        "script-src 'self'" in csp and "unsafe-eval" not in csp.split("script-src")[1].split(";")[0]
    )
    html = r.content.decode()
    scripts = re.findall(r"<script([^>]*)>", html)
    assert scripts and all("src=" in s for s in scripts), "no inline scripts"
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_cookies_are_secure_over_https(client):
    r = client.get("/lessons/first-steps/", secure=True)
    assert r.cookies["csrftoken"]["secure"] is True
    r = client.get("/lessons/first-steps/")
    assert not r.cookies["csrftoken"]["secure"]


def test_last_lesson_has_no_next_link(client):
    html = client.get(f"/lessons/{LAST.id}/").content.decode()
    assert 'rel="prev"' in html and 'rel="next"' not in html
