"""Which language a request is answered in (docs/translating.md).

The first of these that names a supported language wins:

1. ``?lang=xx`` on any URL (then remembered in the session, and on the account when logged in);
2. the account's saved language (``Profile.language``), when logged in;
3. the session's;
4. the browser's ``Accept-Language``;
5. English (``i18n.DEFAULT``).

The chosen language is active for Django (templates, forms, ``get_language()``) and for
``codeblanks.i18n`` (the grader's sentences) while the request is served; it is also
``request.LANGUAGE_CODE`` and the answer's ``Content-Language``. The JSON API has no session
or account here (``api_languages``): only ``?lang=`` and ``Accept-Language``.
"""

from __future__ import annotations

import contextlib

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.decorators import sync_and_async_middleware
from django.utils.translation.trans_real import parse_accept_lang_header

from codeblanks import i18n

SESSION_KEY = "codeblanks_language"
QUERY = "lang"


def _supported(code) -> str | None:
    return i18n.normalize(code) if isinstance(code, str) and i18n.supported(code) else None


def from_query(request) -> str | None:
    return _supported(request.GET.get(QUERY))


def from_header(request) -> str | None:
    """The first supported language of ``Accept-Language``, in the browser's order."""
    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        if found := _supported(code):
            return found
    return None


def saved_language(user_id: int) -> str:
    """The account's language ('' when it never chose one)."""
    from codeblanks.web.models import Profile

    found = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return _supported(found) or ""


def save_language(user_id: int, code: str) -> None:
    from codeblanks.web.models import Profile

    Profile.objects.update_or_create(user_id=user_id, defaults={"language": code})


def remember(request, code: str) -> None:
    """Keep ``code`` as this visitor's choice: in the session, and on the account."""
    session = getattr(request, "session", None)
    if session is not None and session.get(SESSION_KEY) != code:
        session[SESSION_KEY] = code
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and saved_language(user.pk) != code:
        save_language(user.pk, code)


def _from_session_and_account(request, asked: str | None) -> str | None:
    """Steps 1 to 3 (the ones that may read the database)."""
    if asked:
        remember(request, asked)
        return asked
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and (saved := saved_language(user.pk)):
        return saved
    session = getattr(request, "session", None)
    return _supported(session.get(SESSION_KEY)) if session is not None else None


def _has_session(request) -> bool:
    return settings.SESSION_COOKIE_NAME in request.COOKIES


def finish(request, response, code: str):
    response.headers.setdefault("Content-Language", code)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


class _Speaking:
    """``code`` active for Django and for ``codeblanks.i18n`` inside the block, then the
    previous one again (a thread that served a Turkish request does not stay Turkish)."""

    def __init__(self, request, code: str) -> None:
        request.LANGUAGE_CODE = code
        self._django = translation.override(code, deactivate=False)
        self._ours = i18n.language(code)

    def __enter__(self):
        self._django.__enter__()
        self._ours.__enter__()

    def __exit__(self, *exc):
        self._ours.__exit__(*exc)
        self._django.__exit__(*exc)


@sync_and_async_middleware
def languages(get_response):
    """The site's middleware; after the session and authentication middleware."""

    def fallback(request) -> str:
        return from_header(request) or i18n.DEFAULT

    if iscoroutinefunction(get_response):

        async def amiddleware(request):
            asked = from_query(request)
            code = asked or fallback(request)
            with _Speaking(request, code):  # already, should the database fail below
                # No session cookie: no session and no account to read, so no thread hop.
                if asked or _has_session(request):
                    try:
                        chosen = await sync_to_async(_from_session_and_account)(request, asked)
                    except DatabaseError:
                        chosen = None
                    if chosen and chosen != code:
                        with _Speaking(request, chosen):
                            return finish(request, await get_response(request), chosen)
                return finish(request, await get_response(request), code)

        markcoroutinefunction(amiddleware)
        return amiddleware

    def middleware(request):
        asked = from_query(request)
        code = asked or fallback(request)
        with _Speaking(request, code):  # already, should the database fail below
            # No session cookie: no session and no account to read (as above).
            chosen = None
            if asked or _has_session(request):
                with contextlib.suppress(DatabaseError):
                    chosen = _from_session_and_account(request, asked)
            if chosen and chosen != code:
                with _Speaking(request, chosen):
                    return finish(request, get_response(request), chosen)
            return finish(request, get_response(request), code)

    return middleware


def api_languages(get_response):
    """The JSON API's middleware (``API_MIDDLEWARE``): ``?lang=`` or ``Accept-Language``."""
    if not iscoroutinefunction(get_response):
        raise TypeError("api_languages is for the API's async handler only")

    async def middleware(request):
        code = from_query(request) or from_header(request) or i18n.DEFAULT
        with _Speaking(request, code):
            response = await get_response(request)
        response.headers.setdefault("Content-Language", code)
        patch_vary_headers(response, ("Accept-Language",))
        return response

    markcoroutinefunction(middleware)
    return middleware


def on_login(sender, request, user, **kwargs):
    """At log-in (and sign-up) the account's language becomes the session's; an account that
    never chose one takes the language the visitor chose before logging in."""
    if request is None or not hasattr(request, "session"):
        return
    saved = saved_language(user.pk)
    if saved:
        request.session[SESSION_KEY] = saved
    elif chosen := _supported(request.session.get(SESSION_KEY)):
        save_language(user.pk, chosen)
