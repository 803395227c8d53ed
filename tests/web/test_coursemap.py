"""The home page's course maps: states in three words, the next lesson, the capstone ahead, and
every course on the page (web/pages/coursemap.py, partials/course_map.html)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from codeblanks.content.model import Course, level_slug
from codeblanks.web.learner.progress import Progress
from codeblanks.web.pages.coursemap import NEW, SOLVED, TRIED, course_maps
from codeblanks.web.pages.selectors import LevelBlock, Resume, lesson_rows

from .conftest import COURSE, FIRST, LAST

MIDDLE = dataclasses.replace(
    FIRST, id="middle-steps", uuid="3" * 8 + FIRST.uuid[8:], title="Middle"
)
PYTHON = Course(
    id="python-first",
    title="Python from the first line",
    summary="Programs from nothing.",
    path=COURSE.path,
    lessons=(dataclasses.replace(FIRST, id="hello", course_id="python-first", title="Hello"),),
)


def overview(course, lessons_by_level, progress):
    return (
        course,
        [
            LevelBlock(course, level, level_slug(level), lesson_rows(lessons, progress))
            for level, lessons in lessons_by_level
        ],
    )


def attention(progress=None):
    return overview(COURSE, [("Beginner", (FIRST, MIDDLE)), ("Expert", (LAST,))], progress or {})


def test_a_new_learner_starts_at_the_first_lesson_with_the_capstone_ahead():
    (m,) = course_maps([attention()], None)
    assert [s.state for leg in m.legs for s in leg.stops] == [NEW, NEW, NEW]
    assert [s.number for leg in m.legs for s in leg.stops] == [1, 2, 3]
    assert m.next.lesson == FIRST and m.next.next and not m.started
    assert m.capstone.lesson == LAST and m.capstone.capstone
    assert (m.solved, m.total) == (0, 3)


def test_states_are_tried_or_solved_and_next_is_the_first_unsolved():
    progress = {FIRST.uuid: Progress(solved=True), MIDDLE.uuid: Progress(runs=2, code="x")}
    (m,) = course_maps([attention(progress)], None)
    assert [s.state for leg in m.legs for s in leg.stops] == [SOLVED, TRIED, NEW]
    assert [s.word for leg in m.legs for s in leg.stops] == ["Solved", "Tried", "Not started"]
    assert len({s.mark for leg in m.legs for s in leg.stops}) == 3  # a shape each, not a colour
    assert m.next.lesson == MIDDLE and m.started and m.legs[0].solved == 1


def test_continue_is_where_the_learner_left_off_and_that_course_comes_first():
    progress = {FIRST.uuid: Progress(runs=1)}
    maps = course_maps(
        [overview(PYTHON, [("Beginner", PYTHON.lessons)], {}), attention(progress)], Resume(LAST)
    )
    assert [m.course.id for m in maps] == ["test-course", "python-first"]
    assert maps[0].next.lesson == LAST
    assert maps[1].next.lesson.id == "hello" and maps[1].capstone is None  # one lesson: no capstone


def test_a_finished_course_has_no_next_lesson():
    progress = {x.uuid: Progress(solved=True) for x in (FIRST, MIDDLE, LAST)}
    (m,) = course_maps([attention(progress)], None)
    assert m.next is None and m.solved == m.total == 3


@pytest.mark.parametrize("language", ["en", "tr"])
def test_the_map_is_a_list_of_levels_with_every_course(language):
    maps = course_maps(
        [
            attention({FIRST.uuid: Progress(runs=1)}),
            overview(PYTHON, [("Beginner", PYTHON.lessons)], {}),
        ],
        None,
    )
    with translation.override(language):
        html = render_to_string("codeblanks/partials/course_map.html", {"maps": maps})
    assert html.count('<ol class="map-path">') == 2 and "Python from the first line" in html
    assert html.count('aria-current="step"') == 2  # each course's next lesson
    assert re.search(r'class="map-stop state-tried is-next".*?First steps', html, re.S)
    words = {
        "en": ("Continue", "Capstone", "Tried"),
        "tr": ("Devam et", "Bitirme dersi", "Denendi"),
    }
    for word in words[language]:
        assert word in html, word


# ---- the rendered maps kept (web/pages/pagecache.py) ------------------------------------------

STOP = re.compile(
    r'<li class="map-stop state-(\w+)[^"]*" value="\d+">\s*<a href="/lessons/([\w-]+)/"'
)


def _states(page: bytes) -> dict[str, str]:
    return {lesson: state for state, lesson in STOP.findall(page.decode())}


@pytest.fixture
def kept():
    from codeblanks.web.pages import pagecache

    pagecache.clear()
    assert pagecache.enabled
    yield
    pagecache.clear()


@pytest.mark.django_db
def test_a_solved_lesson_shows_solved_on_the_home_page_at_once(kept, client, grader):
    from django.test import Client

    from .conftest import HOST

    assert _states(client.get("/").content) == {FIRST.id: NEW, LAST.id: NEW}
    assert _states(client.get("/").content) == {FIRST.id: NEW, LAST.id: NEW}  # kept: the same
    tried = client.post(f"/lessons/{FIRST.id}/run", {"code": "print:a"}, HTTP_HX_REQUEST="true")
    assert b'data-verdict="incorrect"' in tried.content
    assert _states(client.get("/").content) == {FIRST.id: TRIED, LAST.id: NEW}
    solved = client.post(  # the same lesson to resume: only its state tells the two maps apart
        f"/lessons/{FIRST.id}/run", {"code": FIRST.exercise.solution}, HTTP_HX_REQUEST="true"
    )
    assert b'data-verdict="correct"' in solved.content
    page = client.get("/").content
    assert _states(page) == {FIRST.id: SOLVED, LAST.id: NEW}
    assert b"1 of 2 exercises solved" in page
    other = Client(HTTP_HOST=HOST)  # another learner's map is their own
    assert _states(other.get("/").content) == {FIRST.id: NEW, LAST.id: NEW}


@pytest.mark.django_db
def test_the_kept_map_follows_the_language(kept, client):
    english = client.get("/?lang=en").content.decode()
    turkish = client.get("/?lang=tr").content.decode()
    assert "Not started" in english and "Başlanmadı" not in english
    assert "Başlanmadı" in turkish and "Not started" not in turkish
    assert "Not started" in client.get("/?lang=en").content.decode()
