"""The progress page's personal tokens: make one (shown once), revoke one. Only a signed-in
learner has tokens; each acts on that learner's own progress (``codeblanks.web.tokens``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from codeblanks.web import selectors, tokens
from codeblanks.web.learners import learner_from_request


@login_required
@require_POST
def token_create(request):
    made = tokens.token_create(user_id=request.user.pk, name=request.POST.get("name", ""))
    context = {
        "summary": selectors.progress_summary(learner_from_request(request)),
        "tokens": tokens.token_list(user_id=request.user.pk),
    }
    if made is None:
        context["token_error"] = _(
            "You have %(count)s tokens already: revoke one you no longer use first."
        ) % {"count": tokens.MAX_TOKENS}
    else:
        context["new_token"] = made[1]  # shown this once, never stored in clear
    return render(request, "codeblanks/progress.html", context, status=200 if made else 422)


@login_required
@require_POST
def token_revoke(request, token_id: int):
    tokens.token_revoke(user_id=request.user.pk, token_id=token_id)
    return redirect("progress")
