"""Small pieces the views share."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from codeblanks.content.model import Lesson
from codeblanks.web import selectors


def lesson_or_404(lesson_id: str) -> Lesson:
    lesson = selectors.lesson_get(lesson_id)
    if lesson is None:
        raise Http404(f"No lesson {lesson_id!r}.")
    return lesson


def client_address(request: HttpRequest) -> str:
    """The client's IP address, as the server saw it (behind a trusted proxy, uvicorn already
    put the forwarded address here; see CODEBLANKS_FORWARDED_ALLOW_IPS)."""
    return request.META.get("REMOTE_ADDR") or "unknown"
