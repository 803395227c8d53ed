"""The classes in the JSON API (docs/api.md, "Classes"), with a personal token only: a
teacher makes a class and reads its progress, a learner joins one by its code. The same calls
as the pages (``classes``, ``roster``); errors are ``{"error", "message"}`` in words."""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from codeblanks.web import tokens
from codeblanks.web.teaching import classes, exports, work
from codeblanks.web.teaching.roster import roster, roster_json
from codeblanks.web.views.api import error, json_body, method_refusal, refusal_error, refused
from codeblanks.web.views.common import absolute_url, client_address


def _user(request):
    """The token's user, or the 401 answer (these endpoints are never anonymous)."""
    who = tokens.bearer_learner(request.headers.get("Authorization", ""))
    if who.refusal:
        return refused(who)
    if who.learner is None:
        return error(401, "no-token", _("Send 'Authorization: Bearer <your personal token>'."))
    return get_user_model().objects.get(pk=who.learner.user_id)


def _plan(data) -> classes.Plan:
    example = '{"name": "Class 7B", "lessons": ["arrays-and-shapes"], "due": {}}'
    if not isinstance(data, dict):
        raise classes.ClassError(_("Send a JSON object: %(example)s.") % {"example": example})
    name, lessons, due = data.get("name"), data.get("lessons"), data.get("due", {})
    if not isinstance(name, str):
        raise classes.ClassError(_('"name" must be a string.'))
    if not isinstance(lessons, list) or not all(isinstance(x, str) for x in lessons):
        raise classes.ClassError(_('"lessons" must be a list of lesson ids.'))
    if not isinstance(due, dict) or not all(isinstance(v, str) for v in due.values()):
        raise classes.ClassError(_('"due" must map lesson ids to dates (YYYY-MM-DD).'))
    try:
        dates = {k: date.fromisoformat(v) for k, v in due.items()}
    except ValueError:
        raise classes.ClassError(_('"due" must map lesson ids to dates (YYYY-MM-DD).')) from None
    return classes.Plan(name=name, lessons=tuple(lessons), due=dates)


def _room_json(request, room) -> dict:
    link = absolute_url(request, reverse("class-join-link", args=[room.join_token]))
    return {
        "id": room.pk,
        "name": room.name,
        "join_code": classes.shown_code(room.join_code),
        "join_url": link,
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


def _taught(request, room_id: int):
    user = _user(request)
    if isinstance(user, JsonResponse):
        return user
    room = classes.class_for_teacher(user, room_id)
    if room is None:  # not theirs and not there are one answer: nothing is told
        return error(404, "no-such-class", _("You teach no class %(id)s.") % {"id": room_id})
    return room


CHANGE_EXAMPLE = '{"rotate_code": true} or {"lessons": ["arrays-and-shapes"], "due": {}}'


def _change(room, data) -> None:
    """Apply a PATCH body to the class, or ``ClassError`` saying what is wrong with it."""
    if not isinstance(data, dict) or not data or set(data) - {"rotate_code", "lessons", "due"}:
        raise classes.ClassError(
            _("Send a JSON object: %(example)s.") % {"example": CHANGE_EXAMPLE}
        )
    rotate = data.get("rotate_code", False)
    if not isinstance(rotate, bool):
        raise classes.ClassError(_('"rotate_code" must be true or false.'))
    if "due" in data and "lessons" not in data:
        raise classes.ClassError(_('Send "due" with the class\'s "lessons".'))
    if "lessons" in data:
        plan = _plan({"name": room.name, "lessons": data["lessons"], "due": data.get("due", {})})
        classes.class_set_lessons(room, plan.lessons, plan.due)
    if rotate:
        classes.class_rotate_code(room)


@csrf_exempt
def change(request, room_id: int):
    """PATCH /api/classes/<id> ``{"rotate_code": true}``, ``{"lessons": [ids], "due": {}}``:
    answers the class as POST /api/classes does."""
    if bad := method_refusal(request, "PATCH"):
        return bad
    room = _taught(request, room_id)
    if isinstance(room, JsonResponse):
        return room
    data = json_body(request, CHANGE_EXAMPLE)
    if isinstance(data, JsonResponse):
        return data
    try:
        _change(room, data)
    except classes.ClassError as exc:
        return error(400, "bad-class", str(exc))
    return JsonResponse(_room_json(request, room))


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
    return exports.progress(room)


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
