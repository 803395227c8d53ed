"""The ASGI application (``codeblanks serve`` runs it under uvicorn).

Requests under ``/api/`` go to a second Django handler, with the same URLconf and views but only
``settings.API_MIDDLEWARE``: no session, CSRF, auth or messages middleware (the API never acts on
a browser session), and nothing that hops to a worker thread. Everything else goes to
``SiteHandler``: the full ``MIDDLEWARE``, run as one sync chain in one hop to a reused worker
thread. A Run (page or API) takes its own path beside these two (``runpath.py``). See "The
request path" in docs/architecture.md.
"""

import asyncio
import contextlib
import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings as django_settings
from django.core import signals
from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured, RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.exception import convert_exception_to_response
from django.db import close_old_connections
from django.http import FileResponse
from django.urls import set_script_prefix
from django.utils.deprecation import MiddlewareMixin
from django.utils.module_loading import import_string

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "codeblanks.web.settings")

API_PREFIX = "/api/"
HEALTH = "/healthz"


class ApiHandler(ASGIHandler):
    """Django's ASGI handler with ``settings.API_MIDDLEWARE`` in place of ``MIDDLEWARE``. Each
    entry must be async (a sync one would put the thread hops back), so this refuses others.

    It also leaves out Django's per-request ``ThreadSensitiveContext``, which starts a new thread
    for every request so that its database work stays on one connection. Only a token is looked
    up in the database; what little sync work is left (a token's lookup, the sync views
    ``GET /api/lessons`` and the 404) runs on asgiref's one shared thread instead, and so do
    Django's request signals for a request with a token. Without one they are sent on the loop
    (``_handle_in_loop``)."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"The API serves HTTP only, not {scope['type']}.")
        if _has_token(scope):
            await self.handle(scope, receive, send)
        else:
            await self._handle_in_loop(scope, receive, send)

    async def _handle_in_loop(self, scope, receive, send):
        """Django's ``handle`` for a request without ``Authorization``, which never touches the
        database (no token, no learner: docs/api.md): Django's request signals, whose receivers
        only look after the database connections and caches of the thread they run in, are sent
        here on the loop, which holds none, instead of in asgiref's thread and back (two
        hand-offs a request). Otherwise the same: the body, the request, the view raced against
        the client going away."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            body_file.close()
            await self.send_response(error_response, send)
            error_response.close()
            return

        async def process_request():
            response = await self.run_get_response(request)
            with contextlib.suppress(asyncio.CancelledError):  # the client went away meanwhile
                await self.send_response(response, send)
            return response

        listen = asyncio.create_task(self.listen_for_disconnect(receive))
        answer = asyncio.create_task(process_request())
        try:
            await asyncio.wait((listen, answer), return_when=asyncio.FIRST_COMPLETED)
            for task in (listen, answer):
                if task.done():
                    with contextlib.suppress(RequestAborted):
                        task.result()
                else:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            try:
                response = answer.result()
            except asyncio.CancelledError:
                signals.request_finished.send(sender=self.__class__)
            else:
                response.close()  # sends request_finished
        finally:
            body_file.close()

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


# The site's worker threads, kept and reused (a thread per request cost a thread start each).
# Generous: a run waiting for the sandbox holds its request's thread (though not its permit,
# gate.py), and a page must not queue behind the runs for a thread; threads are only started as
# requests need them. How many do work at once is the gate's to say.
THREADS = 256
_threads = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="site")


def in_site_thread(func):
    """``func`` as an awaitable run in one of the site's threads (asgiref marks the thread, so
    an async view called there with ``async_to_sync`` runs on this event loop)."""
    return sync_to_async(func, thread_sensitive=False, executor=_threads)


class SiteHandler(ASGIHandler):
    """Django's ASGI handler for the pages, with the middleware chain built as under WSGI and
    the whole sync part of a request run in one hop to a reused worker thread: Django's
    ``request_started``, the middleware and the view, and (unless the answer streams) closing
    the response, which sends ``request_finished``. Both signals close the database
    connections that are old or broken, and connections are per thread, so they run on the
    request's own thread. Django's own path costs far more: its ``MiddlewareMixin`` hooks hop to
    a thread and back each (some 16 a page), its signals hop again, and it starts a new thread
    for every request (``ThreadSensitiveContext``). Async views (a question's Check) still
    run on the event loop: Django calls them from the thread with ``async_to_sync``, which hands
    the coroutine to this loop, and their own ``sync_to_async`` calls come back to the same
    thread; a run waiting for the sandbox holds only its own request's thread."""

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"The site serves HTTP only, not {scope['type']}.")
        await self.handle(scope, receive, send)

    async def handle(self, scope, receive, send):
        """Django's ``handle``: the answer is made while listening for the client leaving (which
        cancels an async view's wait, as in Django), then sent."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            listening = asyncio.create_task(self.listen_for_disconnect(receive))
            answering = asyncio.create_task(self._answer(scope, body_file, send))
            await asyncio.wait((listening, answering), return_when=asyncio.FIRST_COMPLETED)
            response = None
            for task in (listening, answering):
                if not task.done():
                    task.cancel()
                with contextlib.suppress(RequestAborted, asyncio.CancelledError):
                    response = await task
            if response is not None and response.streaming:
                await in_site_thread(response.close)()  # request_finished, once streamed
        finally:
            body_file.close()

    async def _answer(self, scope, body_file, send):
        # Never made to wait for a permit: the balancer's probe (an overloaded node is still up,
        # and a probe that timed out at the gate would take it out and send its crowd to the
        # others) and static files (a page let in must not come without its styles and script).
        path = runpath.scope_path(scope)
        door = None if path == HEALTH or path.startswith(_STATIC) else _gate
        try:
            response = await gate.through(
                door, lambda: in_site_thread(self._respond)(scope, body_file)
            )
        except gate.Full:
            response = await self._overloaded(scope, body_file)
        if response.streaming and not response.is_async:
            # A static file, streamed by a sync iterator: Django's ASGI handler would consume it
            # with a warning; read it in a thread instead (as StaticFiles does on the loop).
            response.streaming_content = _in_thread(response.streaming_content)
        with contextlib.suppress(asyncio.CancelledError):  # the client left meanwhile (Django)
            await self.send_response(response, send)
        return response

    async def _overloaded(self, scope, body_file):
        """On the loop, for a request the gate would not let in: its 503 in words, rendered
        without the session or the database (outages.overloaded), with the security headers."""
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = await _refusing(request)
        return response

    def _respond(self, scope, body_file):
        """In a site thread: the response to the request, closed already unless it streams."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if response.streaming:
            # closed once streamed, from another thread: this one's connections are done now
            close_old_connections()
        else:
            response.close()  # request_finished, on this thread; the content stays to be sent
        return response


def _has_token(scope) -> bool:
    return any(name == b"authorization" for name, _ in scope.get("headers", ()))


def is_api(scope) -> bool:
    path = runpath.scope_path(scope)
    return scope["type"] == "http" and (
        path == API_PREFIX.rstrip("/") or path.startswith(API_PREFIX)
    )


# (bodies needs the settings module named above)
from codeblanks.web.door import bodies, gate, runpath  # noqa: E402
from codeblanks.web.door.middleware import _in_thread  # noqa: E402

get_asgi_application()  # sets Django up

from codeblanks.web.door import outages  # noqa: E402  (needs the apps loaded)

_gate = gate.from_settings()  # the site's permits (gate.py): this process's, for every handler
_STATIC = django_settings.STATIC_URL


def _refusal_chain():
    """``outages.overloaded`` behind the middleware the API runs on the loop: the security
    headers, the host check and the Content-Length (CommonMiddleware's)."""
    from codeblanks.web.door.middleware import (
        api_common,
        api_security,
        api_xframe,
        security_headers,
    )

    async def refuse(request):
        return outages.overloaded(request)

    handler = refuse
    for middleware in (api_xframe, api_common, security_headers, api_security):
        handler = middleware(handler)
    return handler


_refusing = _refusal_chain()


class PageRunHandler(runpath.OwnRoutes, SiteHandler):
    """The page's Run (runpath.py): the site's handler with ``settings.RUN_MIDDLEWARE``."""

    routes = runpath.PAGE_ROUTES

    def load_middleware(self, is_async=False):
        from django.conf import settings

        runpath.load_sync_chain(self, settings.RUN_MIDDLEWARE)


class ApiRunHandler(runpath.OwnRoutes, ApiHandler):
    """The API's Run and grade (runpath.py): the API's handler without the resolver."""

    routes = runpath.API_ROUTES


site = SiteHandler()  # the whole site, full middleware
api = ApiHandler()
page_run = PageRunHandler()  # POST /lessons/<id>/run: settings.RUN_MIDDLEWARE
api_run = ApiRunHandler()  # POST /api/run and a lesson's grade: no resolver


def handler_for(scope):
    """Which handler answers: a Run's own (runpath.py), the API's, or the site's."""
    if runpath.is_page_run(scope):
        return page_run
    if is_api(scope):
        return api_run if runpath.is_api_run(scope) else api
    return site


async def application(scope, receive, send):
    if scope["type"] == "http":
        scope, receive = await bodies.bounded(scope, receive)
    await handler_for(scope)(scope, receive, send)


# Outermost: every request gets an id, a log line and its metrics (requestlog.py); then, while
# the node stops, new requests are refused and the ones in flight counted (draining.py).
from codeblanks.web.door import draining, requestlog  # noqa: E402

application = requestlog.observed(draining.drain.guard(application))
