"""The class at a glance: every learner × every lesson as one small cell, coloured by where the
learner is (not started, tried, solved), darker the more of the lesson's points they have,
marked "!" when late and "+" when their due time was extended; a cell with work in it (tried
or solved) is a link to that work, as the roster's cell is (a lesson not started has none).

An HTML table, not an SVG: its cells are links, and a table's links are reached by the
keyboard and read by screen readers with their row and column headers, without a script; the
cell's words (who, which lesson, what state, how many points, late or extended) are its link's
text, so the grid is its own text alternative. Colours come from classes (``shade-0`` to
``shade-4``) in the stylesheet, so dark mode follows, and the state is also a glyph, never
colour alone. Drawn from the roster (``roster.Roster``): no query of its own."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.formats import localize
from django.utils.translation import gettext as _

from codeblanks.web.teaching.roster import Cell, Roster

SHADES = 4  # shade-0 (no point) to shade-4 (every point)


@dataclass(frozen=True)
class GlanceCell:
    state: str  # "solved", "tried" or "none" (a class name in the stylesheet too)
    shade: int
    late: bool
    extended: bool
    url: str  # the learner's work in the lesson, as the roster links it (used once tried)
    words: str  # what the cell says in words: its link's text


@dataclass(frozen=True)
class GlanceRow:
    name: str
    left: bool
    cells: list[GlanceCell]


@dataclass
class Glance:
    titles: list[str]
    rows: list[GlanceRow] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # state or mark -> cells


def shade(score: float, max_score: int) -> int:
    """0 for no point, else the share of the points in quarters, rounded up (1 to 4)."""
    if max_score <= 0 or score <= 0:
        return 0
    return min(SHADES, math.ceil(SHADES * score / max_score - 1e-9))


def state(c: Cell) -> str:
    return "solved" if c.solved else "tried" if c.tried else "none"


def _words(name: str, title: str, c: Cell) -> str:
    states = {"solved": _("solved"), "tried": _("tried"), "none": _("not started")}
    found = {"name": name, "lesson": title, "state": states[state(c)]}
    found |= {"score": localize(c.score), "total": str(c.max_score)}
    words = _("%(name)s, %(lesson)s: %(state)s, %(score)s of %(total)s points") % found
    if c.late:
        words += ", " + _("late")
    if c.extended:
        words += ", " + _("extended to %(date)s") % {"date": c.due_text}
    return words


def glance(r: Roster) -> Glance:
    """The grid of the roster ``r``, in its order."""
    titles = [col.lesson.title for col in r.columns]
    found = Glance(titles, counts=dict.fromkeys(("solved", "tried", "none", "late", "extended"), 0))
    for row in r.rows:
        cells = []
        for title, c in zip(titles, row.cells, strict=True):
            work = reverse("class-learner-work", args=[r.room.pk, row.username, c.lesson_id])
            cell = GlanceCell(
                state=state(c),
                shade=shade(c.score, c.max_score),
                late=c.late,
                extended=c.extended,
                url=work + "#latest",
                words=_words(row.name or row.username, title, c),
            )
            found.counts[cell.state] += 1
            found.counts["late"] += cell.late
            found.counts["extended"] += cell.extended
            cells.append(cell)
        found.rows.append(GlanceRow(row.name or row.username, row.left, cells))
    return found
