"""Parts of pages rendered once per lesson, content version and language (web/pages/pagecache.py):
an edited lesson file is rendered anew after the reload, each language has its own parts, a
learner's answers show only on their own page, and every form keeps this request's CSRF token.
Correct by construction: a part sees only the names it is keyed on, every kept part is whole
elements, and learners' parts cannot push the shared ones out. With a copy of a real lesson
folder (a content version comes from its files)."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template import TemplateSyntaxError, engines
from django.test import Client
from django.utils import translation

from codeblanks.content import load_courses
from codeblanks.content.catalog import Catalog
from codeblanks.web.pages import pagecache, selectors
from codeblanks.web.templatetags.pageparts import MARKER, UnkeyedName

from .conftest import FIRST, HOST

pytestmark = pytest.mark.django_db
COURSE = Path(__file__).parents[2] / "src" / "codeblanks" / "courses" / "attention-from-scratch"
LESSON = "01-arrays-and-shapes"
HTMX = {"HTTP_HX_REQUEST": "true"}


class Served:
    """The catalogue the pages read, loaded from ``folder`` again on ``reload()`` (as the dev
    server does when a course file changes)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.reload()

    def reload(self) -> None:
        courses, _ = load_courses([self.folder])
        self.catalog = Catalog(tuple(courses))

    def __call__(self):
        return self.catalog.in_language(translation.get_language())


@pytest.fixture
def served(tmp_path, monkeypatch):
    folder = tmp_path / "course"
    keep = {LESSON, "course.toml"}
    shutil.copytree(COURSE, folder, ignore=lambda d, names: [
        n for n in names if Path(d) == COURSE and n not in keep and not n.endswith(".toml")
    ])  # fmt: skip
    toml = folder / "course.toml"  # its path: the one lesson kept
    toml.write_text(
        re.sub(
            r"^order = \[.*?\]\n",
            'order = ["arrays-and-shapes"]\n',
            toml.read_text(),
            flags=re.M | re.S,
        )
    )
    catalog = Served(folder)
    monkeypatch.setattr(selectors, "current_catalog", catalog)
    pagecache.clear()
    yield catalog
    pagecache.clear()


def _lesson_id(served) -> str:
    (course,) = served.catalog.courses
    return course.lessons[0].id


def test_an_edited_lesson_file_is_rendered_anew_after_the_reload(served, client):
    lesson_id = _lesson_id(served)
    first = client.get(f"/lessons/{lesson_id}/").content.decode()
    assert "A language model never sees words." in first
    explanation = served.folder / LESSON / "explanation.md"
    text = explanation.read_text().replace("never sees words", "never reads a single word")
    explanation.write_text(text)
    not_yet = client.get(f"/lessons/{lesson_id}/").content.decode()
    assert _untokened(not_yet) == _untokened(first)  # not reloaded yet: the same page
    served.reload()
    again = client.get(f"/lessons/{lesson_id}/").content.decode()
    assert "never reads a single word" in again and "never sees words" not in again


def test_each_language_has_its_own_parts(served, client):
    lesson_id = _lesson_id(served)
    english = client.get(f"/lessons/{lesson_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    turkish = Client(HTTP_HOST=HOST).get(f"/lessons/{lesson_id}/", HTTP_ACCEPT_LANGUAGE="tr")
    turkish = turkish.content.decode()
    assert "Arrays, shapes and indexing" in english and "Diziler, şekiller" not in english
    assert "Diziler, şekiller" in turkish and "Arrays, shapes and indexing" not in turkish
    assert ">Check<" in english and ">Check<" not in turkish  # the questions' buttons too
    again = client.get(f"/lessons/{lesson_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Arrays, shapes and indexing" in again


def _untokened(html: str) -> str:
    """The page without its CSRF tokens (masked afresh on every request)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def _tokens(html: str) -> set[str]:
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))


def test_a_learners_answer_shows_on_their_page_only(served):
    lesson_id = _lesson_id(served)
    (course,) = served.catalog.courses
    question = course.lessons[0].questions[0]
    mine, theirs = Client(HTTP_HOST=HOST), Client(HTTP_HOST=HOST)
    assert "is-right" not in mine.get(f"/lessons/{lesson_id}/").content.decode()
    assert "is-right" not in theirs.get(f"/lessons/{lesson_id}/").content.decode()
    url = f"/lessons/{lesson_id}/questions/{question.id}"
    assert mine.post(url, {"choice": str(question.answer)}, **HTMX).status_code == 200
    assert (
        'class="question is-right" id="q-shape-of-a-lookup"'
        in mine.get(f"/lessons/{lesson_id}/").content.decode()
    )
    assert "is-right" not in theirs.get(f"/lessons/{lesson_id}/").content.decode()


def test_every_form_carries_this_requests_own_csrf_token(served):
    lesson_id = _lesson_id(served)
    (course,) = served.catalog.courses
    question = course.lessons[0].questions[0]
    pages = []
    for _ in range(2):
        browser = Client(HTTP_HOST=HOST, enforce_csrf_checks=True)
        html = browser.get(f"/lessons/{lesson_id}/").content.decode()
        assert MARKER not in html and len(_tokens(html)) >= 1
        pages.append((browser, html))
    (a, a_html), (b, b_html) = pages
    assert _tokens(a_html).isdisjoint(_tokens(b_html))  # the cached parts kept neither's token
    token = re.search(
        rf'id="q-{question.id}".*?name="csrfmiddlewaretoken" value="([^"]+)"', a_html, re.S
    ).group(1)
    url = f"/lessons/{lesson_id}/questions/{question.id}"
    answer = {"choice": str(question.answer), "csrfmiddlewaretoken": token}
    assert a.post(url, answer, **HTMX).status_code == 200  # the token in a cached part works


def test_the_cache_off_renders_the_same_page(served, client):
    lesson_id = _lesson_id(served)
    on = client.get(f"/lessons/{lesson_id}/").content.decode()
    pagecache.enabled = False
    try:
        off = client.get(f"/lessons/{lesson_id}/").content.decode()
    finally:
        pagecache.enabled = True
    assert _untokened(on) == _untokened(off)


def test_every_page_renders_the_same_with_the_cache_off_on_and_kept(served, client):
    """A learner with answers and hints, on every page with parts: rendered with no cache, then
    into the cache, then from it."""
    lesson = _learner_at_work(served, client)
    pages = _pages(served, lesson)
    pagecache.enabled = False
    try:
        off = [_untokened(client.get(url).content.decode()) for url in pages]
    finally:
        pagecache.enabled = True
    for _ in range(2):  # made, then kept
        assert [_untokened(client.get(url).content.decode()) for url in pages] == off


# ---- correct by construction ----------------------------------------------------------------


def _template(text: str):
    return engines["django"].from_string("{% load pageparts %}" + text)


def test_a_part_sees_only_the_names_it_is_keyed_on(monkeypatch):
    pagecache.clear()
    shown = _template('{% part "t" a %}[{{ a }}|{{ b }}|{{ c }}]{% endpart %}')
    monkeypatch.setattr(pagecache, "strict", False)
    with translation.override("en"):
        assert shown.render({"a": "x", "b": "y"}) == "[x||]"  # b is the page's: not the part's
        pagecache.enabled = False
        try:
            assert shown.render({"a": "x", "b": "y"}) == "[x||]"  # the same with the cache off
        finally:
            pagecache.enabled = True
        monkeypatch.setattr(pagecache, "strict", True)
        pagecache.clear()  # the check is made when a part is rendered, not when it is served
        with pytest.raises(UnkeyedName, match='"t" %} reads "b"'):
            shown.render({"a": "x", "b": "y"})
        assert shown.render({"a": "z"}) == "[z||]"  # read, but the page has neither: no harm
    pagecache.clear()


def test_a_name_the_part_gives_itself_is_no_unkeyed_read(monkeypatch):
    """A name a {% with %} or {% blocktranslate with %} inside the part gives is the part's
    own, even where the page has the same name: Django's ``in`` asks the page's names first."""
    monkeypatch.setattr(pagecache, "strict", True)
    pagecache.clear()
    shown = _template(
        '{% load i18n %}{% part "t" a %}{% blocktranslate with code=a %}[{{ code }}]'
        "{% endblocktranslate %}{% with code=a %}({{ code }}){% endwith %}{% endpart %}"
    )
    with translation.override("en"):
        assert shown.render({"a": "x", "code": "the page's"}) == "[x](x)"
    pagecache.clear()


def test_a_part_names_what_it_shows():
    with translation.override("en"):
        given = _template('{% part "t" n=page.n %}{{ n }}{% endpart %}')
        assert given.render({"page": {"n": 7}}) == "7"
    with pytest.raises(TemplateSyntaxError, match='"page.n" is not one'):
        _template('{% part "t" page.n %}{{ page.n }}{% endpart %}')
    with pytest.raises(TemplateSyntaxError, match="given twice"):
        _template('{% part "t" a a=b %}{% endpart %}')


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


class _Elements(HTMLParser):
    """The elements a piece of HTML opens and does not close, and the ends it has no start for."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.stray: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if self.open and self.open[-1] == tag:
            self.open.pop()
        else:
            self.stray.append(tag)


def _unbalanced(html: str) -> tuple[list[str], list[str]]:
    found = _Elements(html)
    return found.open, found.stray


def test_the_element_check_sees_a_part_cut_inside_an_element():
    assert _unbalanced('<ul class="nav"><li><a href="/">x</a></li>') == (["ul"], [])
    assert _unbalanced("</div><div><input name=a></div>") == ([], ["div"])
    assert _unbalanced('<p>a <br> <img src="x"></p><link rel="icon">') == ([], [])


def _learner_at_work(served, client):
    """A learner who answered two questions (one right, one wrong) and opened two hints."""
    (course,) = served.catalog.courses
    lesson = course.lessons[0]
    choice, blank = lesson.questions[0], lesson.questions[2]
    url = f"/lessons/{lesson.id}/questions"
    right = {"choice": str(choice.answer)}
    assert client.post(f"{url}/{choice.id}", right, **HTMX).status_code == 200
    assert client.post(f"{url}/{blank.id}", {"blank": "[1, 2]"}, **HTMX).status_code == 200
    assert client.post(f"/lessons/{lesson.id}/hint", **HTMX).status_code == 200
    assert client.post(f"{url}/{choice.id}/hint", **HTMX).status_code == 200
    return lesson


def _pages(served, lesson) -> list[str]:
    (course,) = served.catalog.courses
    level = lesson.level.lower()
    return ["/", f"/lessons/{lesson.id}/", f"/lessons/{lesson.id}/review/", "/progress/",
            f"/courses/{course.id}/{level}/"]  # fmt: skip


def test_every_kept_part_is_whole_elements(served, client):
    lesson = _learner_at_work(served, client)
    for language in ("en", "tr"):
        for url in _pages(served, lesson):
            assert client.get(url, HTTP_ACCEPT_LANGUAGE=language).status_code == 200
        assert Client(HTTP_HOST=HOST).get(f"/lessons/{lesson.id}/").status_code == 200  # a guest
    names = set()
    for kept in (pagecache.shared, pagecache.learner):
        for key, html in kept.parts():
            names.add(key[0][0])
            assert _unbalanced(html) == ([], []), (key[0], html)
    assert {"lesson-text", "lesson-more", "question", "hints", "course-map", "site-nav",
            "language-choice", "work-actions", "reset-form", "lesson-list"} <= names  # fmt: skip


def test_learners_parts_cannot_push_the_shared_ones_out(served, monkeypatch):
    lesson_id = _lesson_id(served)
    (course,) = served.catalog.courses
    blank = course.lessons[0].questions[2]
    first = Client(HTTP_HOST=HOST)
    assert first.get(f"/lessons/{lesson_id}/").status_code == 200
    shared = {key for key, _ in pagecache.shared.parts()}
    assert any(key[0][0] == "lesson-text" for key in shared)
    monkeypatch.setattr(pagecache.learner, "limit", 4)
    for n in range(12):  # each learner's own answer: parts no one else shows
        learner = Client(HTTP_HOST=HOST)
        url = f"/lessons/{lesson_id}/questions/{blank.id}"
        assert learner.post(url, {"blank": f"[{n}]"}, **HTMX).status_code == 200
        assert f'value="[{n}]"' in learner.get(f"/lessons/{lesson_id}/").content.decode()
    assert len(pagecache.learner) == 4
    assert {key for key, _ in pagecache.shared.parts()} == shared


def test_a_lesson_changed_in_code_is_another_part():
    import dataclasses

    changed = dataclasses.replace(FIRST, explanation_md="Other words.")
    pagecache.clear()  # a page rendered by an earlier test in this worker made FIRST's part
    with translation.override("en"):
        assert pagecache.part("lesson-text", (FIRST,), lambda: "first") == "first"
        assert pagecache.part("lesson-text", (changed,), lambda: "changed") == "changed"
        assert pagecache.part("lesson-text", (FIRST,), lambda: "again") == "first"


def test_only_known_kinds_make_a_key():
    with pytest.raises(TypeError, match="no key for a dict"):
        pagecache.vary({"code": "print(1)"}, pagecache.Holds())


def test_the_cache_keeps_at_most_its_limit(monkeypatch):
    monkeypatch.setattr(pagecache.shared, "limit", 3)
    pagecache.clear()
    with translation.override("en"):
        for i in range(5):
            pagecache.part("n", (i,), lambda i=i: f"part {i}")
        assert pagecache.part("n", (0,), lambda: "again") == "again"  # dropped: made anew
        assert pagecache.part("n", (4,), lambda: "again") == "part 4"  # kept
    pagecache.clear()
