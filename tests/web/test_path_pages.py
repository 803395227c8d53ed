"""The lesson page follows the course's path: "Builds on" links each idea a lesson uses to the
earlier lesson that teaches it (in the learner's language), and the pager follows the order of
``Course.lessons`` (course.toml's ``order``), not the levels."""

import dataclasses

import pytest

from codeblanks.web.pages import selectors

from .conftest import COURSE, FIRST, LAST

pytestmark = pytest.mark.django_db

TEACHER = dataclasses.replace(FIRST, teaches=("masks",))
USER = dataclasses.replace(LAST, uses=("masks",))
PATH = dataclasses.replace(
    COURSE,
    lessons=(TEACHER, USER),
    ideas={"masks": "the causal mask"},
    idea_texts={"tr": {"masks": "nedensel maske"}},
    languages=("en", "tr"),
)


class PathCatalog:
    courses = (PATH,)
    problems = ()

    def lesson(self, lesson_id):
        return {x.id: x for x in PATH.lessons}.get(lesson_id)

    def lessons(self):
        return list(PATH.lessons)


@pytest.fixture
def path_catalog(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: PathCatalog())


def test_a_lesson_shows_what_it_builds_on_with_links(client, path_catalog):
    html = client.get("/lessons/last-steps/").content.decode()
    assert "Builds on:" in html
    assert '<a href="/lessons/first-steps/" title="First steps">the causal mask</a>' in html
    first = client.get("/lessons/first-steps/").content.decode()
    assert "Builds on:" not in first


def test_builds_on_is_in_the_learners_language():
    turkish = PATH.in_language("tr")
    ((words, lesson),) = turkish.builds_on(turkish.lessons[1])
    assert words == "nedensel maske" and lesson.id == "first-steps"


def test_the_pager_follows_the_path_not_the_levels(monkeypatch):
    # an Expert lesson first: the loader refuses such a path (content.E036), but the pager must
    # not sort by level on its own
    reordered = dataclasses.replace(PATH, lessons=(USER, TEACHER))

    class Catalog(PathCatalog):
        courses = (reordered,)

    monkeypatch.setattr(selectors, "current_catalog", lambda: Catalog())
    assert selectors.lesson_neighbours(USER) == (None, TEACHER)
    assert selectors.lesson_neighbours(TEACHER) == (USER, None)


def test_the_words_builds_on_are_translated(client, path_catalog):
    html = client.get("/lessons/last-steps/?lang=tr").content.decode()
    assert "Dayandığı konular:" in html and "Builds on:" not in html
