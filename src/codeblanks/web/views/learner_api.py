"""The learner's endpoints of the JSON API (docs/api.md, "The learner's endpoints"): what
``codeblanks learn`` needs to take a lesson outside the browser. Without a token they answer as
for anyone and keep nothing; with ``Authorization: Bearer <personal token>`` they act for that
learner exactly as the web pages do (saved code, attempts, reveals, answers), on the learner's
own progress only. A bad token is 401 in words, never silently anonymous."""

from __future__ import annotations

import functools

from asgiref.sync import sync_to_async
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from codeblanks.content.public import lesson_public
from codeblanks.learning.answers import Given, question_get
from codeblanks.web.door.addresses import client_address
from codeblanks.web.learner import drafts, store
from codeblanks.web.pages import selectors
from codeblanks.web.views.api import (
    bearer,
    error,
    json_body,
    method_refusal,
    refusal_error,
    refused,
)

MAX_HINT_NUMBER = 9999  # a number, not 5,000 digits


def no_lesson(lesson_id: str) -> JsonResponse:
    message = _("There is no lesson %(lesson)s; see GET /api/lessons.")
    return error(404, "no-such-lesson", message % {"lesson": repr(lesson_id)})


@csrf_exempt
async def me(request):
    if bad := method_refusal(request, "GET"):
        return bad
    who = await bearer(request)
    if who.refusal:
        return refused(who)
    if who.learner is None:
        return error(401, "no-token", _("Send 'Authorization: Bearer <your personal token>'."))
    return JsonResponse({"username": who.username})


def learner_endpoint(method: str):
    """What every learner endpoint does first: the method, the lesson (404 in words), the
    token (401 in words); the view gets ``(request, lesson, who, **kwargs)``."""

    def wrap(view):
        @csrf_exempt
        @functools.wraps(view)
        async def endpoint(request, lesson_id: str, **kwargs):
            if bad := method_refusal(request, method):
                return bad
            found = selectors.lesson_get(lesson_id)
            if found is None:
                return no_lesson(lesson_id)
            who = await bearer(request)
            if who.refusal:
                return refused(who)
            return await view(request, found, who, **kwargs)

        return endpoint

    return wrap


def _seed(who) -> str:
    """What orders the choices this caller is shown (``Learner.seed``; no token: one order for
    everyone without one)."""
    return who.learner.seed if who.learner is not None else ""


@learner_endpoint("GET")
async def lesson(request, found, who):
    course = selectors.course_get(found.course_id)
    shown = lesson_public(found, _seed(who), course)
    if who.learner is not None:  # the unrun draft, while newer than the last run's code
        draft = await sync_to_async(drafts.draft_get)(who.learner, found)
        shown["draft"] = (
            {"code": draft.code, "saved_at": draft.saved_at.isoformat()} if draft else None
        )
    return JsonResponse(shown)


@learner_endpoint("POST")
async def hint(request, found, who):
    """Hint number N (from 1) of the exercise: ``{"number": N}``; past the last, ``"text"`` is
    null (and nothing is recorded), as everywhere (codeblanks.learning.tutor)."""
    data = json_body(request, '{"number": 1}')
    if isinstance(data, JsonResponse):
        return data
    number = data.get("number") if isinstance(data, dict) else None
    if type(number) is not int or not 1 <= number <= MAX_HINT_NUMBER:
        message = _('"number" must be a whole number from 1 (the first hint).')
        return error(400, "bad-number", message)
    shown = await store.tutor_for(who.learner).hint(found, number)
    return JsonResponse(shown.to_json())


@learner_endpoint("POST")
async def solution(request, found, who):
    filename, text = await store.tutor_for(who.learner).reveal_solution(found)
    return JsonResponse({"filename": filename, "solution": text})


@learner_endpoint("GET")
async def review(request, found, who):
    if who.learner is not None:  # answers given after this earn no points (teaching/scores.py)
        await sync_to_async(store.review_record)(learner=who.learner, lesson=found)
    return JsonResponse({"questions": store.tutor_for(who.learner).review(found)})


@learner_endpoint("POST")
async def answer(request, found, who, question_id: str):
    question = question_get(found.questions, question_id)
    if question is None:
        message = _("Lesson %(lesson)s has no %(question)s.")
        return error(
            404,
            "no-such-question",
            message % {"lesson": repr(found.id), "question": repr(question_id)},
        )
    data = json_body(request, '{"answer": 0}')
    if isinstance(data, JsonResponse):
        return data
    given = Given(data.get("answer") if isinstance(data, dict) else None)
    client = client_address(request)
    outcome = await store.tutor_for(who.learner).answer(
        found, question, given, client, store.answer_quota(client)
    )
    if outcome.bad:
        return error(400, "bad-answer", outcome.bad)
    if outcome.refusal:
        return refusal_error(outcome.refusal)
    return JsonResponse(outcome.to_json(question))
