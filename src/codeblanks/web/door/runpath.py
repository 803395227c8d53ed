"""The Run on its own path: ``POST /lessons/<id>/run`` (the lesson page's Run), ``POST /api/run``
and ``POST /api/lessons/<id>/grade`` (the API's) skip the URL resolver and the site's
``MIDDLEWARE`` (see "The request path" in docs/architecture.md).

The page's Run goes to ``PageRunHandler``: the site's handler (one hop to a reused thread, as
``asgi.SiteHandler``) with ``settings.RUN_MIDDLEWARE``, the steps a Run needs and no more, and
the view found by the path alone. The view is sync (``views.lesson.lesson_run``): the learner,
the rendering and the store's writes stay on the request's thread, and only the tutor's run is
handed to the event loop, so a Run makes three hand-offs where it made six. The API's two go to
``ApiRunHandler``: the API's own handler, without the resolver.

Any other method on these paths, and every other path, goes where it went before (a GET on a
Run's path still gets its 405 from the view's own decorator, through the full chain).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.handlers.exception import convert_exception_to_response
from django.urls import ResolverMatch
from django.utils.module_loading import import_string

from codeblanks.web.door.asgi import ApiHandler, SiteHandler, scope_path


@dataclass(frozen=True)
class Route:
    """A path the Run's door serves: its pattern, the view and the URL's name (as in urls.py:
    ``tests/web/test_run_path.py`` holds the two to the same answers)."""

    pattern: re.Pattern[str]
    view: str  # dotted path, imported when the handlers are built
    name: str
    route: str

    def match(self, path: str) -> dict[str, str] | None:
        found = self.pattern.fullmatch(path)
        return found.groupdict() if found else None


PAGE_ROUTES = (
    Route(re.compile(r"/lessons/(?P<lesson_id>[-a-zA-Z0-9_]+)/run"),
          "codeblanks.web.views.lesson.lesson_run", "lesson-run",
          "lessons/<slug:lesson_id>/run"),
)  # fmt: skip
API_ROUTES = (
    Route(re.compile(r"/api/run"), "codeblanks.web.views.api.run", "api-run", "api/run"),
    Route(re.compile(r"/api/lessons/(?P<lesson_id>[^/]+)/grade"),
          "codeblanks.web.views.api.grade", "api-grade", "api/lessons/<str:lesson_id>/grade"),
)  # fmt: skip


def _resolve(routes: tuple[Route, ...], views: dict[str, Callable], path: str):
    """What Django's resolver would find for ``path`` among ``routes``, without it."""
    for route in routes:
        kwargs = route.match(path)
        if kwargs is not None:
            view = views[route.view]
            return ResolverMatch(view, (), kwargs, url_name=route.name, route=route.route)
    raise LookupError(path)  # never: the door takes only what a route matched


class PageRunHandler(SiteHandler):
    """``asgi.SiteHandler`` with ``settings.RUN_MIDDLEWARE`` for its chain, and the view found
    by its path. Django's own loop over the chain's hooks (``process_view``, for CSRF) and its
    exception handling are kept; only the list and the resolver are ours."""

    routes = PAGE_ROUTES

    def load_middleware(self, is_async=False):
        self._views = {route.view: import_string(route.view) for route in self.routes}
        self._view_middleware: list = []
        self._template_response_middleware: list = []
        self._exception_middleware: list = []
        handler = convert_exception_to_response(self._get_response)
        for path in reversed(settings.RUN_MIDDLEWARE):
            middleware = import_string(path)(handler)
            if hasattr(middleware, "process_view"):
                self._view_middleware.insert(0, middleware.process_view)
            if hasattr(middleware, "process_template_response"):
                self._template_response_middleware.append(middleware.process_template_response)
            if hasattr(middleware, "process_exception"):
                self._exception_middleware.append(middleware.process_exception)
            handler = convert_exception_to_response(middleware)
        self._middleware_chain = handler

    def resolve_request(self, request):
        request.resolver_match = match = _resolve(self.routes, self._views, request.path_info)
        return match.func, match.args, match.kwargs


class ApiRunHandler(ApiHandler):
    """``asgi.ApiHandler`` (``settings.API_MIDDLEWARE``, on the event loop) with the view found
    by its path."""

    routes = API_ROUTES

    def load_middleware(self, is_async=False):
        self._views = {route.view: import_string(route.view) for route in self.routes}
        super().load_middleware(is_async)

    def resolve_request(self, request):
        request.resolver_match = match = _resolve(self.routes, self._views, request.path_info)
        return match.func, match.args, match.kwargs


def _takes(routes: tuple[Route, ...], scope) -> bool:
    if scope["type"] != "http" or scope.get("method") != "POST":
        return False
    path = scope_path(scope)
    return any(route.match(path) is not None for route in routes)


def is_page_run(scope) -> bool:
    return _takes(PAGE_ROUTES, scope)


def is_api_run(scope) -> bool:
    return _takes(API_ROUTES, scope)
