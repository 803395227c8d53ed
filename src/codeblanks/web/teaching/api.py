"""The classes in the JSON API (docs/api.md, "Classes"), with a personal token only: a
teacher makes a class and reads its progress, a learner joins one by its code. The same calls
as the pages (``classes``, ``roster``); errors are ``{"error", "message"}`` in words."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from codeblanks.web.door.addresses import client_address
from codeblanks.web.learner import api_tokens
from codeblanks.web.teaching import classes, deadlines, exports, work
from codeblanks.web.teaching import regrade as regrade_module
from codeblanks.web.teaching.roster import progress_download, roster, roster_json
from codeblanks.web.views.api import error, json_body, method_refusal, refusal_error, refused
from codeblanks.web.views.common import absolute_url


def _user(request):
    """The token's user, or the 401 answer (these endpoints are never anonymous)."""
    who = api_tokens.bearer_learner(request.headers.get("Authorization", ""))
    if who.refusal:
        return refused(who)
    if who.learner is None:
        return error(401, "no-token", _("Send 'Authorization: Bearer <your personal token>'."))
    return get_user_model().objects.get(pk=who.learner.user_id)


def _zone_name(data: dict, default: str) -> str:
    zone = data.get("time_zone", default)
    if not isinstance(zone, str):
        raise classes.ClassError(_('"time_zone" must be a time zone\'s name (Europe/Istanbul).'))
    return zone.strip()


WEIGHTS_EXAMPLE = '{"exercise": 3, "question": 1}'


def _scoring(data: dict, exercise: int = 1, question: int = 1, after: bool = False) -> tuple:
    """The body's ``weights`` (a part left out keeps ``exercise`` or ``question``) and
    ``count_after_review`` (else ``after``), their types checked (``classes.points_check``
    checks the numbers); or ``ClassError`` in words."""
    weights = data.get("weights", {})
    if not isinstance(weights, dict) or set(weights) - {"exercise", "question"}:
        message = _('"weights" must be a JSON object: %(example)s (whole numbers of points).')
        raise classes.ClassError(message % {"example": WEIGHTS_EXAMPLE})
    after = data.get("count_after_review", after)
    if not isinstance(after, bool):
        raise classes.ClassError(_('"count_after_review" must be true or false.'))
    return weights.get("exercise", exercise), weights.get("question", question), after


def _plan(data, zone_default: str = "") -> classes.Plan:
    example = '{"name": "Class 7B", "lessons": ["arrays-and-shapes"], "due": {}}'
    if not isinstance(data, dict):
        raise classes.ClassError(_("Send a JSON object: %(example)s.") % {"example": example})
    name, lessons, due = data.get("name"), data.get("lessons"), data.get("due", {})
    if not isinstance(name, str):
        raise classes.ClassError(_('"name" must be a string.'))
    if not isinstance(lessons, list) or not all(isinstance(x, str) for x in lessons):
        raise classes.ClassError(_('"lessons" must be a list of lesson ids.'))
    if not isinstance(due, dict) or not all(isinstance(v, str) for v in due.values()):
        raise classes.ClassError(
            _('"due" must map lesson ids to due times (YYYY-MM-DD HH:MM, or YYYY-MM-DD).')
        )
    zone = _zone_name(data, zone_default)
    times = classes.due_times(due, zone)
    exercise, question, after = _scoring(data)
    return classes.Plan(
        name=name,
        lessons=tuple(lessons),
        due=times,
        time_zone=zone,
        exercise_points=exercise,
        question_points=question,
        count_after_review=after,
    )


def _room_json(request, room) -> dict:
    link = absolute_url(request, reverse("class-join-link", args=[room.join_token]))
    return {
        "id": room.pk,
        "name": room.name,
        "join_code": classes.shown_code(room.join_code),
        "join_url": link,
        "teachers": classes.class_teachers(room),
        "time_zone": deadlines.room_zone(room).key,
        "late_policy": room.late_policy,
        "late_penalty": room.late_penalty,
        "weights": {"exercise": room.exercise_points, "question": room.question_points},
        "count_after_review": room.count_after_review,
    }


@csrf_exempt
def create(request):
    """POST /api/classes ``{"name", "lessons": [ids], "due": {id: "YYYY-MM-DD"}}`` → 201."""
    if bad := method_refusal(request, "POST"):
        return bad
    user = _user(request)
    if isinstance(user, JsonResponse):
        return user
    if not classes.is_teacher(user):
        return error(403, "not-a-teacher", _("Only a teacher can make a class."))
    data = json_body(request, '{"name": "Class 7B", "lessons": ["arrays-and-shapes"]}')
    if isinstance(data, JsonResponse):
        return data
    try:
        room = classes.class_create(user, _plan(data))
    except classes.ClassError as exc:
        return error(400, "bad-class", str(exc))
    return JsonResponse(_room_json(request, room), status=201)


@csrf_exempt
def join(request):
    """POST /api/classes/join ``{"code": "ABCD-2345"}``."""
    if bad := method_refusal(request, "POST"):
        return bad
    user = _user(request)
    if isinstance(user, JsonResponse):
        return user
    data = json_body(request, '{"code": "ABCD-2345"}')
    if isinstance(data, JsonResponse):
        return data
    code = data.get("code") if isinstance(data, dict) else None
    if not isinstance(code, str):
        return error(400, "missing-code", _('The JSON object needs a "code" string.'))
    if refusal := classes.join_refusal(user, client_address(request)):
        return refusal_error(refusal)
    room = classes.class_by_code(code)
    if room is None:
        return error(404, "no-such-class", _("No class has this code."))
    try:
        made = classes.class_join(user, room)
    except classes.ClassError as exc:
        return error(400, "bad-class", str(exc))
    return JsonResponse({"id": room.pk, "name": room.name, "joined": made})


def _taught(request, room_id: int, user=None):
    if user is None:
        user = _user(request)
    if isinstance(user, JsonResponse):
        return user
    room = classes.class_for_teacher(user, room_id)
    if room is None:  # not theirs and not there are one answer: nothing is told
        return error(404, "no-such-class", _("You teach no class %(id)s.") % {"id": room_id})
    return room


CHANGE_EXAMPLE = (
    '{"rotate_code": true}, {"lessons": ["arrays-and-shapes"], "due": {}}, '
    '{"weights": {"exercise": 3, "question": 1}} or {"add_teacher": "username"}'
)
CHANGES = {
    "rotate_code", "lessons", "due", "add_teacher", "remove_teacher", "time_zone",
    "late_policy", "late_penalty", "weights", "count_after_review",
}  # fmt: skip


@transaction.atomic  # all of it or none: a bad part undoes the others
def _change(room, data) -> None:
    """Apply a PATCH body to the class, or ``ClassError`` saying what is wrong with it."""
    if not isinstance(data, dict) or not data or set(data) - CHANGES:
        raise classes.ClassError(
            _("Send a JSON object: %(example)s.") % {"example": CHANGE_EXAMPLE}
        )
    rotate = data.get("rotate_code", False)
    if not isinstance(rotate, bool):
        raise classes.ClassError(_('"rotate_code" must be true or false.'))
    if "due" in data and "lessons" not in data:
        raise classes.ClassError(_('Send "due" with the class\'s "lessons".'))
    if "add_teacher" in data and not isinstance(data["add_teacher"], str):
        raise classes.ClassError(_('"add_teacher" must be a username.'))
    if "add_teacher" in data:
        classes.class_add_teacher(room, data["add_teacher"])
    if "remove_teacher" in data:
        if not isinstance(data["remove_teacher"], str):
            raise classes.ClassError(_('"remove_teacher" must be a username.'))
        classes.class_remove_teacher(room, data["remove_teacher"])
    zone = _zone_name(data, room.time_zone)
    if zone != room.time_zone:
        try:
            deadlines.zone_of(zone)
        except deadlines.DueError as exc:
            raise classes.ClassError(str(exc)) from None
        room.time_zone = zone
        room.save(update_fields=["time_zone"])
    if "lessons" in data:
        body = {"name": room.name, "lessons": data["lessons"], "due": data.get("due", {})}
        plan = _plan({**body, "time_zone": zone})
        classes.class_set_lessons(room, plan.lessons, plan.due)
    if "late_policy" in data or "late_penalty" in data:
        penalty = data.get("late_penalty")
        if penalty is not None and (isinstance(penalty, bool) or not isinstance(penalty, int)):
            raise classes.ClassError(_("A late penalty is a whole percent per day, from 1 to 100."))
        kind = data.get("late_policy", "penalty" if "late_penalty" in data else room.late_policy)
        classes.class_set_policy(room, kind if isinstance(kind, str) else "", penalty)
    if "weights" in data or "count_after_review" in data:
        now = (room.exercise_points, room.question_points, room.count_after_review)
        classes.class_set_scoring(room, *_scoring(data, *now))
    if rotate:
        classes.class_rotate_code(room)


@csrf_exempt
def change(request, room_id: int):
    """PATCH /api/classes/<id> ``{"rotate_code": true}``, ``{"lessons": [ids], "due": {}}``,
    ``{"add_teacher": "username"}``, ``{"remove_teacher": "username"}`` (its owner only),
    ``{"weights": {...}, "count_after_review": true}``:
    answers the class as POST /api/classes does."""
    if bad := method_refusal(request, "PATCH"):
        return bad
    user = _user(request)
    room = _taught(request, room_id, user)
    if isinstance(room, JsonResponse):
        return room
    data = json_body(request, CHANGE_EXAMPLE)
    if isinstance(data, JsonResponse):
        return data
    if isinstance(data, dict) and "remove_teacher" in data and room.teacher_id != user.pk:
        return error(403, "not-the-owner", _("Only the class's owner removes a co-teacher."))
    try:
        _change(room, data)
    except classes.ClassError as exc:
        return error(400, "bad-class", str(exc))
    return JsonResponse(_room_json(request, room))


EXTENSION_EXAMPLE = '{"username": "ada", "lesson": "arrays-and-shapes", "due": "2030-01-31 17:00"}'


@csrf_exempt
def extend(request, room_id: int):
    """POST /api/classes/<id>/extensions ``{"username", "lesson", "due"}``: the learner's own
    due time for the lesson (in the class's zone unless it has an offset) → 201."""
    if bad := method_refusal(request, "POST"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    data = json_body(request, EXTENSION_EXAMPLE)
    if isinstance(data, JsonResponse):
        return data
    keys = ("username", "lesson", "due")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in keys):
        message = _("Send a JSON object: %(example)s.") % {"example": EXTENSION_EXAMPLE}
        return error(400, "bad-extension", message)
    zone = deadlines.room_zone(room)
    try:
        due = deadlines.parse_due(data["due"], zone)
        found = classes.class_extend(room, data["username"], data["lesson"], due)
    except (deadlines.DueError, classes.ClassError) as exc:
        return error(400, "bad-extension", str(exc))
    body = {"username": data["username"], "lesson": data["lesson"],
            "due": deadlines.iso(found.due_at, zone)}  # fmt: skip
    return JsonResponse(body, status=201)


@csrf_exempt
def unextend(request, room_id: int, username: str, lesson_id: str):
    """DELETE /api/classes/<id>/extensions/<username>/<lesson>: the learner's extension taken
    away; answers the due time that is theirs again (the lesson's, or null)."""
    if bad := method_refusal(request, "DELETE"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    if not classes.class_unextend(room, username, lesson_id):
        message = _("%(name)s has no extension in the lesson %(lesson)s.")
        found = {"name": repr(username), "lesson": repr(lesson_id)}
        return error(404, "no-such-extension", message % found)
    due = next(cl.due_at for x, cl in classes.class_lessons(room) if x.id == lesson_id)
    body = {"username": username, "lesson": lesson_id, "extended": False,
            "due": deadlines.iso(due, deadlines.room_zone(room))}  # fmt: skip
    return JsonResponse(body)


@csrf_exempt
def remove_learner(request, room_id: int, username: str):
    """DELETE /api/classes/<id>/learners/<username>: kept in the roster as "left"."""
    if bad := method_refusal(request, "DELETE"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    if not classes.class_remove(room, username):
        message = _("The class has no learner %(name)s.") % {"name": repr(username)}
        return error(404, "no-such-learner", message)
    return JsonResponse({"username": username, "left": True})


def regrade_json(report: regrade_module.Report) -> dict:
    return {
        "programs": report.programs,
        "failed": report.failed,
        "changes": [
            {
                "username": c.username,
                "name": c.name,
                "lesson": c.lesson_id,
                "old": c.old,
                "new": c.new,
                "score_before": c.score_before,
                "score_after": c.score_after,
                "solve_kept": c.kept,
            }
            for c in report.changes
        ],
    }


@csrf_exempt
def regrade(request, room_id: int):
    """POST /api/classes/<id>/regrade ``{"lower": false}``: the last programs graded again."""
    if bad := method_refusal(request, "POST"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    data = json_body(request, '{"lower": false}') if request.body else {}
    if isinstance(data, JsonResponse):
        return data
    lower = data.get("lower", False) if isinstance(data, dict) else None
    if not isinstance(lower, bool):
        return error(400, "bad-regrade", _('Send a JSON object: %(example)s.')
                     % {"example": '{"lower": false}'})  # fmt: skip
    return JsonResponse(regrade_json(regrade_module.regrade(room, lower=lower)))


@csrf_exempt
def progress(request, room_id: int):
    if bad := method_refusal(request, "GET"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    return JsonResponse(roster_json(roster(room, request.GET.get("sort", "name"))))


@csrf_exempt
def progress_csv(request, room_id: int):
    if bad := method_refusal(request, "GET"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    return progress_download(room)


@csrf_exempt
def answers_csv(request, room_id: int):
    if bad := method_refusal(request, "GET"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    return exports.answers(room)


@csrf_exempt
def submissions_zip(request, room_id: int):
    if bad := method_refusal(request, "GET"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    return exports.submissions(room)


@csrf_exempt
def learner_work(request, room_id: int, username: str, lesson_id: str):
    """GET one learner's runs and answers in one lesson of the class (its teacher only)."""
    if bad := method_refusal(request, "GET"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    found = work.learner_work(room, username, lesson_id)
    if found is None:
        message = _("The class has no learner %(name)s, or does not cover the lesson %(lesson)s.")
        return error(
            404, "no-such-work", message % {"name": repr(username), "lesson": repr(lesson_id)}
        )
    return JsonResponse(work.work_json(found))
