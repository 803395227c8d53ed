"""The language switcher's form (base.html, on every page): POST a language, come back to the
same page in it. It works without JavaScript; the choice is kept in the session and, when
logged in, on the account (``codeblanks.web.door.languages``)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from codeblanks import i18n
from codeblanks.web.door import languages


def _back(request) -> str:
    """Where the form was sent from (``next``), on this site only, without a ``?lang=`` that
    would undo the choice just made; the home page otherwise."""
    url = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(url, {request.get_host()}, request.is_secure()):
        return "/"
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "lang"]
    return urlunsplit(parts._replace(query=urlencode(query))) or "/"


@require_POST
def language_set(request):
    code = request.POST.get("language", "")
    if not i18n.supported(code):
        return HttpResponseBadRequest(_("That language is not offered here."))
    languages.remember(request, i18n.normalize(code))
    return redirect(_back(request))
