"""Small pieces the views share."""

from __future__ import annotations

import functools

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.http import Http404, HttpRequest

from codeblanks.content.model import Lesson
from codeblanks.web.learner.learners import TooManyLearners
from codeblanks.web.pages import selectors
from codeblanks.web.views.pages import too_many_learners


def lesson_or_404(lesson_id: str) -> Lesson:
    lesson = selectors.lesson_get(lesson_id)
    if lesson is None:
        raise Http404(f"No lesson {lesson_id!r}.")
    return lesson


def absolute_url(request: HttpRequest, path: str) -> str:
    """A full link to ``path`` on this site. From CODEBLANKS_SITE_URL when it is set: the
    request's Host (any name the proxy lets through, any port) must not choose where a client
    is sent next. From the request otherwise (a laptop, where the Host is the only clue)."""
    site = settings.CODEBLANKS.site_url
    return site + path if site else request.build_absolute_uri(path)


def new_learner_limited(view):
    """For a view that may start an anonymous learner (``learner_started``):
    ``TooManyLearners`` becomes the 429 page (or htmx partial) in words."""
    if iscoroutinefunction(view):

        @functools.wraps(view)
        async def limited_async(request, *args, **kwargs):
            try:
                return await view(request, *args, **kwargs)
            except TooManyLearners:
                return await sync_to_async(too_many_learners)(request)

        return limited_async

    @functools.wraps(view)
    def limited(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except TooManyLearners:
            return too_many_learners(request)

    return limited
