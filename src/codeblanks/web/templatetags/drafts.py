"""The editor's draft attributes (``static/codeblanks/drafts.js`` reads them): where this
learner's draft of the lesson is kept in the browser and, signed in, on the server."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html_join

register = template.Library()


@register.simple_tag(takes_context=True)
def draft_attrs(context, lesson):
    """``data-*`` attributes for the lesson's editor: the localStorage key (per account, or
    one for the browser's anonymous visitor), the most a draft may be, the server's endpoint
    when signed in, and when the text shown was saved (``shown``, the lesson page's)."""
    user = getattr(context.get("request"), "user", None)
    signed_in = user is not None and user.is_authenticated
    owner = f"u{user.pk}" if signed_in else "anon"
    attrs: dict[str, object] = {
        "data-draft-key": f"codeblanks:draft:{owner}:{lesson.uuid}",
        "data-draft-max-bytes": settings.CODEBLANKS.max_code_bytes,
    }
    if signed_in:
        attrs["data-draft-url"] = reverse("lesson-draft", args=[lesson.id])
    shown = context.get("shown")
    if shown is not None:
        attrs["data-saved-at"] = int(shown.saved_at.timestamp() * 1000) if shown.saved_at else 0
        attrs["data-draft"] = "1" if shown.draft else "0"
    return format_html_join(" ", '{}="{}"', attrs.items())
