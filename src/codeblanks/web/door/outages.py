"""What a node does while a shared service is away (docs/deploy.md, "When a part fails").

* The database does not answer: a page that failed for it is answered 503 in words (a page, the
  run region's partial for htmx, JSON under /api), not as our generic 500. Nothing to reconnect
  by hand: every request opens its connection afresh (``CONN_MAX_AGE`` 0), so the first request
  after the database is back simply works.
* The database answers, but too busy for the request: it waited its turn to write past the
  busy timeout (SQLite's "database is locked", a crowd's writes queued behind each other on an
  overloaded node) or a lock the way PostgreSQL refuses it. The same 503 (``busy``, asked by
  the site's 500 handler, which knows the exception): the load's doing, not a bug of ours, and
  nothing was saved, so trying again is right.
* The node itself has more to do than it can: a request that waited for the site's gate longer
  than ``CODEBLANKS_SITE_WAIT`` (gate.py) is not run but answered the same kind of 503 in words
  (``overloaded``), so a crowd past what a node holds is told at once instead of timing out.
* The shared cache (Redis) does not answer: runs go on without the rate limit (quotas.py), and
  the gap is logged once when it begins and once when it ends (``Gap``), not once per request.
"""

from __future__ import annotations

import logging
import sys
import threading

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.decorators import sync_and_async_middleware
from django.utils.translation import gettext_lazy as _

log = logging.getLogger("codeblanks.web")

RETRY_AFTER_S = 5
TITLE = _("The database is not answering")
TEXT = _(
    "We could not reach the database just now, so this was not saved or shown. What you saved "
    "before is safe. Try again in a few seconds."
)
BUSY_TITLE = _("Too many learners at once")
BUSY_TEXT = _(
    "The server has more to do than it can right now, so this was not done. What you saved "
    "before is safe. Try again in a few seconds."
)


class Gap:
    """A shared service's outage, logged at its start and at its end, once each."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.down = False
        self._lock = threading.Lock()

    def failed(self, consequence: str) -> None:
        """Call from inside the ``except`` block of a failed call."""
        with self._lock:
            first, self.down = not self.down, True
        if first:
            log.error("%s is not answering: %s (said once; its return is logged)",
                      self.name, consequence, exc_info=sys.exc_info()[0] is not None)  # fmt: skip

    def answered(self) -> None:
        with self._lock:
            back, self.down = self.down, False
        if back:
            log.warning("%s answers again", self.name)


cache_gap = Gap("the shared cache (CODEBLANKS_CACHE_URL)")


# SQLITE_BUSY and SQLITE_LOCKED (the primary codes, under any extended one); PostgreSQL's
# serialization failure, deadlock and lock not available (its ``lock_timeout``).
_BUSY_SQLITE = {5, 6}
_BUSY_SQLSTATES = {"40001", "40P01", "55P03"}


def busy(error: BaseException | None) -> bool:
    """Whether ``error`` (a request's uncaught exception) is the database being too busy for it,
    found in the driver's exception that Django wraps (its ``__cause__``)."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in _BUSY_SQLITE:
            return True
        if getattr(error, "sqlstate", None) in _BUSY_SQLSTATES:
            return True
        error = error.__cause__ or error.__context__
    return False


def database_answers() -> bool:
    """Whether a fresh connection (not the failed request's) reaches the database."""
    conn = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        conn.ensure_connection()
        return True
    except DatabaseError:
        return False
    finally:
        conn.close()


def unavailable(request):
    """The 503 for a request the database failed. Renders nothing that reads the session; in
    the request's language (``languages.py`` chose it before the database failed)."""
    return _refused(request, "database-unavailable", TITLE, TEXT)


def overloaded(request):
    """The 503 for a request that waited too long for the site's gate: made on the event loop
    before the request ran, so nothing that reads the session or the database (the language is
    that of ``?lang=`` or ``Accept-Language``)."""
    return _refused(request, "overloaded", BUSY_TITLE, BUSY_TEXT)


def _refused(request, error: str, title, text):
    from codeblanks import i18n
    from codeblanks.web.door import languages

    code = (
        getattr(request, "LANGUAGE_CODE", None)
        or languages.from_query(request)
        or languages.from_header(request)
        or i18n.DEFAULT
    )
    response: HttpResponse
    with translation.override(code):
        if request.path_info.startswith("/api/"):
            response = JsonResponse({"error": error, "message": str(text)}, status=503)
        else:
            template = "codeblanks/partials/refused.html"
            if request.headers.get("HX-Request") != "true":
                template = "codeblanks/refused.html"
            context = {"title": title, "text": text, "user": AnonymousUser(), "messages": ()}
            response = render(request, template, context, status=503)
        response["Retry-After"] = str(RETRY_AFTER_S)
        return languages.finish(request, response, code)


@sync_and_async_middleware
def database_outage(get_response):
    """Middleware, outermost: a 500 while the database does not answer becomes ``unavailable``.
    The check costs a connection attempt, made only after a 500."""
    if iscoroutinefunction(get_response):

        async def amiddleware(request):
            response = await get_response(request)
            if (
                response.status_code == 500
                and not await sync_to_async(database_answers, thread_sensitive=False)()
            ):
                return unavailable(request)
            return response

        markcoroutinefunction(amiddleware)
        return amiddleware

    def middleware(request):
        response = get_response(request)
        if response.status_code == 500 and not database_answers():
            return unavailable(request)
        return response

    return middleware
