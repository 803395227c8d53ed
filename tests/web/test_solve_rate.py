"""A lesson's solve rate in a class, day by day (teaching/solve_rate.py): days
in the class's time zone, only the learners in the class now, the share by the due time; the
step chart keeps every mark and every label inside its view box, escapes its text and reads
its figures out in its label. Every time is given (``now``, the solves, the class's making):
nothing waits for a clock."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from codeblanks.web.models import LessonProgress
from codeblanks.web.teaching import classes, solve_rate
from codeblanks.web.teaching.models import Classroom
from codeblanks.web.teaching.solve_rate import HEIGHT, WIDTH, SolveRate, step_chart

from .conftest import FIRST, LAST
from .test_classes import signed_in, user

IST = ZoneInfo("Europe/Istanbul")  # UTC+3 all year
DUE = datetime(2030, 1, 31, 14, 0, tzinfo=UTC)  # 17:00 in Istanbul
NOW = datetime(2030, 2, 2, 12, 0, tzinfo=UTC)


def make_room() -> Classroom:
    """Four learners in the class (ada, bob, cem, dan) and eve, removed; FIRST due on the 31st."""
    teacher = user("teacher", teacher=True)
    teacher = get_user_model().objects.get(pk=teacher.pk)
    plan = classes.Plan("7B", (FIRST.id, LAST.id), {FIRST.id: DUE}, "Europe/Istanbul")
    room = classes.class_create(teacher, plan)
    Classroom.objects.filter(pk=room.pk).update(created_at=datetime(2030, 1, 25, 9, tzinfo=UTC))
    room.refresh_from_db()
    solves = {
        "ada": datetime(2030, 1, 27, 10, 0, tzinfo=UTC),
        "bob": datetime(2030, 1, 30, 22, 30, tzinfo=UTC),  # 01:30 on the 31st in Istanbul
        "cem": datetime(2030, 2, 1, 8, 0, tzinfo=UTC),  # after the due time
        "dan": None,
        "eve": datetime(2030, 1, 26, 8, 0, tzinfo=UTC),  # removed from the class: not counted
    }
    for name, at in solves.items():
        learner = user(name)
        classes.class_join(learner, room)
        if at:
            LessonProgress.objects.create(user=learner, lesson_uuid=FIRST.uuid, solved_at=at)
    classes.class_remove(room, "eve")
    return room


def numbers_inside(svg: str) -> None:
    """Every coordinate of the SVG inside its view box, and every label's estimated width."""
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    assert box and (float(box.group(1)), float(box.group(2))) == (WIDTH, HEIGHT)
    for name, value in re.findall(r'\b(x|x1|x2|cx)="(-?[\d.]+)"', svg):
        assert 0 <= float(value) <= WIDTH, (name, value)
    for name, value in re.findall(r'\b(y|y1|y2|cy)="(-?[\d.]+)"', svg):
        assert 0 <= float(value) <= HEIGHT, (name, value)
    for path in re.findall(r' d="([^"]+)"', svg):
        for letter, value in re.findall(r"([MHV])(-?[\d.]+)", path):
            assert 0 <= float(value) <= (HEIGHT if letter == "V" else WIDTH), (letter, value)
    texts = re.findall(
        r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)"[^>]*>([^<]*)</text>', svg
    )
    assert texts
    for x, y, anchor, words in texts:
        width = len(words.replace("&amp;", "&")) * solve_rate.CHAR
        left = {"start": float(x), "end": float(x) - width}.get(anchor, float(x) - width / 2)
        assert left >= 0 and left + width <= WIDTH, (x, anchor, words)
        assert 12 <= float(y) <= HEIGHT - 4, (y, words)  # a 12 px line, its descenders too


@pytest.mark.django_db
def test_the_rate_counts_the_class_now_by_its_own_days_and_by_the_due_time():
    rate = solve_rate.solve_rate(make_room(), FIRST, now=NOW)
    assert rate is not None and rate.learners == 4  # eve left: not counted
    assert (rate.start, rate.end) == (date(2030, 1, 25), date(2030, 2, 2))
    #                      25 26 27 28 29 30 31 01 02
    assert rate.counts == [0, 0, 1, 1, 1, 1, 2, 3, 3]  # bob's solve is on the 31st there
    assert rate.by_due == 2 and rate.now == 3 and rate.due_text == "2030-01-31 17:00"
    words = solve_rate.spoken(rate)
    assert "2030-01-25: 0 (0%); 2030-01-27: 1 (25%); 2030-01-31: 2 (50%)" in words
    assert words.endswith("Due 2030-01-31 17:00: 2 (50%) by then.")
    other = solve_rate.solve_rate(Classroom.objects.get(), LAST, now=NOW)
    assert other.counts == [0] * 9 and other.due is None and other.by_due is None


@pytest.mark.django_db
def test_before_the_due_time_the_axis_reaches_it_and_the_line_stops_today():
    early = datetime(2030, 1, 28, 12, 0, tzinfo=UTC)
    rate = solve_rate.solve_rate(make_room(), FIRST, now=early)
    assert rate.end == date(2030, 1, 31) and rate.counts == [0, 0, 1, 1] and rate.by_due is None
    svg = str(step_chart(rate))
    numbers_inside(svg)
    line_end = float(re.search(r'<circle cx="([\d.]+)"', svg).group(1))
    due_x = float(re.search(r'<line x1="([\d.]+)"[^>]*class="due"', svg).group(1))
    assert line_end < due_x  # today is before the due time


@pytest.mark.django_db
def test_the_analysis_page_of_the_class_shows_the_chart_and_the_site_page_does_not():
    room = make_room()  # the page reads today's date: the solves move to yesterday
    LessonProgress.objects.update(solved_at=timezone.now() - timedelta(days=1))
    page = signed_in(room.teacher).get(f"/classes/{room.pk}/analysis/{FIRST.id}/")
    html = page.content.decode()
    assert page.status_code == 200 and 'class="solve-rate-chart" role="img"' in html
    assert "Solved, day by day" in html and "Now: 3 of 4 learners." in html
    assert "Due 2030-01-31 17:00." in html  # not passed yet: no "by the due time"
    staff = user("staff")
    staff.is_staff = True
    staff.save()
    site = signed_in(staff).get(f"/analysis/{FIRST.id}/").content.decode()
    assert "Item analysis" in site and "solve-rate" not in site  # a class's picture only


def chart(**changes) -> str:
    rate = SolveRate(
        title="<b>Loops</b> & “more”",
        learners=3,
        start=date(2030, 1, 1),
        end=date(2030, 1, 10),
        counts=[0, 1, 1, 2, 3, 3, 3, 3, 3, 3],
        due=datetime(2030, 1, 5, 17, 0, tzinfo=IST),
        due_text="2030-01-05 17:00",
        by_due=3,
        zone=IST,
    )
    return str(step_chart(dataclasses.replace(rate, **changes)))


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"due": datetime(2030, 1, 1, 0, 5, tzinfo=IST)},  # at the axis's left end
        {"due": datetime(2030, 1, 10, 23, 59, tzinfo=IST)},  # at its right end
        {"start": date(2030, 1, 10), "counts": [3]},  # one day
        {"end": date(2031, 12, 31), "learners": 999},  # a long axis, a large class
        {"due": None, "due_text": "", "by_due": None},
    ],
)
def test_every_mark_and_label_of_the_chart_is_inside_its_view_box(changes):
    numbers_inside(chart(**changes))


def test_the_chart_escapes_its_text_and_reads_out_its_figures_and_due_time():
    svg = chart()
    assert "<b>" not in svg and "&lt;b&gt;Loops&lt;/b&gt; &amp; “more”" in svg
    label = re.search(r'aria-label="([^"]+)"', svg).group(1)
    assert label.startswith("Learners of 3 who had solved “&lt;b&gt;Loops")
    assert (
        "2030-01-01: 0 (0%); 2030-01-02: 1 (33%); 2030-01-04: 2 (67%); 2030-01-05: 3 (100%)"
        in label
    )
    assert label.endswith("Due 2030-01-05 17:00: 3 (100%) by then.")
    assert 'class="due"' in svg and ">due 2030-01-05</text>" in svg
    assert 'role="img"' in svg and "<title>" in svg
    assert 'class="due"' not in chart(due=None, due_text="", by_due=None)


def test_the_chart_speaks_turkish_to_a_turkish_teacher():
    with translation.override("tr"):
        svg = chart()
    assert "(%0)" in svg and ">%100</text>" in svg and "Teslim: 2030-01-05 17:00" in svg
