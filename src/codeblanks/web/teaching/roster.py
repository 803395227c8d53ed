"""A class's progress at a glance: each learner × each lesson of the class (solved, runs, hints,
solution seen, questions right, last activity), the same rows for the page, the CSV and the
API. Read with a fixed number of queries whatever the class's size."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db.models import Count, Max, Q
from django.http import HttpResponse
from django.utils import timezone

from codeblanks.content.model import Lesson
from codeblanks.web.models import Attempt, LessonProgress
from codeblanks.web.teaching import deadlines, scores
from codeblanks.web.teaching.classes import class_lessons, display_name
from codeblanks.web.teaching.exports import csv_response, csv_text, safe, when
from codeblanks.web.teaching.models import Classroom, Extension

SORTS = ("name", "solved", "last", "runs")


@dataclass(frozen=True)
class Cell:
    solved: bool = False
    solved_at: datetime | None = None
    runs: int = 0
    hints: int = 0
    solution_seen: bool = False
    questions_right: int = 0
    questions: int = 0
    last: datetime | None = None
    late: bool = False  # solved after the due time, or not solved and the time has passed
    lesson_id: str = ""
    score: float | int = 0  # points (scores.py): the best kept, the class's rules applied
    max_score: int = 0
    due_at: datetime | None = None  # the learner's: their extension, else the lesson's
    extended: bool = False  # they have an extension
    due_text: str = ""  # ``due_at`` in the class's zone

    @property
    def tried(self) -> bool:
        return self.runs > 0 or self.questions_right > 0 or self.last is not None


@dataclass
class Row:
    username: str
    joined_at: datetime
    cells: list[Cell] = field(default_factory=list)
    left: bool = False  # removed by the teacher: their record kept
    name: str = ""  # as shown (``display_name``): the LMS's name of an LTI learner

    @property
    def solved(self) -> int:
        return sum(c.solved for c in self.cells)

    @property
    def runs(self) -> int:
        return sum(c.runs for c in self.cells)

    @property
    def last(self) -> datetime | None:
        return max((c.last for c in self.cells if c.last), default=None)

    @property
    def score(self) -> float | int:
        return scores.number(sum(c.score for c in self.cells))

    @property
    def max_score(self) -> int:
        return sum(c.max_score for c in self.cells)


@dataclass(frozen=True)
class Column:
    lesson: Lesson
    due_at: datetime | None
    solved: int  # how many of the class solved it
    runs: int
    due_text: str = ""  # ``due_at`` in the class's zone: 2030-01-31 17:00


@dataclass(frozen=True)
class Roster:
    room: Classroom
    columns: list[Column]
    rows: list[Row]
    sort: str
    zone: ZoneInfo | None = None  # the class's
    rules: scores.Rules = scores.ON_TIME  # the class's: what its scores count


def _later(a: datetime | None, b: datetime | None) -> datetime | None:
    return max((t for t in (a, b) if t), default=None)


def _late(due: datetime | None, solved_at: datetime | None, now: datetime) -> bool:
    if due is None:
        return False
    return solved_at > due if solved_at else now > due


@dataclass(frozen=True)
class Due:
    """A learner's due time in a lesson of the class, and how work there counts."""

    at: datetime | None
    extended: bool
    rules: scores.Rules
    zone: ZoneInfo


def _cell(lesson: Lesson, progress, runs, right, now: datetime, due: Due) -> Cell:
    runs_n, last_run = runs if runs else (0, None)
    points = scores.lesson_score(lesson, progress, right, due.at, due.rules)
    due_text = deadlines.shown(due.at, due.zone)
    if progress is None:
        return Cell(
            lesson_id=lesson.id,
            score=points.score,
            max_score=points.max_score,
            runs=runs_n,
            last=last_run,
            questions=len(lesson.questions),
            late=_late(due.at, None, now),
            due_at=due.at,
            extended=due.extended,
            due_text=due_text,
        )
    return Cell(
        solved=progress.solved_at is not None,
        solved_at=progress.solved_at,
        runs=runs_n,
        hints=progress.hints_revealed,
        solution_seen=progress.revealed_at is not None,
        questions_right=progress.right,
        questions=len(lesson.questions),
        last=_later(progress.updated_at, last_run),
        late=_late(due.at, progress.solved_at, now),
        lesson_id=lesson.id,
        score=points.score,
        max_score=points.max_score,
        due_at=due.at,
        extended=due.extended,
        due_text=due_text,
    )


def _extensions(room: Classroom) -> dict[tuple[int, str], datetime]:
    found = Extension.objects.filter(class_lesson__classroom=room)
    return {
        (user_id, uuid): at
        for user_id, uuid, at in found.values_list("user_id", "class_lesson__lesson_uuid", "due_at")
    }


def roster(room: Classroom, sort: str = "name", now: datetime | None = None) -> Roster:
    now = now or timezone.now()
    zone, rules = deadlines.room_zone(room), scores.room_rules(room)
    extended = _extensions(room)
    lessons = class_lessons(room)
    uuids = [lesson.uuid for lesson, _ in lessons]
    members = list(room.members.select_related("user"))
    user_ids = [m.user_id for m in members]
    progress = {
        (p.user_id, p.lesson_uuid): p
        for p in LessonProgress.objects.filter(
            user_id__in=user_ids, lesson_uuid__in=uuids
        ).annotate(right=Count("answers", filter=Q(answers__correct=True)))
    }
    right = scores.first_right([p.pk for p in progress.values()])
    runs = {
        (a["user_id"], a["lesson_uuid"]): (a["n"], a["last"])
        for a in Attempt.objects.filter(user_id__in=user_ids, lesson_uuid__in=uuids)
        .values("user_id", "lesson_uuid")
        .annotate(n=Count("id"), last=Max("created_at"))
    }
    rows = []
    for m in members:
        row = Row(
            m.user.get_username(),
            m.joined_at,
            left=m.left_at is not None,
            name=display_name(m.user),
        )
        for lesson, cl in lessons:
            key = (m.user_id, lesson.uuid)
            found = progress.get(key)
            got = right.get(found.pk, {}) if found else {}
            own = extended.get(key)
            due = Due(own or cl.due_at, own is not None, rules, zone)
            row.cells.append(_cell(lesson, found, runs.get(key), got, now, due))
        rows.append(row)
    columns = [
        Column(
            lesson=lesson,
            due_at=cl.due_at,
            due_text=deadlines.shown(cl.due_at, zone),
            solved=sum(r.cells[i].solved for r in rows),
            runs=sum(r.cells[i].runs for r in rows),
        )
        for i, (lesson, cl) in enumerate(lessons)
    ]
    sort = sort if sort in SORTS else "name"
    _sort(rows, sort)
    return Roster(room=room, columns=columns, rows=rows, sort=sort, zone=zone, rules=rules)


def _sort(rows: list[Row], sort: str) -> None:
    rows.sort(key=lambda r: (r.name.casefold(), r.username.casefold()))
    if sort == "solved":
        rows.sort(key=lambda r: r.solved, reverse=True)
    elif sort == "runs":
        rows.sort(key=lambda r: r.runs, reverse=True)
    elif sort == "last":
        rows.sort(key=lambda r: r.last.timestamp() if r.last else 0.0, reverse=True)


CSV_HEADER = [
    "learner",
    "name",
    "lesson",
    "lesson_title",
    "due_on",
    "due",
    "extended",
    "solved",
    "solved_at",
    "runs",
    "hints",
    "solution_seen",
    "questions_right",
    "questions",
    "last_activity",
    "late",
    "score",
    "max_score",
    "left",
]


def _when(t: datetime | None) -> str:
    return t.isoformat() if t else ""


def _day(t: datetime | None, zone: ZoneInfo | None) -> str:
    """The day of a due time in the class's zone (the CSV's and the API's ``due_on``)."""
    return t.astimezone(zone).date().isoformat() if t else ""


def roster_csv(r: Roster) -> str:
    rows = [
        [
            safe(row.username),
            safe(row.name),
            col.lesson.id,
            safe(col.lesson.title),
            _day(c.due_at, r.zone),
            c.due_text,
            int(c.extended),
            int(c.solved),
            when(c.solved_at),
            c.runs,
            c.hints,
            int(c.solution_seen),
            c.questions_right,
            c.questions,
            when(c.last),
            int(c.late),
            c.score,
            c.max_score,
            int(row.left),
        ]
        for row in r.rows
        for col, c in zip(r.columns, row.cells, strict=True)
    ]
    return csv_text(CSV_HEADER, rows)


def roster_json(r: Roster) -> dict:
    return {
        "id": r.room.pk,
        "name": r.room.name,
        "time_zone": (r.zone or deadlines.room_zone(r.room)).key,
        "late_policy": r.room.late_policy,
        "late_penalty": r.room.late_penalty,
        "weights": {"exercise": r.rules.exercise, "question": r.rules.question},
        "count_after_review": r.rules.after_review,
        "lessons": [
            {
                "id": c.lesson.id,
                "title": c.lesson.title,
                "due_on": _day(c.due_at, r.zone) or None,
                "due": deadlines.iso(c.due_at, r.zone or deadlines.room_zone(r.room)),
                "solved": c.solved,
            }
            for c in r.columns
        ],
        "learners": [
            {
                "username": row.username,
                "name": row.name,
                "joined_at": _when(row.joined_at),
                "left": row.left,
                "lessons": {
                    col.lesson.id: {
                        "solved": c.solved,
                        "solved_at": _when(c.solved_at) or None,
                        "runs": c.runs,
                        "hints": c.hints,
                        "solution_seen": c.solution_seen,
                        "questions_right": c.questions_right,
                        "questions": c.questions,
                        "last_activity": _when(c.last) or None,
                        "late": c.late,
                        "due": deadlines.iso(c.due_at, r.zone or deadlines.room_zone(r.room)),
                        "extended": c.extended,
                        "score": c.score,
                        "max_score": c.max_score,
                    }
                    for col, c in zip(r.columns, row.cells, strict=True)
                },
            }
            for row in r.rows
        ],
    }


def progress_download(room: Classroom) -> HttpResponse:
    """The roster as CSV (the class page's and the API's download)."""
    return csv_response(roster_csv(roster(room)), f"class-{room.pk}-progress.csv")
