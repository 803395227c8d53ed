"""The learner's flow on the server side: what a run's htmx answer carries besides the result
(the lesson-complete panel and the course's progress, out of band), the course's progress on the
lesson page, and where "continue where you left off" leads."""

import pytest
from django.utils.timezone import now

from codeblanks.web.learner.learners import Learner
from codeblanks.web.models import LessonProgress, QuestionAnswer
from codeblanks.web.pages import selectors

from .conftest import FIRST, LAST

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_solving_run_answers_with_the_next_lesson_and_the_course_progress(client, grader):
    html = client.post(
        "/lessons/first-steps/run", {"code": FIRST.exercise.solution}, **HTMX
    ).content.decode()
    assert 'data-verdict="correct"' in html
    assert '<div id="lesson-flow" hx-swap-oob="true">' in html
    assert f'href="/lessons/{LAST.id}/">Next lesson: {LAST.title}' in html
    n = len(FIRST.questions)
    assert f"{n} question{'s' if n != 1 else ''} left in this lesson" in html
    assert 'id="course-progress" class="course-progress" hx-swap-oob="true"' in html


def test_a_wrong_run_sends_no_flow_even_after_a_solve(client, grader):
    """A wrong Run changes neither the flow nor the course's counts: its answer leaves them as
    the page shows them (the panel of a solved lesson stays), and costs none of their reading."""
    html = client.post("/lessons/first-steps/run", {"code": "print:x"}, **HTMX).content.decode()
    assert 'data-verdict="correct"' not in html and "hx-swap-oob" not in html
    client.post("/lessons/first-steps/run", {"code": FIRST.exercise.solution}, **HTMX)
    html = client.post("/lessons/first-steps/run", {"code": "print:x"}, **HTMX).content.decode()
    assert "hx-swap-oob" not in html and "Next lesson" not in html
    page = client.get("/lessons/first-steps/").content.decode()
    assert f"Next lesson: {LAST.title}" in page  # still solved: the page says so on a reload


def test_the_lesson_page_shows_the_course_progress_per_level(client):
    html = client.get("/lessons/first-steps/").content.decode()
    assert "0 of 2 lessons complete" in html
    assert '<progress class="meter" value="0" max="2"' in html
    assert ">Beginner</a> 0/1" in html and ">Expert</a> 0/1" in html


def test_resume_is_none_before_anything_then_the_lesson_then_the_one_after(client, grader):
    assert selectors.resume_point(None) is None
    client.get("/")
    assert "Continue where you left off" not in client.get("/").content.decode()
    client.post("/lessons/first-steps/run", {"code": "print:x"})
    home = client.get("/").content.decode()
    assert "Continue where you left off" in home and f'href="/lessons/{FIRST.id}/"' in home
    assert "You completed" not in home


def test_resume_after_a_complete_lesson_is_the_next_one_not_complete():
    me = Learner(anon_key="k" * 32)
    row = LessonProgress.objects.create(**me.fields, lesson_uuid=FIRST.uuid, solved_at=now())
    assert selectors.resume_point(me) == selectors.Resume(FIRST)  # questions still open
    for q in FIRST.questions:
        QuestionAnswer.objects.create(
            progress=row, question_id=q.id, answer=1, correct=True, answered_at=now()
        )
    row.save()  # (updated_at)
    assert selectors.resume_point(me) == selectors.Resume(LAST, finished=FIRST)
    flow = selectors.lesson_flow(me, FIRST)
    assert flow.complete and flow.questions_left == 0 and flow.next == LAST
    assert (flow.course.done, flow.course.total, flow.course.percent) == (1, 2, 50)
    LessonProgress.objects.create(**me.fields, lesson_uuid=LAST.uuid, solved_at=now())
    assert LAST.questions == ()  # so solving it completes it, and the course is done
    assert selectors.resume_point(me) is None
