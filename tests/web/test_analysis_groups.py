"""A class's item analysis page shows the wrong programs that matched no
declared mistake in the groups `codeblanks mistakes suggest` makes of the same programs (one
grouping, grading/suggest.py), with the same names, their counts, where they fail and one
program each, escaped. The real lesson "py-dictionaries", the real sandbox; the page never waits
for the sandbox: it says "computing" while one background thread groups the programs."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from codeblanks.content import catalog
from codeblanks.grading.grade import run_sync
from codeblanks.grading.suggest import asuggest
from codeblanks.sandbox import get_sandbox
from codeblanks.web.pages import selectors
from codeblanks.web.teaching import classes, clusters

from .conftest import HOST

pytestmark = pytest.mark.django_db
LESSON = "py-dictionaries"
HANG_S = 600.0  # only a hang waits this long
COUNTING = """\
votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    counts[drink] = counts.get(drink, 0) + 1
for drink, count in counts.items():
"""
COLON = COUNTING + '    print(drink + ":", count)\n'  # "coffee: 3": no declared mistake
COLON_AGAIN = COUNTING + '    print(drink + ": " + str(count))\n'  # the same output
TAGGED = COUNTING + '    print("<b>" + drink, count)\n'  # wrong another way; escaped on the page
TAGGED_AGAIN = COUNTING + '    print("<b>" + drink + " " + str(count))\n'


@pytest.fixture(autouse=True)
def real_course(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: catalog().in_language("en"))


def person(name, *, teacher=False):
    made = get_user_model().objects.create_user(name, password="a-long-passphrase-1")
    if teacher:
        call_command("grant_teacher", name, stdout=io.StringIO())
        made = get_user_model().objects.get(pk=made.pk)
    c = Client(HTTP_HOST=HOST)
    c.force_login(made)
    return made, c


def page_when_grouped(teacher, url):
    """The page once the grouping it asked for is done (the first view only asks)."""
    first = teacher.get(url).content.decode()
    assert clusters.wait_computed(HANG_S)
    return first, teacher.get(url).content.decode()


def test_the_class_page_groups_its_unmatched_programs_as_mistakes_suggest_does():
    lesson = catalog().lesson(LESSON)
    teacher_user, teacher = person("teacher", teacher=True)
    room = classes.class_create(teacher_user, classes.Plan("7B", (LESSON,), {}))
    for name, code in (("ada", COLON), ("bob", COLON_AGAIN), ("cem", TAGGED)):
        _user, learner = person(name)
        learner.post("/classes/join", {"code": room.join_code})
        learner.post(f"/lessons/{LESSON}/run", {"code": code})
    ada = Client(HTTP_HOST=HOST)
    ada.force_login(get_user_model().objects.get(username="ada"))
    ada.post(f"/lessons/{LESSON}/run", {"code": lesson.exercise.solution})  # right: no group
    _out, outsider = person("dee")  # not in the class: not on its page
    outsider.post(f"/lessons/{LESSON}/run", {"code": "print('elsewhere')\n"})

    url = f"/classes/{room.pk}/analysis/{LESSON}/"
    first, page = page_when_grouped(teacher, url)
    assert "Computing the groups" in first and 'hx-trigger="load delay:3s"' in first

    expected = run_sync(asuggest(lesson, [COLON, COLON_AGAIN, TAGGED], get_sandbox()))
    assert [c.count for c in expected] == [2, 1]
    members = list(room.members.values_list("user_id", flat=True))
    shown = clusters.for_page(lesson, members, f"class:{room.pk}")
    assert shown.fresh and [(g.name, g.count) for g in shown.groups] == [
        (c.name, c.count) for c in expected
    ]
    for candidate in expected:
        assert f"<code>{candidate.name}</code>" in page
    assert "2 programs</h3>" in page and "1 program</h3>" in page
    assert "Computing the groups" not in page and "hx-trigger" not in page
    assert "On “visible”:" in page and "the output differs" in page
    assert "&quot;&lt;b&gt;&quot;" in page and '"<b>"' not in page  # the program, escaped
    assert "elsewhere" not in page and "ada" not in page and "bob" not in page

    # A new wrong run: the page shows the earlier groups while it groups again.
    _user, eve = person("eve")
    eve.post("/classes/join", {"code": room.join_code})
    eve.post(f"/lessons/{LESSON}/run", {"code": TAGGED_AGAIN})
    earlier, page = page_when_grouped(teacher, url)
    assert "from a little earlier" in earlier and expected[0].name in earlier
    again = run_sync(asuggest(lesson, [COLON, COLON_AGAIN, TAGGED, TAGGED_AGAIN], get_sandbox()))
    assert [c.count for c in again] == [2, 2]
    assert all(f"<code>{c.name}</code>" in page for c in again)
    assert "from a little earlier" not in page


def test_the_sites_page_groups_everyones_and_a_lesson_without_wrong_runs_has_none():
    lesson = catalog().lesson(LESSON)
    staff, author = person("author")
    staff.is_staff = True
    staff.save()
    url = f"/analysis/{LESSON}/"
    assert "No wrong program is left that no mistake matches." in author.get(url).content.decode()
    for name, code in (("ada", COLON), ("bob", COLON_AGAIN)):
        person(name)[1].post(f"/lessons/{LESSON}/run", {"code": code})
    _first, page = page_when_grouped(author, url)
    [expected] = run_sync(asuggest(lesson, [COLON, COLON_AGAIN], get_sandbox()))
    assert f"<code>{expected.name}</code>" in page and expected.name.startswith("candidate-2x-")
