"""Response headers every page gets: a Content-Security-Policy that runs only our own scripts,
and the Secure flag on cookies whenever the request came over HTTPS.

Only scripts served from this site run: no inline scripts, no eval, nothing from elsewhere.
Styles allow 'unsafe-inline' because CodeMirror and KaTeX set element styles at run time.
"""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction

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


def _finish(request, response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    if request.is_secure():
        for morsel in response.cookies.values():
            morsel["secure"] = True
    return response


def security_headers(get_response):
    if iscoroutinefunction(get_response):

        async def middleware(request):
            return _finish(request, await get_response(request))

        markcoroutinefunction(middleware)
    else:

        def middleware(request):
            return _finish(request, get_response(request))

    return middleware


security_headers.sync_capable = True
security_headers.async_capable = True


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
        return self._static(request) or await self.get_response(request)
