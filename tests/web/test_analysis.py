"""Item analysis: the real built-in lesson "query-key-value" graded by the
real sandbox through the lesson views; the analysis for a class counts its members only, the
site's counts everyone and names no one; the charts are accessible SVG with every text
escaped; `codeblanks report` prints the same figures."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from codeblanks.content import catalog
from codeblanks.web.pages import selectors
from codeblanks.web.teaching import classes
from codeblanks.web.teaching.analysis import lesson_analysis
from codeblanks.web.teaching.charts import bar_chart

from .conftest import HOST

pytestmark = pytest.mark.django_db
LESSON = "query-key-value"
OTHER_WRONG = "import numpy as np\nprint('not it')\n"


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


def mistake_code(lesson, name):
    return next(m.code for m in lesson.exercise.grading.mistakes if m.path.name == name)


def option(lesson, question_id, text):
    q = next(q for q in lesson.questions if q.id == question_id)
    return str(q.options.index(text))


def test_the_class_sees_its_members_wrong_runs_mistakes_and_answers_the_site_sees_all():
    lesson = catalog().lesson(LESSON)
    teacher, t = person("teacher", teacher=True)
    room = classes.class_create(teacher, classes.Plan("7B", (LESSON,), {}))
    ada_user, ada = person("ada")
    ada.post("/classes/join", {"code": room.join_code})
    _bob, bob = person("bob")  # not in the class

    ada.post(f"/lessons/{LESSON}/run", {"code": mistake_code(lesson, "softmax-axis-0.py")})
    ada.post(f"/lessons/{LESSON}/run", {"code": OTHER_WRONG})
    ada.post(f"/lessons/{LESSON}/run", {"code": OTHER_WRONG + "\n\n"})  # the same, reflowed
    ada.post(f"/lessons/{LESSON}/run", {"code": lesson.exercise.solution})
    wrong = "The key of i and the query of j"
    ada.post(
        f"/lessons/{LESSON}/questions/what-makes-a-score",
        {"choice": option(lesson, "what-makes-a-score", wrong)},
    )
    ada.post(
        f"/lessons/{LESSON}/questions/what-makes-a-score",
        {"choice": option(lesson, "what-makes-a-score", "The query of i and the key of j")},
    )
    bob.post(f"/lessons/{LESSON}/run", {"code": mistake_code(lesson, "keys-against-queries.py")})
    bob.post(
        f"/lessons/{LESSON}/questions/what-makes-a-score",
        {"choice": option(lesson, "what-makes-a-score", wrong)},
    )

    mine = lesson_analysis(lesson, [ada_user.pk])
    assert (mine.learners, mine.runs, mine.solved_by) == (1, 4, 1)
    matched = {f: n for f, _, n in mine.mistakes}
    assert (
        matched["mistakes/softmax-axis-0.py"] == 1
        and matched["mistakes/keys-against-queries.py"] == 0
    )
    assert mine.unmatched_runs == 2 and mine.unmatched == [(OTHER_WRONG.strip(), 2)]
    scores = next(q for q in mine.questions if q.question.id == "what-makes-a-score")
    assert (scores.answers, scores.right, scores.wrong) == (2, 1, [(wrong, 1)])

    site = lesson_analysis(lesson)
    assert (site.learners, site.runs) == (2, 5)
    assert {f: n for f, _, n in site.mistakes}["mistakes/keys-against-queries.py"] == 1
    site_scores = next(q for q in site.questions if q.question.id == "what-makes-a-score")
    assert site_scores.wrong == [(wrong, 2)]

    page = t.get(f"/classes/{room.pk}/analysis/{LESSON}/").content.decode()
    assert "Item analysis: Query, Key, Value" in page and 'role="img"' in page
    assert "print(&#x27;not it&#x27;)" in page and "ada" not in page and "bob" not in page
    assert "Runs of each wrong program that matched no mistake: import numpy as np: 2" in page
    assert (
        f'href="/classes/{room.pk}/analysis/{LESSON}/"'
        in t.get(f"/classes/{room.pk}/").content.decode()
    )

    out = io.StringIO()
    call_command("report", LESSON, stdout=out)
    text = out.getvalue()
    assert "2 learners, 5 runs, solved by 1" in text and "print('not it')" in text
    out = io.StringIO()
    call_command("report", LESSON, "--class", str(room.pk), stdout=out)
    assert "1 learners, 4 runs, solved by 1" in out.getvalue()


def test_who_may_see_an_analysis():
    teacher, t = person("teacher", teacher=True)
    room = classes.class_create(teacher, classes.Plan("7B", (LESSON,), {}))
    _other, other = person("other", teacher=True)
    assert other.get(f"/classes/{room.pk}/analysis/{LESSON}/").status_code == 404
    assert t.get(f"/classes/{room.pk}/analysis/causal-mask/").status_code == 404  # not covered
    assert t.get(f"/analysis/{LESSON}/").status_code == 404  # the site's: staff only
    staff, s = person("author")
    staff.is_staff = True
    staff.save()
    assert "Across every learner of the site" in s.get(f"/analysis/{LESSON}/").content.decode()


def test_a_chart_escapes_its_labels_and_reads_out_every_bar():
    svg = str(bar_chart("Wrong <answers>", [("<script>alert(1)</script>", 3), ("b & c", 1)]))
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "b &amp; c" in svg
    assert 'role="img"' in svg and 'aria-label="Wrong &lt;answers&gt;: &lt;script&gt;' in svg
    assert svg.count("<rect") == 2
    assert 'role="img"' in str(bar_chart("Nothing", []))


def test_report_names_what_is_missing():
    with pytest.raises(Exception, match="no lesson 'nope'"):
        call_command("report", "nope")
    with pytest.raises(Exception, match="no class 999"):
        call_command("report", LESSON, "--class", "999")


def test_the_command_line_door_is_the_report_command(monkeypatch):
    """`codeblanks report` is Django's `report` command with our settings (``manage``); run
    here, it would set Django's logging up again on the test's captured streams, so the test
    takes what it hands on. The command itself is tested above, on real rows."""
    from codeblanks.cli import manage
    from codeblanks.cli.main import main

    handed = []
    monkeypatch.setattr(manage, "run", lambda args: handed.append(args.django_args) or 0)
    assert main(["report", LESSON]) == 0 and main(["report", LESSON, "--class", "3"]) == 0
    assert handed == [["report", LESSON], ["report", LESSON, "--class", "3"]]
