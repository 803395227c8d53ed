"""Where a learner's draft is kept (``web/learner/drafts.py``): the lesson page's script sends it
with the session and its CSRF token; the API with a personal token. Both answer JSON, every refusal
a 4xx in words."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from codeblanks.web.learner import drafts, quotas
from codeblanks.web.learner.learners import learner_from_request
from codeblanks.web.pages import selectors
from codeblanks.web.views.api import code_of, error, refusal_error
from codeblanks.web.views.learner_api import learner_endpoint, no_lesson


def _save(request, learner, lesson) -> JsonResponse:
    code = code_of(request)
    if isinstance(code, JsonResponse):
        return code
    saved = drafts.draft_save(learner=learner, lesson=lesson, code=code.replace("\r\n", "\n"))
    if isinstance(saved, quotas.Refusal):
        return refusal_error(saved)
    return JsonResponse({"saved_at": saved.isoformat()})


@require_http_methods(["PUT"])
def lesson_draft(request, lesson_id: str):
    """The page's own draft endpoint: a signed-in learner's session, CSRF checked as for any
    write (an anonymous visitor's drafts stay in their browser)."""
    lesson = selectors.lesson_get(lesson_id)
    if lesson is None:
        return no_lesson(lesson_id)
    learner = learner_from_request(request)
    if learner is None or learner.user_id is None:
        message = _("Sign in to keep drafts on the server; this browser keeps them meanwhile.")
        return error(403, "not-signed-in", message)
    return _save(request, learner, lesson)


@learner_endpoint("PUT")
async def api_draft(request, found, who):
    """``PUT /api/lessons/<id>/draft`` with a personal token (docs/api.md)."""
    if who.learner is None:
        return error(401, "no-token", _("Send 'Authorization: Bearer <your personal token>'."))
    return await sync_to_async(_save)(request, who.learner, found)
