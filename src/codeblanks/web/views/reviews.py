"""The review queue (``web/learner/reviews.py``): the page that asks the cards due today one at a
time, and its API (``GET /api/review``, ``POST /api/review/<card id>``). Each door parses, makes one
``Tutor.answer`` call (``keep=False``: a review never changes the lesson's answer) and one
card update, and renders."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from codeblanks.content.public import question_public
from codeblanks.learning.answers import Form, Given
from codeblanks.web.door.addresses import client_address
from codeblanks.web.learner import reviews, store
from codeblanks.web.learner.learners import Learner
from codeblanks.web.pages.question_display import question_view
from codeblanks.web.views.api import (
    bearer,
    error,
    json_body,
    method_refusal,
    refusal_error,
    refused,
)

PAGE = "codeblanks/review_queue.html"
CARD = "codeblanks/partials/review_card.html"


def _queue(request) -> dict:
    """The page's context: the cards due today, the one to ask now (if any)."""
    if not request.user.is_authenticated:
        return {}
    cards = reviews.due_today(request.user.pk)
    ready = [c for c in cards if c.now]
    later = [c for c in cards if not c.now]
    context: dict = {"due": len(cards), "later": len(later)}
    if later:
        context["next_at"] = later[0].due
    if ready:
        seed = Learner(user_id=request.user.pk).seed
        context["card"] = ready[0]
        context["q"] = question_view(ready[0].question, 1, seed=seed)
    return context


@require_safe
def review_queue(request):
    return render(request, PAGE, _queue(request))


@require_POST
async def review_answer(request, card_id: int):
    user = await request.auser()
    if not user.is_authenticated:
        raise Http404("Reviews are kept for signed-in learners.")
    card = await sync_to_async(reviews.card_get)(user.pk, card_id)
    if card is None:
        raise Http404("No such card.")
    learner = Learner(user_id=user.pk)
    client = client_address(request)
    outcome = await store.tutor_for(learner).answer(
        card.lesson, card.question, Form(request.POST), client, store.answer_quota(client),
        keep=False,
    )  # fmt: skip
    seed, status, context = learner.seed, 200, {"card": card, "review": True}
    if outcome.bad or outcome.refusal is not None:
        refusal = outcome.refusal
        message = refusal.message if refusal is not None else outcome.bad
        status = refusal.status if refusal is not None else 422
        context["q"] = question_view(card.question, 1, seed=seed, message=message, error=True)
    else:
        context["next_due"] = await sync_to_async(reviews.card_answer)(
            user_id=user.pk, card_id=card.id, correct=outcome.correct
        )
        context["q"] = question_view(card.question, 1, seed=seed, answer=outcome.answer,
                                     correct=outcome.correct, message=outcome.message)  # fmt: skip
        context["answered"] = True
    if request.htmx:
        return await sync_to_async(render)(request, CARD, context, status=status)

    def full_page():
        return render(request, PAGE, {**_queue(request), **context}, status=status)

    return await sync_to_async(full_page)()


# ---- the API ---------------------------------------------------------------------------------


def _card_json(card: reviews.Due, seed: str) -> dict:
    shown = question_public(card.question, seed)
    shown.pop("id")
    return {"id": card.id, "lesson": card.lesson.id, "lesson_title": card.lesson.title,
            "question": card.question.id, **shown, "due": card.due.isoformat(),
            "due_now": card.now}  # fmt: skip


async def _who(request):
    who = await bearer(request)
    if who.refusal:
        return refused(who)
    if who.learner is None or who.learner.user_id is None:
        return error(401, "no-token", _("Send 'Authorization: Bearer <your personal token>'."))
    return who


@csrf_exempt
async def api_queue(request):
    """``GET /api/review``: how many cards are due today and the cards, due ones first."""
    if bad := method_refusal(request, "GET"):
        return bad
    who = await _who(request)
    if isinstance(who, JsonResponse):
        return who
    cards = await sync_to_async(reviews.due_today)(who.learner.user_id)
    seed = who.learner.seed
    return JsonResponse({"due": len(cards), "cards": [_card_json(c, seed) for c in cards]})


@csrf_exempt
async def api_answer(request, card_id: str):
    """``POST /api/review/<card id>`` ``{"answer": …}``: judged as a lesson's question is."""
    if bad := method_refusal(request, "POST"):
        return bad
    who = await _who(request)
    if isinstance(who, JsonResponse):
        return who
    user_id = who.learner.user_id
    row = int(card_id) if card_id.isascii() and card_id.isdigit() and len(card_id) < 19 else 0
    card = await sync_to_async(reviews.card_get)(user_id, row) if row else None
    if card is None:
        return error(404, "no-such-card", _("You have no card %(card)s; see GET /api/review.")
                     % {"card": repr(card_id)})  # fmt: skip
    data = json_body(request, '{"answer": 0}')
    if isinstance(data, JsonResponse):
        return data
    given = Given(data.get("answer") if isinstance(data, dict) else None)
    client = client_address(request)
    outcome = await store.tutor_for(who.learner).answer(
        card.lesson, card.question, given, client, store.answer_quota(client), keep=False
    )
    if outcome.bad:
        return error(400, "bad-answer", outcome.bad)
    if outcome.refusal:
        return refusal_error(outcome.refusal)
    due = await sync_to_async(reviews.card_answer)(
        user_id=user_id, card_id=card.id, correct=outcome.correct
    )
    return JsonResponse({**outcome.to_json(card.question), "due": due.isoformat()})
