"""The classes' pages: the list (taught and joined, join by code), a new class, a class's
roster and its CSV, the join link, leaving. Parse → one call in ``classes``/``roster`` →
render; a class one does not teach is a 404, as if it did not exist."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from codeblanks.web.door.addresses import client_address
from codeblanks.web.learner import quotas
from codeblanks.web.pages import selectors
from codeblanks.web.teaching import analysis, classes, clusters, deadlines, lti_names, scores, work
from codeblanks.web.teaching import exports as exports_download
from codeblanks.web.teaching.charts import bar_chart
from codeblanks.web.teaching.models import LtiGrade
from codeblanks.web.teaching.regrade import regrade
from codeblanks.web.teaching.roster import progress_download, roster
from codeblanks.web.views.common import absolute_url


def _list(request, *, code_error: str = "", status: int = 200, **extra):
    context = {
        "teacher": classes.is_teacher(request.user),
        "taught": classes.classes_taught(request.user),
        "joined": classes.classes_joined(request.user),
        "code_error": code_error,
        **extra,
    }
    return render(request, "teaching/classes.html", context, status=status)


@login_required
@require_safe
def class_list(request):
    return _list(request)


def _due_dates(post, lesson_ids: list[str], zone: str) -> dict[str, datetime]:
    """The due times typed (a datetime-local box: 2030-01-31T17:00) in the class's zone."""
    return classes.due_times({x: post.get(f"due-{x}", "") for x in lesson_ids}, zone)


def _zones() -> list[str]:
    return sorted(zoneinfo.available_timezones())


def _points(text: str, default: int) -> int:
    """A box of points as typed: empty is ``default``; what is not a whole number is -1 (which
    ``classes.points_check`` refuses in words)."""
    text = text.strip()
    if not text:
        return default
    return int(text) if text.isascii() and text.isdigit() and len(text) < 4 else -1


def _scoring(post, room=None) -> dict:
    """The form's points and its "answers after review count" box, as ``classes.Plan``'s."""
    exercise, question = (room.exercise_points, room.question_points) if room else (1, 1)
    return {
        "exercise_points": _points(post.get("exercise_points", ""), exercise),
        "question_points": _points(post.get("question_points", ""), question),
        "count_after_review": post.get("count_after_review") == "yes",
    }


def _scoring_shown(post=None, room=None) -> dict:
    """What the form's points boxes show: what was typed, else the class's, else 1 and 1."""
    if post is not None:
        return {
            "exercise": post.get("exercise_points", ""),
            "question": post.get("question_points", ""),
            "after_review": post.get("count_after_review") == "yes",
        }
    if room is not None:
        return {
            "exercise": room.exercise_points,
            "question": room.question_points,
            "after_review": room.count_after_review,
        }
    return {"exercise": 1, "question": 1, "after_review": False}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def class_new(request):
    if not classes.is_teacher(request.user):
        raise Http404("Not a teacher.")
    error, chosen = "", []
    if request.method == "POST":
        chosen = request.POST.getlist("lessons")
        try:
            zone = request.POST.get("time_zone", "").strip()
            plan = classes.Plan(
                name=request.POST.get("name", ""),
                lessons=tuple(chosen),
                due=_due_dates(request.POST, chosen, zone),
                time_zone=zone,
                **_scoring(request.POST),
            )
            room = classes.class_create(request.user, plan)
        except classes.ClassError as exc:
            error = str(exc)
        else:
            return redirect("class-detail", room_id=room.pk)
    context = {
        "courses": _lesson_rows(chosen, {k: v for k, v in request.POST.items()}),
        "error": error,
        "name": request.POST.get("name", ""),
        "heading": _("New class"),
        "button": _("Make the class"),
        "zones": _zones(),
        "zone": request.POST.get("time_zone", "") or settings.TIME_ZONE,
        "points": _scoring_shown(request.POST if request.method == "POST" else None),
    }
    return render(request, "teaching/class_new.html", context, status=422 if error else 200)


def _lesson_rows(chosen: list[str], due: dict[str, str]) -> list:
    """Per course, per level, each lesson with whether it is ticked and its due box's text
    (``due`` maps ``due-<lesson id>`` to it, as the form posts it)."""
    ticked = set(chosen)
    return [
        (
            course,
            [
                (level, [(x, x.id in ticked, due.get(f"due-{x.id}", "")) for x in lessons])
                for level, lessons in selectors.course_levels(course)
            ],
        )
        for course in selectors.course_list()
    ]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def class_edit(request, room_id: int):
    """The class's name, lessons, due dates and points, changed in the form that made it."""
    room = _taught_or_404(request, room_id)
    error = ""
    if request.method == "POST":
        chosen = request.POST.getlist("lessons")
        name, due = request.POST.get("name", ""), dict(request.POST.items())
        zone = request.POST.get("time_zone", "").strip()
        points = _scoring_shown(request.POST)
        try:
            due_at = _due_dates(request.POST, chosen, zone)
            plan = classes.Plan(name, tuple(chosen), due_at, zone, **_scoring(request.POST, room))
            rescored = classes.class_edit(room, plan)
        except classes.ClassError as exc:
            error = str(exc)
        else:
            detail = reverse("class-detail", args=[room.pk])
            return redirect(detail + ("?rescored=1" if rescored else ""))
    else:
        points = _scoring_shown(room=room)
        current = classes.class_lessons(room)
        chosen, name, zone = [x.id for x, _ in current], room.name, room.time_zone
        shown = deadlines.room_zone(room)
        due = {
            f"due-{x.id}": cl.due_at.astimezone(shown).strftime("%Y-%m-%dT%H:%M")
            for x, cl in current
            if cl.due_at
        }
    context = {
        "courses": _lesson_rows(chosen, due),
        "error": error,
        "name": name,
        "heading": _("Edit the class"),
        "button": _("Save the class"),
        "zones": _zones(),
        "zone": zone or settings.TIME_ZONE,
        "points": points,
    }
    return render(request, "teaching/class_new.html", context, status=422 if error else 200)


def _taught_or_404(request, room_id: int):
    room = classes.class_for_teacher(request.user, room_id)
    if room is None:
        raise Http404("No such class of yours.")
    return room


@login_required
@require_safe
def class_detail(request, room_id: int):
    return _detail_page(request, _taught_or_404(request, room_id))


def _detail_page(
    request,
    room,
    *,
    teacher_error: str = "",
    status: int = 200,
    regraded=None,
    deadline_error: str = "",
    names_synced: list[str] | None = None,
):
    table = roster(room, request.GET.get("sort", "name"))
    rescored = request.GET.get("rescored") == "1"  # the rules changed: say what follows
    link = absolute_url(request, reverse("class-join-link", args=[room.join_token]))
    sorts = [
        ("name", _("name")),
        ("solved", _("lessons solved")),
        ("runs", _("runs")),
        ("last", _("last activity")),
    ]
    context = {
        "r": table,
        "code": classes.shown_code(room.join_code),
        "link": link,
        "sorts": sorts,
        "teachers": classes.class_teachers(room),
        "owner": room.teacher_id == request.user.pk,
        "teacher_error": teacher_error,
        "teacher_added": request.GET.get("added", ""),
        "teacher_removed": request.GET.get("removed", ""),
        "regraded": regraded,
        "deadline_error": deadline_error,
        "rules": scores.described(table.rules),
        "rescored": rescored,
        "lms": rescored and LtiGrade.objects.filter(classroom=room).exists(),
        "lms_rosters": list(room.lti_rosters.all()),
        "names_synced": names_synced,
    }
    return render(request, "teaching/class_detail.html", context, status=status)


@login_required
@require_safe
def class_csv(request, room_id: int):
    room = _taught_or_404(request, room_id)
    return progress_download(room)


@login_required
@require_safe
def class_answers_csv(request, room_id: int):
    room = _taught_or_404(request, room_id)
    return exports_download.answers(room)


@login_required
@require_safe
def class_submissions_zip(request, room_id: int):
    room = _taught_or_404(request, room_id)
    return exports_download.submissions(room)


@require_http_methods(["GET", "HEAD", "POST"])
def class_join_link(request, token: str):
    """The join link: shows the class and a Join button (joining is a POST, never a GET, so a
    link in an e-mail or a preview cannot join anyone). Signed out: sign in or up first; the
    progress kept in this browser goes to the account then."""
    room = classes.class_by_token(token)
    if room is None:
        raise Http404("No class has this link.")
    if request.method == "POST" and request.user.is_authenticated:
        return _join(request, room)
    return render(request, "teaching/join.html", {"room": room})


def _join(request, room):
    try:
        classes.class_join(request.user, room)
    except classes.ClassError as exc:
        return _list(request, code_error=str(exc), status=422)
    return redirect(reverse("classes") + f"?joined={room.pk}")


@login_required
@require_POST
def class_join_code(request):
    if refusal := classes.join_refusal(request.user, client_address(request)):
        response = _list(request, code_error=refusal.message, status=429)
        for name, value in quotas.headers(refusal).items():
            response[name] = value
        return response
    room = classes.class_by_code(request.POST.get("code", ""))
    if room is None:
        message = _("No class has this code. Check it with your teacher (it looks like ABCD-2345).")
        return _list(request, code_error=message, status=422)
    return _join(request, room)


@login_required
@require_POST
def class_rotate(request, room_id: int):
    classes.class_rotate_code(_taught_or_404(request, room_id))
    return redirect("class-detail", room_id=room_id)


@login_required
@require_POST
def class_remove(request, room_id: int):
    """Remove a learner (kept in the roster as "left"); an unknown name changes nothing."""
    classes.class_remove(_taught_or_404(request, room_id), request.POST.get("username", ""))
    return redirect("class-detail", room_id=room_id)


@login_required
@require_POST
def class_add_teacher(request, room_id: int):
    """Add a co-teacher by username; a wrong name shows the class again with why."""
    room = _taught_or_404(request, room_id)
    username = request.POST.get("username", "").strip()
    try:
        classes.class_add_teacher(room, username)
    except classes.ClassError as exc:
        return _detail_page(request, room, teacher_error=str(exc), status=422)
    return redirect(reverse("class-detail", args=[room_id]) + "?" + urlencode({"added": username}))


@login_required
@require_POST
def class_remove_teacher(request, room_id: int):
    """The owner takes a co-teacher off the class; a co-teacher is told, in words, that only
    the owner can (403); a wrong name shows the class again with why."""
    room = _taught_or_404(request, room_id)
    username = request.POST.get("username", "").strip()
    if room.teacher_id != request.user.pk:
        message = _("Only the class's owner removes a co-teacher.")
        return _detail_page(request, room, teacher_error=message, status=403)
    try:
        classes.class_remove_teacher(room, username)
    except classes.ClassError as exc:
        return _detail_page(request, room, teacher_error=str(exc), status=422)
    query = urlencode({"removed": username})
    return redirect(reverse("class-detail", args=[room_id]) + "?" + query)


@login_required
@require_POST
def class_policy(request, room_id: int):
    """The class's late policy (accept, penalty with its percent, close)."""
    room = _taught_or_404(request, room_id)
    text = request.POST.get("late_penalty", "").strip()
    before = (room.late_policy, room.late_penalty)
    try:
        digits = text.isascii() and text.isdigit() and len(text) < 4
        penalty = int(text) if digits else (0 if not text else -1)
        classes.class_set_policy(room, request.POST.get("late_policy", ""), penalty)
    except classes.ClassError as exc:
        return _detail_page(request, room, deadline_error=str(exc), status=422)
    changed = (room.late_policy, room.late_penalty) != before
    return redirect(reverse("class-detail", args=[room_id]) + ("?rescored=1" if changed else ""))


@login_required
@require_POST
def class_extend(request, room_id: int):
    """A learner's own due time for one lesson (the datetime-local box, in the class's zone)."""
    room = _taught_or_404(request, room_id)
    try:
        due = deadlines.parse_due(request.POST.get("due", ""), deadlines.room_zone(room))
        classes.class_extend(
            room, request.POST.get("username", ""), request.POST.get("lesson", ""), due
        )
    except (deadlines.DueError, classes.ClassError) as exc:
        return _detail_page(request, room, deadline_error=str(exc), status=422)
    return redirect("class-detail", room_id=room_id)


@login_required
@require_POST
def class_unextend(request, room_id: int):
    """Take a learner's extension away (the lesson's own due time is theirs again)."""
    room = _taught_or_404(request, room_id)
    username, lesson_id = request.POST.get("username", ""), request.POST.get("lesson", "")
    if not classes.class_unextend(room, username, lesson_id):
        message = _("%(name)s has no extension in the lesson %(lesson)s.")
        found = {"name": repr(username), "lesson": repr(lesson_id)}
        return _detail_page(request, room, deadline_error=message % found, status=422)
    return redirect("class-detail", room_id=room_id)


@login_required
@require_POST
def class_regrade(request, room_id: int):
    """Grade the class's last programs again (teaching/regrade.py); the page shows who changed."""
    room = _taught_or_404(request, room_id)
    report = regrade(room, lower=request.POST.get("lower") == "yes")
    return _detail_page(request, room, regraded=report)


@login_required
@require_POST
def class_sync_names(request, room_id: int):
    """Read the learners' names from the LMS the class was launched from (NRPS) now; the page
    says what could not be read."""
    room = _taught_or_404(request, room_id)
    return _detail_page(request, room, names_synced=lti_names.sync_class(room))


@login_required
@require_POST
def class_leave(request, room_id: int):
    classes.class_leave(request.user, room_id)
    return redirect("classes")


def _first_line(code: str) -> str:
    """A program named in a chart by its first line that says something."""
    lines = [x for x in code.splitlines() if x.strip() and not x.lstrip().startswith("#")]
    return lines[0].strip() if lines else _("(too long to keep)")


def _analysis_page(request, lesson, users, scope: str, room=None):
    found = analysis.lesson_analysis(lesson, users)
    charts = {
        "cases": bar_chart(_("Failing runs per case"), found.cases),
        "mistakes": bar_chart(
            _("Runs that matched each anticipated mistake"), [(f, n) for f, _, n in found.mistakes]
        ),
        "unmatched": bar_chart(
            _("Runs of each wrong program that matched no mistake"),
            [(_first_line(code), n) for code, n in found.unmatched],
        ),
        "questions": [
            (q, bar_chart(_("Most common wrong answers"), q.wrong)) for q in found.questions
        ],
    }
    where = "site" if room is None else f"class:{room.pk}"
    groups = clusters.for_page(lesson, users, where)  # never waits: computed in the background
    context = {"a": found, "charts": charts, "scope": scope, "room": room, "groups": groups}
    return render(request, "teaching/analysis.html", context)


@login_required
@require_safe
def class_analysis(request, room_id: int, lesson_id: str):
    """One lesson's item analysis across one class (its teacher only)."""
    room = _taught_or_404(request, room_id)
    lesson = next((x for x, _ in classes.class_lessons(room) if x.id == lesson_id), None)
    if lesson is None:
        raise Http404("The class does not cover this lesson.")
    users = list(room.members.values_list("user_id", flat=True))
    return _analysis_page(request, lesson, users, "class", room)


@login_required
@require_safe
def class_learner_work(request, room_id: int, username: str, lesson_id: str):
    """One learner's runs and answers in one lesson of the class (its teacher only)."""
    room = _taught_or_404(request, room_id)
    found = work.learner_work(room, username, lesson_id)
    if found is None:
        raise Http404("No such learner in the class, or lesson in it.")
    return render(request, "teaching/learner_work.html", {"w": found})


@login_required
@require_safe
def site_analysis(request, lesson_id: str):
    """One lesson's item analysis across the whole site: for staff (the authors' view)."""
    lesson = selectors.lesson_get(lesson_id)
    if lesson is None or not request.user.is_staff:
        raise Http404("No such lesson, or not staff.")
    return _analysis_page(request, lesson, None, "site")


@login_required
@require_POST
def class_delete(request, room_id: int):
    """Delete one's class: its roster and memberships go; each learner keeps their progress."""
    room = _taught_or_404(request, room_id)
    if room.teacher_id != request.user.pk:
        raise PermissionDenied("Only the class's owner deletes it.")
    if request.POST.get("confirm") != "yes":
        return redirect("class-detail", room_id=room.pk)
    room.delete()
    return redirect("classes")
