"""The JSON API for programs (the CLI, scripts, other front ends); see docs/api.md.

It never uses a session or a CSRF token, so a browser's cookies cannot make it act for a
learner; only a personal token in ``Authorization: Bearer`` does (``api_tokens.py``), and without
one it writes nothing to the database. Every error is a JSON object
``{"error": <code>, "message": <words>}`` with a 4xx status; no input makes it answer 500.
"""

from __future__ import annotations

import json

from asgiref.sync import sync_to_async
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from codeblanks.content.public import reading_next
from codeblanks.web.door.addresses import client_address
from codeblanks.web.learner import api_tokens, quotas, store
from codeblanks.web.learner.progress import EMPTY, NOT_STARTED, progress_map
from codeblanks.web.pages import selectors
from codeblanks.web.views.common import absolute_url


def error(status: int, code: str, message: str, headers: dict | None = None) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=status, headers=headers)


def refusal_error(r) -> JsonResponse:
    """A quotas.Refusal as JSON, with its Retry-After."""
    return error(r.status, r.error, r.message, quotas.headers(r))


async def bearer(request) -> api_tokens.Bearer:
    """Who a personal token in ``Authorization`` says the caller is (docs/api.md)."""
    header = request.headers.get("Authorization", "")
    if not header:
        return api_tokens.Bearer()
    return await sync_to_async(api_tokens.bearer_learner)(header)


def refused(who: api_tokens.Bearer) -> JsonResponse:
    message = _("%(refusal)s Make a new one on your progress page.") % {"refusal": who.refusal}
    return error(401, "bad-token", message)


def method_refusal(request, allowed: str) -> JsonResponse | None:
    if request.method == allowed or (allowed == "GET" and request.method == "HEAD"):
        return None
    response = error(405, "method-not-allowed", _("Use %(method)s.") % {"method": allowed})
    response["Allow"] = allowed
    return response


def json_body(request, example: str):
    """The JSON value a request's body holds, or the error response (a ``JsonResponse``;
    ``example`` shows what to send)."""
    try:
        body = request.body
    except RequestDataTooBig:
        return error(413, "too-large", _("The request body is too large."))
    try:
        data = json.loads(body.decode("utf-8"))
    except RecursionError:  # nesting deeper than the parser's stack
        message = _("The JSON body is nested too deeply; send %(example)s.")
        return error(400, "bad-json", message % {"example": example})
    except (UnicodeDecodeError, ValueError):  # also a number too long for int()
        return error(
            400, "bad-json", _("The body must be JSON: %(example)s.") % {"example": example}
        )
    return data


def code_of(request) -> str | JsonResponse:
    """The ``code`` string of a JSON body ``{"code": "..."}``, or the error response."""
    data = json_body(request, '{"code": "print(1)"}')
    if isinstance(data, JsonResponse):
        return data
    if not isinstance(data, dict) or "code" not in data:
        return error(400, "missing-code", _('The JSON object needs a "code" member.'))
    if not isinstance(data["code"], str):
        return error(400, "bad-code", _('"code" must be a string.'))
    return data["code"]


def _lesson_json(request, lesson, course_title: str = "") -> dict:
    return {
        "id": lesson.id,
        "uuid": lesson.uuid,
        "course": lesson.course_id,
        "course_title": course_title or lesson.course_id,  # in the request's language
        "level": lesson.level,
        "level_name": lesson.level_name,
        "title": lesson.title,
        "summary": lesson.summary,
        "language": lesson.language,
        "filename": lesson.exercise.filename,
        "task": lesson.exercise.task_md,
        "starter": lesson.exercise.starter,
        "expected_output": lesson.exercise.expected_output
        if lesson.exercise.output_graded
        else None,
        "url": absolute_url(request, reverse("lesson", args=[lesson.id])),
        "grade_url": absolute_url(request, reverse("api-grade", args=[lesson.id])),
    }


@csrf_exempt
def lessons(request):
    """Every lesson; with a personal token, each with the learner's progress too."""
    if bad := method_refusal(request, "GET"):
        return bad
    served = selectors.lesson_list()
    titles = {course.id: course.title for course in selectors.course_list()}
    following = reading_next(selectors.course_list())
    rows = [
        {**_lesson_json(request, x, titles.get(x.course_id, "")), "next": following.get(x.id)}
        for x in served
    ]
    header = request.headers.get("Authorization", "")
    if header:
        who = api_tokens.bearer_learner(header)
        if who.refusal:
            return refused(who)
        progress = progress_map(who.learner)
        for row, lesson in zip(rows, served, strict=True):
            mine = progress.get(lesson.uuid, EMPTY)
            row["progress"] = {
                "solved": mine.solved,
                # begun (a run, code, an answer) but not solved: the web's "Tried"
                "tried": not mine.solved and mine.state(lesson) != NOT_STARTED,
                "revealed": mine.revealed,
                "questions_right": mine.questions_right(lesson),
                "questions": len(lesson.questions),
            }
    return JsonResponse({"lessons": rows})


def _answer(outcome) -> JsonResponse:
    if outcome.refusal:
        return refusal_error(outcome.refusal)
    return JsonResponse(outcome.result.to_json())


@csrf_exempt
async def run(request):
    if bad := method_refusal(request, "POST"):
        return bad
    code = code_of(request)
    if isinstance(code, JsonResponse):
        return code
    return _answer(await store.api_run(code=code, client=client_address(request)))


@csrf_exempt
async def grade(request, lesson_id: str):
    if bad := method_refusal(request, "POST"):
        return bad
    lesson = selectors.lesson_get(lesson_id)
    if lesson is None:
        message = _("There is no lesson %(lesson)s; see GET /api/lessons.")
        return error(404, "no-such-lesson", message % {"lesson": repr(lesson_id)})
    code = code_of(request)
    if isinstance(code, JsonResponse):
        return code
    who = await bearer(request)
    if who.refusal:
        return refused(who)
    client = client_address(request)
    # With a token, exactly what the lesson page's Run does: saved code, an attempt, progress;
    # without one, the same grade kept nowhere.
    quota = quotas.run_limits(client)
    ran = await store.tutor_for(who.learner).run(lesson, code, client, quota)
    if ran.refusal:
        return refusal_error(ran.refusal)
    assert ran.grade is not None  # a run the tutor did not refuse is graded
    return JsonResponse(ran.grade.to_json())


@csrf_exempt
def not_found(request, rest: str = ""):
    return error(404, "not-found", _("No such API endpoint; see docs/api.md."))
