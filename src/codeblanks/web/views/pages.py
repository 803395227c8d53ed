from __future__ import annotations

import sys
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import DisallowedHost, RequestDataTooBig
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.http import require_safe

from codeblanks.web.door import outages
from codeblanks.web.learner import api_tokens, reviews
from codeblanks.web.learner.learners import learner_from_request
from codeblanks.web.pages import selectors
from codeblanks.web.pages.coursemap import course_maps
from codeblanks.web.views import token_forms

# The courses the home page lists first, before the catalogue's order: the one for people who
# have never programmed, so a beginner meets it before the NumPy map (the learner trial's F12).
# The order of the lessons inside each course is the course's own, untouched.
HOME_FIRST = ("python-from-the-first-line",)


def _home_order(maps: list, working: bool) -> list:
    """A learner at work keeps the map of their course first (``course_maps``)."""
    return maps if working else sorted(maps, key=lambda m: m.course.id not in HOME_FIRST)


@require_safe
def home(request):
    learner = learner_from_request(request)
    overview, resume = selectors.course_overview(learner), selectors.resume_point(learner)
    context = {
        "resume": resume,
        "maps": _home_order(course_maps(overview, resume), resume is not None),
    }
    if request.user.is_authenticated:  # the review queue's count (web/learner/reviews.py)
        context["reviews_due"] = len(reviews.due_today(request.user.pk))
    return render(request, "codeblanks/home.html", context)


@require_safe
def level(request, course_id: str, level: str):
    course = selectors.course_get(course_id)
    name = selectors.level_get(course, level) if course else None
    if course is None or name is None:
        raise Http404("No such course or level.")
    block = selectors.level_overview(learner_from_request(request), course, name)
    return render(request, "codeblanks/level.html", {"lb": block})


@require_safe
def progress(request):
    summary = selectors.progress_summary(learner_from_request(request))
    context = {"summary": summary, "tokens": []}
    if request.user.is_authenticated:
        context["tokens"] = api_tokens.token_list(user_id=request.user.pk)
        context["token_form_once"] = token_forms.form_once(request)
    return render(request, "codeblanks/progress.html", context)


def csrf_failure(request, reason=""):
    """A form was posted without a valid CSRF token: most often a page left open while the
    session expired. Say so in words (inside the page part htmx swaps, when it was htmx)."""
    template = "codeblanks/partials/csrf_failure.html"
    if not getattr(request, "htmx", False):
        template = "codeblanks/csrf_failure.html"
    return render(request, template, status=403)


def _api(request) -> bool:
    path = request.path_info
    return path == "/api" or path.startswith("/api/")


def _json(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=status)


def _too_large_text() -> str:
    kb = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
    return _(
        "What you sent is over the server's limit of %(kb)s KB, so it was neither saved nor "
        "run. Your last saved code is kept; shorten the program and try again."
    ) % {"kb": number_format(kb, force_grouping=True)}


def _refused(request, status: int, title: str, text: str):
    template = "codeblanks/partials/refused.html"
    if request.headers.get("HX-Request") != "true":
        template = "codeblanks/refused.html"
    return render(request, template, {"title": title, "text": text}, status=status)


def bad_request(request, exception=None):
    """Django's 400 (``handler400``), in words. The usual cause is a form too large to read (a
    pasted program of megabytes): say so, with the limit, as a 413 that htmx shows in place.
    Under /api it is the API's JSON error instead, as for every error handler here."""
    if _api(request):
        if isinstance(exception, DisallowedHost):
            return _json(400, "bad-host", _("This server does not answer for that Host header."))
        if isinstance(exception, RequestDataTooBig):
            return _json(413, "too-large", _("The request body is too large."))
        return _json(400, "bad-request", _("The request could not be read."))
    if isinstance(exception, RequestDataTooBig):
        return _refused(request, 413, _("Too large to send"), _too_large_text())
    return _refused(
        request, 400, _("That request could not be read"), _("Reload the page and try again.")
    )


def too_many_learners(request):
    """A visitor without a learner yet, from an address that started its share of them this
    hour (CODEBLANKS_NEW_LEARNERS_PER_HOUR): nothing was kept or run."""
    return _refused(
        request,
        429,
        _("Too many new visitors"),
        _(
            "Your address has started %(count)s new learners this hour, the most we keep, so "
            "this was neither saved nor run. Allow this site's cookie (it is how we know you), "
            "log in, or try again within the hour."
        )
        % {"count": settings.CODEBLANKS.new_learners_per_hour},
    )


def body_refused(request, refusal):
    """A body ``codeblanks.web.door.bodies`` refused before reading it (too large, or too slow)."""
    config = settings.CODEBLANKS
    if refusal.error == "too-large":
        if _api(request):
            limit = number_format(config.max_body_bytes, force_grouping=True)
            message = _("The request body is over the limit of %(limit)s bytes.")
            return _json(413, "too-large", message % {"limit": limit})
        return _refused(request, 413, _("Too large to send"), _too_large_text())
    seconds = number_format(Decimal(f"{config.body_timeout_s:g}"))
    if _api(request):
        message = _("The request body took longer than %(seconds)s s to arrive.")
        return _json(408, "too-slow", message % {"seconds": seconds})
    return _refused(
        request,
        408,
        _("Sent too slowly"),
        _(
            "What you sent did not arrive within %(seconds)s seconds, so it was neither saved "
            "nor run. Check your connection and try again."
        )
        % {"seconds": seconds},
    )


def not_found(request, exception=None):
    if _api(request):
        return _json(404, "not-found", _("No such API endpoint; see docs/api.md."))
    return defaults.page_not_found(request, exception)


def permission_denied(request, exception=None):
    if _api(request):
        return _json(403, "forbidden", _("This request is not allowed."))
    return defaults.permission_denied(request, exception)


def server_error(request):
    """Django's handler500, called while the exception is being handled: the database too busy
    for the request is said as such (``outages.busy``), a 503 to try again, not as our bug."""
    if outages.busy(sys.exc_info()[1]):
        return outages.unavailable(request)
    if _api(request):
        return _json(500, "server-error", _("Something went wrong on our side; please try again."))
    return defaults.server_error(request)
