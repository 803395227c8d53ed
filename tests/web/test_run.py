"""Run from the lesson page: code saved on every run, attempts recorded, the verdict shown in
words, the diff and traceback, escaping, limits, CSRF, reset and the solution."""

import pytest
from django.test import override_settings

from codeblanks.sandbox import RunLimits
from codeblanks.web.models import Attempt, LessonProgress

from .conftest import FIRST

pytestmark = pytest.mark.django_db
RUN = "/lessons/first-steps/run"
HTMX = {"HTTP_HX_REQUEST": "true"}


def progress():
    return LessonProgress.objects.get(lesson_uuid=FIRST.uuid)


def test_correct_run_is_saved_recorded_and_solved(client, grader):
    r = client.post(RUN, {"code": FIRST.exercise.solution}, **HTMX)
    html = r.content.decode()
    assert r.status_code == 200 and 'data-verdict="correct"' in html and "Correct" in html
    assert "<html" not in html  # a partial for htmx
    row = progress()
    assert row.code == FIRST.exercise.solution and row.has_code and row.solved_at is not None
    attempt = Attempt.objects.get()
    assert attempt.verdict == "correct" and attempt.duration_ms == 12.0 and attempt.user is None
    assert attempt.anon_key == row.anon_key != ""
    assert grader.clients == [f"anon:{row.anon_key}"]  # the fair share counts the learner
    page = client.get("/lessons/first-steps/").content.decode()
    assert "print(&#x27;a&#x27;)" in page and "Exercise solved" in page
    assert "map-stop state-solved" in client.get("/").content.decode()  # the course map


def test_wrong_run_shows_a_line_diff_and_feedback(client, grader):
    html = client.post(RUN, {"code": "print:a\nc\n"}, **HTMX).content.decode()
    assert "Not quite" in html and "Line 2 differs." in html
    assert '<span class="diff-row expected">' in html and '<span class="diff-row got">' in html
    assert progress().solved_at is None and Attempt.objects.get().verdict == "incorrect"


def test_error_shows_the_learners_line(client, grader):
    html = client.post(RUN, {"code": "x = 1\nboom\n"}, **HTMX).content.decode()
    assert "stopped with an error" in html and "ZeroDivisionError" in html
    assert 'data-line="2"' in html and "line 2" in html


def test_timeout_is_explained_in_words(client, grader):
    html = client.post(RUN, {"code": "sleep"}, **HTMX).content.decode()
    wall, cpu = f"{RunLimits().wall_s:g}", f"{RunLimits().cpu_s:g}"
    both = f"ran out of time (it used more than {cpu} s of CPU time or ran longer than {wall} s)"
    assert "Time limit reached" in html and both in html
    assert html.count("ran out of time") == 1  # said once, not by the page and the grader both


def test_program_output_is_escaped(client, grader):
    html = client.post(RUN, {"code": "print:<script>alert(1)</script>"}, **HTMX).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_without_javascript_a_full_page_comes_back(client, grader):
    r = client.post(RUN, {"code": "print:a\nc\n"})
    html = r.content.decode()
    assert r.status_code == 200 and "<html" in html and "Not quite" in html
    assert "print:a\nc\n" in html  # the posted code is in the editor


def test_a_rate_limited_run_saves_nothing_and_keeps_the_code_in_the_editor(client, grader):
    """The rate is checked before any write (the code was saved first, so a
    client refused every time still stored a program per request)."""
    with override_settings(CODEBLANKS=_config(run_rate=1)):
        assert client.post(RUN, {"code": "print:1"}, **HTMX).status_code == 200
        r = client.post(RUN, {"code": "print:2"}, **HTMX)
        page = client.post(RUN, {"code": "print:3"})
    assert r.status_code == 429 and "this minute" in r.content.decode()
    assert progress().code == "print:1" and len(grader.codes) == 1
    assert Attempt.objects.count() == 1
    assert page.status_code == 429 and "print:3" in page.content.decode()  # nothing typed is lost


def test_too_large_code_is_refused(client, grader):
    with override_settings(CODEBLANKS=_config(max_code_bytes=10)):
        r = client.post(RUN, {"code": "x" * 11}, **HTMX)
    assert r.status_code == 413 and "limit is 10 bytes" in r.content.decode()
    assert grader.codes == []


def test_a_form_too_large_to_read_is_a_413_in_words(csrf_client, grader):
    """Over DATA_UPLOAD_MAX_MEMORY_SIZE Django cannot even read the form (the CSRF check is the
    first to try): the learner still gets words in the result area, and the saved code stays."""
    page = csrf_client.get("/lessons/first-steps/")
    token = page.cookies["csrftoken"].value
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=2048):
        r = csrf_client.post(RUN, {"code": "x = 1\n" * 1000, "csrfmiddlewaretoken": token}, **HTMX)
        page = csrf_client.post(RUN, {"code": "x = 1\n" * 1000, "csrfmiddlewaretoken": token})
    assert r.status_code == 413 and "limit of 2 KB" in r.content.decode()
    assert "<html" not in r.content.decode()
    assert page.status_code == 413 and "<html" in page.content.decode()
    assert grader.codes == []


def test_missing_code_is_a_400(client, grader):
    assert client.post(RUN, {}, **HTMX).status_code == 400
    assert client.get(RUN).status_code == 405
    assert client.post("/lessons/nope/run", {"code": "x"}).status_code == 404


def test_csrf_is_enforced_on_browser_forms(csrf_client, grader):
    for url in (
        RUN,
        "/lessons/first-steps/reset",
        "/lessons/first-steps/solution",
        "/lessons/first-steps/questions/pick",
        "/accounts/signup/",
    ):
        assert csrf_client.post(url, {"code": "x", "choice": "1"}).status_code == 403, url
    assert grader.codes == []
    refused = csrf_client.post(RUN, {"code": "x"}, **HTMX)
    assert refused.status_code == 403 and "out of date" in refused.content.decode()
    assert "<html" not in refused.content.decode()
    page = csrf_client.get("/lessons/first-steps/")
    token = page.cookies["csrftoken"].value
    r = csrf_client.post(RUN, {"code": "print:1", "csrfmiddlewaretoken": token}, **HTMX)
    assert r.status_code == 200


def test_reset_brings_back_the_starter(client, grader):
    client.post(RUN, {"code": "print:mine"}, **HTMX)
    r = client.post("/lessons/first-steps/reset", **HTMX)
    assert (
        "# print a and b" in r.content.decode() and "data-codeblanks-editor" in r.content.decode()
    )
    assert not progress().has_code
    assert "# print a and b" in client.get("/lessons/first-steps/").content.decode()
    r = client.post("/lessons/first-steps/reset")
    assert r.status_code == 302 and r.url.endswith("#editor")


def test_show_solution_asks_then_records(client):
    r = client.get("/lessons/first-steps/solution")
    assert r.status_code == 200 and b"Yes, show it" in r.content
    assert not LessonProgress.objects.exists()
    r = client.post("/lessons/first-steps/solution", **HTMX)
    assert "print" in r.content.decode() and "Sample solution" in r.content.decode()
    assert progress().revealed_at is not None
    page = client.get("/lessons/first-steps/").content.decode()
    assert "Sample solution" in page and "Show solution</button>" not in page


def _config(**changes):
    import dataclasses

    from django.conf import settings

    return dataclasses.replace(settings.CODEBLANKS, **changes)
