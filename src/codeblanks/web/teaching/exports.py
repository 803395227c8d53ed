"""What a teacher downloads: CSV files a spreadsheet opens as they are (a UTF-8 byte order
mark, so Excel reads "Yazdırma" and "zoë"; times in ISO 8601 with a space, UTC, to the second,
which spreadsheets read as dates; no cell a spreadsheet runs as a formula), every answer given
in the class as CSV, and each learner's last program per lesson as a zip."""

from __future__ import annotations

import csv
import io
import re
import tempfile
import zipfile
from datetime import UTC, date, datetime

from django.db.models import Max
from django.http import FileResponse, HttpResponse

from codeblanks.web.models import Attempt
from codeblanks.web.teaching.analysis import answer_text
from codeblanks.web.teaching.classes import class_lessons, display_name
from codeblanks.web.teaching.models import AnswerEvent, Classroom

BOM = "\ufeff"


def when(t: datetime | date | None) -> str:
    """``2026-12-05 10:31:07`` (UTC) for a time, ``2026-12-05`` for a date, "" for none."""
    if t is None:
        return ""
    if isinstance(t, datetime):
        return t.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    return t.isoformat()


def safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (CSV injection: =, +, -, @ first)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_text(header: list[str], rows) -> str:
    """The CSV, with its byte order mark first."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


ANSWERS_HEADER = ["learner", "name", "lesson", "question", "prompt", "answer", "correct", "at"]


def answers_csv(room: Classroom) -> str:
    """Every answer the class's learners gave to the questions of its lessons, oldest first."""
    lessons = {lesson.uuid: lesson for lesson, _ in class_lessons(room)}
    users = room.members.values_list("user_id", flat=True)
    events = (
        AnswerEvent.objects.filter(progress__user_id__in=users, progress__lesson_uuid__in=lessons)
        .select_related("progress__user")
        .order_by("at", "id")
    )
    rows = []
    for e in events.iterator():
        lesson, who = lessons[e.progress.lesson_uuid], e.progress.user
        if who is None:  # a class's learners have accounts; an anonymous row is not theirs
            continue
        q = next((x for x in lesson.questions if x.id == e.question_id), None)
        shown = answer_text(q, e.answer) if q else str(e.answer)
        rows.append(
            [
                safe(who.get_username()),
                safe(display_name(who)),
                lesson.id,
                e.question_id,
                safe(q.prompt if q else ""),
                safe(shown),
                int(e.correct),
                when(e.at),
            ]
        )
    return csv_text(ANSWERS_HEADER, rows)


def _folder(username: str, taken: set[str]) -> str:
    """A folder name for the learner that stays inside the zip (no "..") and differs from the
    others even on a file system that ignores case."""
    name = re.sub(r"[^\w.@+-]", "_", username)
    if name.startswith("."):
        name = "_" + name
    base, n = name, 1
    while name.casefold() in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name.casefold())
    return name


INDEX_HEADER = ["learner", "lesson", "file", "verdict", "case", "at"]


def submissions_zip(room: Classroom):
    """A file (spooled to disk when large) holding one folder per learner with their last
    kept program of each lesson of the class, the verdict as its first line, and index.csv
    listing them all."""
    lessons = {lesson.uuid: lesson for lesson, _ in class_lessons(room)}
    members = sorted(room.members.select_related("user"), key=lambda m: m.user.get_username())
    last_ids = (
        Attempt.objects.filter(user_id__in=[m.user_id for m in members], lesson_uuid__in=lessons)
        .exclude(program="")
        .values("user_id", "lesson_uuid")
        .annotate(last=Max("id"))
        .values_list("last", flat=True)
    )
    last = {
        (a.user_id, a.lesson_uuid): a
        for a in Attempt.objects.filter(id__in=list(last_ids)).only(
            "user_id", "lesson_uuid", "verdict", "case", "program", "created_at"
        )
    }
    out = tempfile.SpooledTemporaryFile(max_size=8 * 1024 * 1024)  # noqa: SIM115 (returned)
    index: list[list] = []
    taken: set[str] = set()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for m in members:
            username = m.user.get_username()
            folder = _folder(username, taken)
            for uuid, lesson in lessons.items():
                a = last.get((m.user_id, uuid))
                if a is None:
                    continue
                name = f"{folder}/{lesson.id}/{lesson.exercise.filename}"
                shown = " ".join(a.case.split())  # one line: it heads a program
                case = f" (case: {shown})" if shown and shown != "visible" else ""
                head = f"# {a.verdict}{case}, {when(a.created_at)} UTC\n"
                z.writestr(name, head + a.program)
                index.append(
                    [safe(username), lesson.id, name, a.verdict, a.case, when(a.created_at)]
                )
        z.writestr("index.csv", csv_text(INDEX_HEADER, index))
    out.seek(0)
    return out


def csv_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def answers(room: Classroom) -> HttpResponse:
    return csv_response(answers_csv(room), f"class-{room.pk}-answers.csv")


def submissions(room: Classroom) -> FileResponse:
    name = f"class-{room.pk}-submissions.zip"
    return FileResponse(submissions_zip(room), as_attachment=True, filename=name)
