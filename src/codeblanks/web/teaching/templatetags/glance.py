"""The class page's picture and lists that stand alone, each kept out of the page's view (so
its template only says where they go): ``{% class_glance r %}`` (glance.py's grid) and
``{% class_extensions r as found %}`` (the learners' extensions, to list and take away); and
the item-analysis page's ``{% solve_rate lesson room as rate %}`` (solve_rate.py)."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from codeblanks.web.teaching import glance as grid
from codeblanks.web.teaching.roster import Roster
from codeblanks.web.teaching.solve_rate import solve_rate as rate_of
from codeblanks.web.teaching.solve_rate import step_chart

register = template.Library()


@register.inclusion_tag("teaching/partials/class_glance.html")
def class_glance(r: Roster) -> dict:
    return {"g": grid.glance(r)}


@dataclass(frozen=True)
class Extended:
    name: str
    username: str
    lesson_id: str
    title: str
    due_text: str  # the learner's own due time
    lesson_due_text: str  # the lesson's, which is theirs again without the extension


@register.simple_tag
def class_extensions(r: Roster) -> list[Extended]:
    return [
        Extended(row.name, row.username, col.lesson.id, col.lesson.title, c.due_text, col.due_text)
        for row in r.rows
        for col, c in zip(r.columns, row.cells, strict=True)
        if c.extended
    ]


@register.simple_tag
def solve_rate(lesson, room=None) -> dict | None:
    """The rate and its chart, or None (the site's analysis, or a class without learners)."""
    found = rate_of(room, lesson) if room is not None else None
    return {"rate": found, "svg": step_chart(found)} if found else None
