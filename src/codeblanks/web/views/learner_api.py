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

from codeblanks.content.model import MatchQuestion
from codeblanks.content.public import choice_pick, lesson_public, match_picks, question_review
from codeblanks.web import selectors, services
from codeblanks.web.questions import BadAnswer, keepable, question_get
from codeblanks.web.views.api import (
    bearer,
    error,
    json_body,
    method_refusal,
    refusal_error,
    refused,
)
from codeblanks.web.views.common import client_address

MAX_BLANK_CHARS = 500


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
    return JsonResponse(lesson_public(found, _seed(who), course.title if course else ""))


@learner_endpoint("POST")
async def hint(request, found, who):
    """Hint number N (from 1) of the exercise: ``{"number": N}``."""
    data = json_body(request, '{"number": 1}')
    if isinstance(data, JsonResponse):
        return data
    number = data.get("number") if isinstance(data, dict) else None
    hints = found.exercise.hints
    if type(number) is not int or not 1 <= number <= max(len(hints), 1):
        message = _('"number" must be a whole number from 1 to %(last)s.')
        return error(400, "bad-number", message % {"last": len(hints)})
    if not hints:
        return JsonResponse({"number": number, "of": 0, "text": None})
    if who.learner is not None:
        await sync_to_async(services.hint_reveal)(learner=who.learner, lesson=found, count=number)
    return JsonResponse({"number": number, "of": len(hints), "text": hints[number - 1]})


@learner_endpoint("POST")
async def solution(request, found, who):
    if who.learner is not None:
        await sync_to_async(services.solution_reveal)(learner=who.learner, lesson=found)
    return JsonResponse({"filename": found.exercise.filename, "solution": found.exercise.solution})


@learner_endpoint("GET")
async def review(request, found, who):
    seed = _seed(who)
    return JsonResponse({"questions": [question_review(q, seed) for q in found.questions]})


def _answer(question, data, seed: str):
    """The answer as the web stores it, from the API's JSON. Raises ``BadAnswer`` saying what
    to send instead."""
    answer = data.get("answer") if isinstance(data, dict) else None
    if question.kind == "choice":
        if type(answer) is not int or not 0 <= answer < len(question.options):
            last = len(question.options) - 1
            raise BadAnswer(
                _('"answer" must be an option index from 0 to %(last)s.') % {"last": last}
            )
        return choice_pick(question, seed, answer)
    if question.kind == "blank":
        if not isinstance(answer, str) or not answer.strip():
            raise BadAnswer(_('"answer" must be the text that fills the blank.'))
        if len(answer) > MAX_BLANK_CHARS:
            raise BadAnswer(
                _("Keep the answer under %(count)s characters.") % {"count": MAX_BLANK_CHARS}
            )
        return keepable(answer.strip())
    count = len(question.pairs)
    if not (
        isinstance(answer, list)
        and len(answer) == count
        and all(type(i) is int and 0 <= i < count for i in answer)
    ):
        raise BadAnswer(
            _('"answer" must list, for each of the %(count)s terms, an index into "meanings".')
            % {"count": count}
        )
    return match_picks(question, answer)


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
    try:
        given = _answer(question, data, _seed(who))
    except BadAnswer as problem:
        return error(400, "bad-answer", str(problem))
    outcome = await services.question_answer(
        learner=who.learner,
        lesson=found,
        question=question,
        answer=given,
        client=client_address(request),
    )
    if outcome.refusal:
        return refusal_error(outcome.refusal)
    words = outcome.message or (_("Right.") if outcome.correct else _("Not quite."))
    body = {"correct": outcome.correct, "message": words, "explanation": question.explanation}
    if isinstance(question, MatchQuestion):
        body["per_term"] = list(outcome.per_term)
    return JsonResponse(body)
