"""The JSON API for programs (the CLI, scripts, other front ends); see docs/api.md.

It never uses a session or a CSRF token, so a browser's cookies cannot make it act for a
learner, and it writes nothing to the database. Every error is a JSON object
``{"error": <code>, "message": <words>}`` with a 4xx status; no input makes it answer 500.
"""

from __future__ import annotations

import json

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from codeblanks.web import selectors, services
from codeblanks.web.views.common import client_address


def error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=status)


def _method(request, allowed: str) -> JsonResponse | None:
    if request.method == allowed or (allowed == "GET" and request.method == "HEAD"):
        return None
    response = error(405, "method-not-allowed", f"Use {allowed}.")
    response["Allow"] = allowed
    return response


def _code(request) -> str | JsonResponse:
    """The ``code`` string of a JSON body ``{"code": "..."}``, or the error response."""
    try:
        body = request.body
    except RequestDataTooBig:
        return error(413, "too-large", "The request body is too large.")
    try:
        data = json.loads(body.decode("utf-8"))
    except RecursionError:  # nesting deeper than the parser's stack
        return error(
            400, "bad-json", 'The JSON body is nested too deeply; send {"code": "print(1)"}.'
        )
    except (UnicodeDecodeError, ValueError):  # also a number too long for int()
        return error(400, "bad-json", 'The body must be JSON: {"code": "print(1)"}.')
    if not isinstance(data, dict) or "code" not in data:
        return error(400, "missing-code", 'The JSON object needs a "code" member.')
    if not isinstance(data["code"], str):
        return error(400, "bad-code", '"code" must be a string.')
    return data["code"]


def _lesson_json(request, lesson) -> dict:
    return {
        "id": lesson.id,
        "uuid": lesson.uuid,
        "course": lesson.course_id,
        "level": lesson.level,
        "title": lesson.title,
        "summary": lesson.summary,
        "filename": lesson.exercise.filename,
        "task": lesson.exercise.task_md,
        "starter": lesson.exercise.starter,
        "expected_output": lesson.exercise.expected_output,
        "url": request.build_absolute_uri(reverse("lesson", args=[lesson.id])),
        "grade_url": request.build_absolute_uri(reverse("api-grade", args=[lesson.id])),
    }


@csrf_exempt
def lessons(request):
    if bad := _method(request, "GET"):
        return bad
    return JsonResponse({"lessons": [_lesson_json(request, x) for x in selectors.lesson_list()]})


def _answer(outcome) -> JsonResponse:
    if outcome.refusal:
        r = outcome.refusal
        return error(r.status, r.error, r.message)
    return JsonResponse(outcome.result.to_json())


@csrf_exempt
async def run(request):
    if bad := _method(request, "POST"):
        return bad
    code = _code(request)
    if isinstance(code, JsonResponse):
        return code
    return _answer(await services.api_run(code=code, client=client_address(request)))


@csrf_exempt
async def grade(request, lesson_id: str):
    if bad := _method(request, "POST"):
        return bad
    lesson = selectors.lesson_get(lesson_id)
    if lesson is None:
        return error(
            404, "no-such-lesson", f"There is no lesson {lesson_id!r}; see GET /api/lessons."
        )
    code = _code(request)
    if isinstance(code, JsonResponse):
        return code
    return _answer(
        await services.api_grade(lesson=lesson, code=code, client=client_address(request))
    )


@csrf_exempt
def not_found(request, rest: str = ""):
    return error(404, "not-found", "No such API endpoint; see docs/api.md.")
