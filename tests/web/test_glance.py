"""The class at a glance (teaching/glance.py): a learners × lessons grid, its
state as a class and a glyph, shaded by the share of the points, late and extended work marked
with a symbol, a cell with work in it linking to that work as the roster does, and every name
escaped. Drawn from a roster built here by hand: no database, no clock."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.urls import reverse

from codeblanks.web.teaching.glance import glance, shade
from codeblanks.web.teaching.models import Classroom
from codeblanks.web.teaching.roster import Cell, Column, Roster, Row

from .conftest import FIRST, LAST

JOINED = datetime(2030, 1, 1, tzinfo=UTC)
LATE = Cell(lesson_id=FIRST.id, solved=True, runs=2, score=0.5, max_score=4, late=True)
EXTENDED = Cell(
    lesson_id=LAST.id, runs=1, score=1, max_score=4, extended=True, due_text="2030-02-01 17:00"
)
UNTOUCHED = Cell(lesson_id=FIRST.id, max_score=4)
FULL = Cell(lesson_id=LAST.id, solved=True, runs=1, score=4, max_score=4)


def room_roster() -> Roster:
    room = Classroom(pk=7, name="7B")
    columns = [Column(FIRST, None, 1, 3), Column(LAST, None, 1, 2)]
    rows = [
        Row("ada", JOINED, [LATE, EXTENDED], name="<script>alert('ada')</script>"),
        Row("bob", JOINED, [UNTOUCHED, FULL], left=True, name="Bob"),
    ]
    return Roster(room=room, columns=columns, rows=rows, sort="name")


def drawn(r: Roster) -> str:
    return Template("{% load glance %}{% class_glance r %}").render(Context({"r": r}))


@pytest.mark.parametrize(
    ("score", "total", "expected"),
    [(0, 4, 0), (0.01, 4, 1), (1, 4, 1), (1.2, 4, 2), (2, 4, 2), (3, 4, 3), (4, 4, 4), (1, 0, 0)],
)
def test_a_cell_is_shaded_by_its_share_of_the_points_in_quarters(score, total, expected):
    assert shade(score, total) == expected


def test_each_cell_says_its_state_points_and_marks_in_words_and_links_to_the_work():
    g = glance(room_roster())
    ada, bob = g.rows
    assert [c.state for c in ada.cells + bob.cells] == ["solved", "tried", "none", "solved"]
    assert [c.shade for c in ada.cells + bob.cells] == [1, 1, 0, 4]
    assert ada.cells[0].words.endswith("solved, 0.5 of 4 points, late")
    assert ada.cells[1].words.endswith("tried, 1 of 4 points, extended to 2030-02-01 17:00")
    assert bob.cells[0].words == "Bob, First steps: not started, 0 of 4 points"
    work = reverse("class-learner-work", args=[7, "bob", FIRST.id])
    assert bob.cells[0].url == work + "#latest"  # the roster's Work link
    assert g.counts == {"solved": 2, "tried": 1, "none": 1, "late": 1, "extended": 1}


def test_the_grid_marks_late_and_extended_work_with_a_symbol_and_escapes_every_name():
    html = drawn(room_roster())
    cells = re.findall(
        r'<(?:a|span) class="glance-cell ([a-z]+) shade-(\d)"(?: href="([^"]+)")?[^>]*>(.*?)</td>',
        html,
    )
    assert [(state, int(n)) for state, n, _href, _inner in cells] == [
        ("solved", 1), ("tried", 1), ("none", 0), ("solved", 4),
    ]  # fmt: skip
    late, extended, untouched, full = (inner for _s, _n, _h, inner in cells)
    assert 'class="glance-mark late" aria-hidden="true">!</span>' in late
    assert "glance-mark extended" not in late
    assert 'class="glance-mark extended" aria-hidden="true">+</span>' in extended
    assert "glance-mark late" not in extended
    assert "glance-mark" not in untouched + full
    assert "✓" in late and "◐" in extended and "glyph" not in untouched  # not colour alone
    assert "<script>" not in html and "&lt;script&gt;alert(&#x27;ada&#x27;)" in html
    assert html.count('<th scope="row"') == 2 and "(left)" in html
    work = reverse("class-learner-work", args=[7, "ada", FIRST.id]) + "#latest"
    assert [href for _s, _n, href, _i in cells] == [
        work,
        work.replace(FIRST.id, LAST.id),
        "",
        work.replace("ada", "bob").replace(FIRST.id, LAST.id),
    ]
    assert '<span class="glance-cell none shade-0"' in html  # not started: no link to nothing
    assert 'role="region"' in html and 'tabindex="0"' in html  # scrolls in its own box


def test_a_class_without_learners_draws_no_grid():
    empty = Roster(room=Classroom(pk=7), columns=[Column(FIRST, None, 0, 0)], rows=[], sort="name")
    assert "glance-grid" not in drawn(empty)
