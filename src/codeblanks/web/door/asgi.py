"""The ASGI application (``codeblanks serve`` runs it under uvicorn).

Requests under ``/api/`` go to a second Django handler, with the same URLconf and views but only
``settings.API_MIDDLEWARE``: no session, CSRF, auth or messages middleware (the API never acts on
a browser session), and nothing that hops to a worker thread. Everything else goes to
``SiteHandler``: the full ``MIDDLEWARE``, run as one sync chain in one worker thread. See "The
request path" in docs/architecture.md.
"""

import os

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.exception import convert_exception_to_response
from django.utils.deprecation import MiddlewareMixin
from django.utils.module_loading import import_string

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "codeblanks.web.settings")

API_PREFIX = "/api/"


class ApiHandler(ASGIHandler):
    """Django's ASGI handler with ``settings.API_MIDDLEWARE`` in place of ``MIDDLEWARE``. Each
    entry must be async (a sync one would put the thread hops back), so this refuses others.

    It also leaves out Django's per-request ``ThreadSensitiveContext``, which starts a new thread
    for every request so that its database work stays on one connection. The API does no
    database work; what little sync work is left (Django's request signals, the sync views
    ``GET /api/lessons`` and the 404) runs on asgiref's one shared thread instead."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"The API serves HTTP only, not {scope['type']}.")
        await self.handle(scope, receive, send)

    def load_middleware(self, is_async=False):
        from django.conf import settings

        self._view_middleware = []
        self._template_response_middleware = []
        self._exception_middleware = []
        handler = convert_exception_to_response(self._get_response_async)
        for path in reversed(settings.API_MIDDLEWARE):
            middleware = import_string(path)(handler)
            if not iscoroutinefunction(middleware) or isinstance(middleware, MiddlewareMixin):
                raise ImproperlyConfigured(
                    f"API_MIDDLEWARE: {path} is not async (for Django's own, whose hooks do no "
                    "I/O, use codeblanks.web.door.middleware.in_loop)"
                )
            handler = convert_exception_to_response(middleware)
        self._middleware_chain = handler


class SiteHandler(ASGIHandler):
    """Django's ASGI handler for the pages, with the middleware chain built as under WSGI and
    run in one worker thread per request (Django's ``ThreadSensitiveContext`` thread), rather
    than adapted middleware by middleware: Django's own middleware are ``MiddlewareMixin``s,
    which under ASGI hop to a thread and back for each hook, some 16 hand-offs a page, about
    half of a page's CPU (benchmarks/pages.py). Async views (Run, a question's Check) still
    run on the event loop: Django calls them from the thread with ``async_to_sync``, which
    hands the coroutine to this loop, so a run waiting for the sandbox holds only its own
    request's thread."""

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        response = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        if response.streaming and not response.is_async:
            # A static file, streamed by a sync iterator: Django's ASGI handler would consume it
            # with a warning; read it in a thread instead (as StaticFiles does on the loop).
            response.streaming_content = _in_thread(response.streaming_content)
        return response


def is_api(scope) -> bool:
    path, root = scope.get("path", ""), scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    return scope["type"] == "http" and (
        path == API_PREFIX.rstrip("/") or path.startswith(API_PREFIX)
    )


from codeblanks.web.door import bodies  # noqa: E402 (needs the settings module named above)
from codeblanks.web.door.middleware import _in_thread  # noqa: E402

get_asgi_application()  # sets Django up
site = SiteHandler()  # the whole site, full middleware
api = ApiHandler()


async def application(scope, receive, send):
    if scope["type"] == "http":
        scope, receive = await bodies.bounded(scope, receive)
    handler = api if is_api(scope) else site
    await handler(scope, receive, send)


# Outermost: every request gets an id, a log line and its metrics (requestlog.py); then, while
# the node stops, new requests are refused and the ones in flight counted (draining.py).
from codeblanks.web.door import draining, requestlog  # noqa: E402

application = requestlog.observed(draining.drain.guard(application))
