"""A lesson's solve rate in a class, day by day, for its item-analysis page: the share of the
class's learners (those in it now) who had solved the lesson by the end of each day, days in
the class's time zone, from the day the class was made (or the first solve, if earlier) to
today or the due day, whichever is later. So a teacher sees whether the class solved it in
time, or all the night before.

Drawn on the server as a step line in inline SVG, like charts.py: ``role="img"`` with a label
that reads out the figures (the first day, each day the count changed, the due time), every
text escaped and every mark inside the view box, the due time a dashed line with its date."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from codeblanks.content.model import Lesson
from codeblanks.web.models import LessonProgress
from codeblanks.web.teaching import deadlines
from codeblanks.web.teaching.classes import class_lessons
from codeblanks.web.teaching.models import Classroom

WIDTH, HEIGHT = 360, 170
LEFT, RIGHT, TOP, BOTTOM = 42, WIDTH - 10, 26, HEIGHT - 30  # the plot's box
CHAR = 7.5  # px per character of a 12 px label, wide letters and digits alike
LABEL_Y = HEIGHT - 12  # the dates' baseline under the plot (descenders stay inside)
DUE_Y = TOP - 10  # the due time's label, above the plot


@dataclass(frozen=True)
class SolveRate:
    title: str
    learners: int
    start: date  # the first day on the axis
    end: date  # the last day on the axis (today, or the due day if later)
    counts: list[int]  # solved by the end of each day, from ``start`` to today
    due: datetime | None  # the lesson's due time in the class (an extension is a learner's own)
    due_text: str  # in the class's zone
    by_due: int | None  # solved by the due time, once it has passed
    zone: ZoneInfo

    @property
    def now(self) -> int:
        return self.counts[-1] if self.counts else 0


def solve_rate(room: Classroom, lesson: Lesson, now: datetime | None = None) -> SolveRate | None:
    """The lesson's solve rate in the class; None when the class has no learner (or does not
    cover the lesson)."""
    now = now or timezone.now()
    cl = next((cl for x, cl in class_lessons(room) if x.id == lesson.id), None)
    users = list(room.members.filter(left_at__isnull=True).values_list("user_id", flat=True))
    if cl is None or not users:
        return None
    zone = deadlines.room_zone(room)
    solved = LessonProgress.objects.filter(
        user_id__in=users, lesson_uuid=lesson.uuid, solved_at__isnull=False
    ).values_list("solved_at", flat=True)
    times = sorted(t for t in solved if t is not None)
    days = [t.astimezone(zone).date() for t in times]
    today = now.astimezone(zone).date()
    start = min([room.created_at.astimezone(zone).date(), *days[:1], today])
    due_day = cl.due_at.astimezone(zone).date() if cl.due_at else today
    span = (today - start).days + 1
    counts = [bisect.bisect_right(days, start + timedelta(days=i)) for i in range(span)]
    by_due = None
    if cl.due_at is not None and cl.due_at <= now:
        by_due = bisect.bisect_right(times, cl.due_at)
    return SolveRate(
        title=lesson.title,
        learners=len(users),
        start=start,
        end=max(today, due_day),
        counts=counts,
        due=cl.due_at,
        due_text=deadlines.shown(cl.due_at, zone),
        by_due=by_due,
        zone=zone,
    )


def percent(n: int, of: int) -> str:
    return _("%(n)s%%") % {"n": round(100 * n / of) if of else 0}


def spoken(rate: SolveRate) -> str:
    """The figures in words: the first day, each day the count changed, the due time."""
    parts, before = [], None
    for i, n in enumerate(rate.counts):
        if n != before:
            day = (rate.start + timedelta(days=i)).isoformat()
            parts.append(f"{day}: {n} ({percent(n, rate.learners)})")
            before = n
    lead = _("Learners of %(total)s who had solved “%(lesson)s”, by day")
    words = lead % {"total": rate.learners, "lesson": rate.title} + ": " + "; ".join(parts)
    if rate.due_text:
        words += ". " + _("Due %(date)s") % {"date": rate.due_text}
        if rate.by_due is not None:
            n = rate.by_due
            words += ": " + _("%(n)s by then") % {"n": f"{n} ({percent(n, rate.learners)})"}
    return words + "."


def _x(rate: SolveRate, days: float) -> float:
    """Where a time ``days`` after the first day's midnight is on the axis."""
    span = (rate.end - rate.start).days + 1
    return round(LEFT + (RIGHT - LEFT) * min(max(days, 0.0), span) / span, 1)


def _y(rate: SolveRate, n: int) -> float:
    return round(BOTTOM - (BOTTOM - TOP) * n / rate.learners, 1)


def _text(x: float, y: float, words: str, css: str, anchor: str = "middle") -> str:
    """A label whose estimated width is kept inside the view box (its x moved in if not)."""
    half = len(words) * CHAR / 2
    low, high = {"start": (0, WIDTH - 2 * half), "end": (2 * half, WIDTH)}.get(
        anchor, (half, WIDTH - half)
    )
    x = round(min(max(x, low), high), 1)
    return f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" class="{css}">{escape(words)}</text>'


def step_chart(rate: SolveRate) -> SafeString:
    """The step line of ``rate`` as an ``<svg role="img">``."""
    label = spoken(rate)
    parts = [
        f'<svg class="solve-rate-chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'preserveAspectRatio="xMinYMin meet" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
    ]
    for share in (0, 50, 100):  # the grid lines and their percents
        y = round(BOTTOM - (BOTTOM - TOP) * share / 100, 1)
        parts.append(f'<line x1="{LEFT}" y1="{y:g}" x2="{RIGHT}" y2="{y:g}" class="grid"/>')
        parts.append(_text(LEFT - 6, y + 4, _("%(n)s%%") % {"n": share}, "axis", "end"))
    parts.append(_text(LEFT, LABEL_Y, rate.start.isoformat(), "axis", "start"))
    if rate.end != rate.start:
        parts.append(_text(RIGHT, LABEL_Y, rate.end.isoformat(), "axis", "end"))
    if rate.due is not None:
        midnight = datetime.combine(rate.start, time(0), rate.zone)
        x = _x(rate, (rate.due - midnight) / timedelta(days=1))
        parts.append(f'<line x1="{x:g}" y1="{TOP}" x2="{x:g}" y2="{BOTTOM}" class="due"/>')
        words = _("due %(date)s") % {"date": rate.due.astimezone(rate.zone).date().isoformat()}
        parts.append(_text(x, DUE_Y, words, "due-label"))
    path = [f"M{_x(rate, 0):g} {_y(rate, rate.counts[0] if rate.counts else 0):g}"]
    for i, n in enumerate(rate.counts):
        path.append(f"H{_x(rate, i + 1):g}")
        if i + 1 < len(rate.counts) and rate.counts[i + 1] != n:
            path.append(f"V{_y(rate, rate.counts[i + 1]):g}")
    parts.append(f'<path d="{" ".join(path)}" class="line"/>')
    end = _x(rate, len(rate.counts))
    parts.append(f'<circle cx="{end:g}" cy="{_y(rate, rate.now):g}" r="3" class="dot"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
