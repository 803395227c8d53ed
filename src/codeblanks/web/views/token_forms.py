"""The progress page's token forms: make a personal API token (shown once), revoke one. Only a
signed-in learner has tokens; each acts on that learner's own progress
(``codeblanks.web.learner.api_tokens``)."""

from __future__ import annotations

import secrets

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from codeblanks.web.learner import api_tokens
from codeblanks.web.learner.learners import learner_from_request
from codeblanks.web.pages import selectors

FORM_KEY = "token-form-once"


def form_once(request) -> str:
    """A fresh one-time value for the make-a-token form, kept in the session: a form posted
    again with a value already used (the browser's reload of the page that showed the new
    token) makes no second token."""
    once = secrets.token_urlsafe(16)
    request.session[FORM_KEY] = once
    return once


@login_required
@require_POST
def token_create(request):
    sent = request.POST.get("once")
    if sent is not None and sent != request.session.pop(FORM_KEY, None):
        return redirect(reverse("progress") + "#tokens-head")  # posted again: made already
    made = api_tokens.token_create(user_id=request.user.pk, name=request.POST.get("name", ""))
    context = {
        "summary": selectors.progress_summary(learner_from_request(request)),
        "tokens": api_tokens.token_list(user_id=request.user.pk),
        "token_form_once": form_once(request),
    }
    if made is None:
        context["token_error"] = _(
            "You have %(count)s tokens already: revoke one you no longer use first."
        ) % {"count": api_tokens.MAX_TOKENS}
    else:
        context["new_token"] = made[1]  # shown this once, never stored in clear
    return render(request, "codeblanks/progress.html", context, status=200 if made else 422)


@login_required
@require_POST
def token_revoke(request, token_id: int):
    api_tokens.token_revoke(user_id=request.user.pk, token_id=token_id)
    return redirect("progress")
