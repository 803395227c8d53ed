"""Response headers every answer gets (pages, API, static files): a Content-Security-Policy that
runs only our own scripts, a Permissions-Policy that turns off the powerful browser features,
and the Secure flag on cookies whenever the request came over HTTPS.

Only scripts served from this site run: no inline scripts, no eval, nothing from elsewhere.
Styles allow 'unsafe-inline' because CodeMirror and KaTeX set element styles at run time.

Also ``in_loop``: Django's header middleware run on the event loop, for the JSON API's own
handler (``API_MIDDLEWARE``, see asgi.py).
"""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.security import SecurityMiddleware
from django.utils.decorators import sync_and_async_middleware

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


# No page here needs a camera, a microphone, a location or any other powerful feature.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
    )
)


def _finish(request, response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    if request.is_secure():
        for morsel in response.cookies.values():
            morsel["secure"] = True
    return response


@sync_and_async_middleware
def body_refusal(get_response):
    """Answers a request whose body ``codeblanks.web.door.bodies`` refused (the reason is in the
    ASGI scope) before any other middleware or view can read it."""
    from django.utils import translation

    from codeblanks import i18n
    from codeblanks.web.door import languages
    from codeblanks.web.door.bodies import SCOPE_KEY
    from codeblanks.web.views.pages import body_refused as refused_page

    def refusal(request):
        scope = getattr(request, "scope", None)
        return scope.get(SCOPE_KEY) if scope else None

    def body_refused(request, found):
        # before the session is read: in the language of ?lang= or of the browser
        code = languages.from_query(request) or languages.from_header(request) or i18n.DEFAULT
        with translation.override(code):
            return languages.finish(request, refused_page(request, found), code)

    if iscoroutinefunction(get_response):

        async def amiddleware(request):
            if found := refusal(request):
                return body_refused(request, found)
            return await get_response(request)

        markcoroutinefunction(amiddleware)
        return amiddleware

    def middleware(request):
        if found := refusal(request):
            return body_refused(request, found)
        return get_response(request)

    return middleware


@sync_and_async_middleware
def security_headers(get_response):
    if iscoroutinefunction(get_response):

        async def amiddleware(request):
            return _finish(request, await get_response(request))

        markcoroutinefunction(amiddleware)
        return amiddleware

    def middleware(request):
        return _finish(request, get_response(request))

    return middleware


class StaticFiles:
    """whitenoise, usable from async code. ``WhiteNoiseMiddleware`` is sync-only, and one
    sync-only middleware makes Django run every async view inside a worker thread (so a run
    waiting on the sandbox would block the others). Looking a file up is a dict lookup (a stat
    in debug), so doing it on the event loop costs nothing."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        from whitenoise.middleware import WhiteNoiseMiddleware

        self.get_response = get_response
        self.whitenoise = WhiteNoiseMiddleware(get_response=None)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def _static(self, request):
        wn = self.whitenoise
        found = (
            wn.find_file(request.path_info) if wn.autorefresh else wn.files.get(request.path_info)
        )
        return wn.serve(found, request) if found is not None else None

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        return self._static(request) or self.get_response(request)

    async def _acall(self, request):
        response = self._static(request)
        if response is None:
            return await self.get_response(request)
        if response.streaming and not response.is_async:
            # whitenoise streams the file with a sync iterator, which Django's ASGI handler
            # would consume with a warning on every static file; read it in a thread instead.
            response.streaming_content = _in_thread(response.streaming_content)
        return response


async def _in_thread(chunks):
    """The chunks of a sync iterator (a file being read), each fetched in a worker thread."""
    iterator = iter(chunks)
    done = object()
    while (chunk := await sync_to_async(next, thread_sensitive=False)(iterator, done)) is not done:
        yield chunk


def in_loop(mixin):
    """Django's ``mixin`` middleware class (a ``MiddlewareMixin``) with its ``process_request``
    and ``process_response`` called directly on the event loop. Under ASGI Django calls them
    through ``sync_to_async``, a hop to a worker thread and back each; this is only for hooks that
    do no I/O, which is true of ``SecurityMiddleware``, ``CommonMiddleware`` and
    ``XFrameOptionsMiddleware`` (header checks and header settings). The JSON API's handler uses
    it (``API_MIDDLEWARE`` in settings.py); the full app keeps Django's own path."""

    def factory(get_response):
        if not iscoroutinefunction(get_response):
            raise TypeError(f"{mixin.__name__}: in_loop() is for async handlers only")
        hooks = mixin(get_response)
        before = getattr(hooks, "process_request", None)
        after = getattr(hooks, "process_response", None)

        async def middleware(request):
            response = before(request) if before else None
            if response is None:
                response = await get_response(request)
            return after(request, response) if after else response

        markcoroutinefunction(middleware)
        return middleware

    factory.__name__ = factory.__qualname__ = f"in_loop({mixin.__name__})"
    return factory


api_security = in_loop(SecurityMiddleware)
api_common = in_loop(CommonMiddleware)
api_xframe = in_loop(XFrameOptionsMiddleware)
