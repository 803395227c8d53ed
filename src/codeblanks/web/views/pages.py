from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from codeblanks.web import selectors
from codeblanks.web.learners import learner_from_request


@require_safe
def home(request):
    overview = selectors.course_overview(learner_from_request(request))
    return render(request, "codeblanks/home.html", {"overview": overview})


@require_safe
def level(request, course_id: str, level: str):
    course = selectors.course_get(course_id)
    name = selectors.level_get(course, level) if course else None
    if name is None:
        raise Http404("No such course or level.")
    block = selectors.level_overview(learner_from_request(request), course, name)
    return render(request, "codeblanks/level.html", {"lb": block})


@require_safe
def progress(request):
    summary = selectors.progress_summary(learner_from_request(request))
    return render(request, "codeblanks/progress.html", {"summary": summary})


def csrf_failure(request, reason=""):
    """A form was posted without a valid CSRF token: most often a page left open while the
    session expired. Say so in words (inside the page part htmx swaps, when it was htmx)."""
    template = "codeblanks/partials/csrf_failure.html"
    if not getattr(request, "htmx", False):
        template = "codeblanks/csrf_failure.html"
    return render(request, template, status=403)
