"""The Run on its own path: ``POST /lessons/<id>/run`` (the lesson page's Run), ``POST /api/run``
and ``POST /api/lessons/<id>/grade`` (the API's) skip the URL resolver and the site's
``MIDDLEWARE`` (see "The request path" in docs/architecture.md).

The page's Run goes to ``asgi.PageRunHandler``: the site's handler (one hop to a reused thread,
as ``asgi.SiteHandler``) with ``settings.RUN_MIDDLEWARE``, the steps a Run needs and no more,
and the view found by the path alone (``OwnRoutes``). The view (``views.lesson.lesson_run``)
is sync, and the whole Run happens on the request's thread: the tutor's run is driven there
(``codeblanks.inline``), so past the hop to its thread a Run hands nothing to the event loop.
The API's two go to ``asgi.ApiRunHandler``: the API's own handler, without the resolver. The
handlers live in asgi.py beside the ones they extend; this module imports nothing of the door's.

Any other method on these paths, and every other path, goes where it went before (a GET on a
Run's path still gets its 405 from the view's own decorator, through the full chain).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.core.handlers.exception import convert_exception_to_response
from django.urls import ResolverMatch
from django.utils.module_loading import import_string


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


class OwnRoutes:
    """For a Django handler (``asgi.PageRunHandler``, ``asgi.ApiRunHandler``): the view found by
    its path among ``routes``, in place of Django's resolver."""

    routes: tuple[Route, ...] = ()

    @functools.cached_property
    def views(self) -> dict[str, Callable]:
        return {route.view: import_string(route.view) for route in self.routes}

    def resolve_request(self, request):
        request.resolver_match = match = _resolve(self.routes, self.views, request.path_info)
        return match.func, match.args, match.kwargs


def load_sync_chain(handler, names: list[str]) -> None:
    """Django's ``BaseHandler.load_middleware`` for a sync handler, over ``names`` in place of
    ``settings.MIDDLEWARE``: the same hooks collected (``process_view``, for CSRF), the same
    exception handling; only the list is ours."""
    handler._view_middleware = []
    handler._template_response_middleware = []
    handler._exception_middleware = []
    chain = convert_exception_to_response(handler._get_response)
    for path in reversed(names):
        middleware = import_string(path)(chain)
        if hasattr(middleware, "process_view"):
            handler._view_middleware.insert(0, middleware.process_view)
        if hasattr(middleware, "process_template_response"):
            handler._template_response_middleware.append(middleware.process_template_response)
        if hasattr(middleware, "process_exception"):
            handler._exception_middleware.append(middleware.process_exception)
        chain = convert_exception_to_response(middleware)
    handler._middleware_chain = chain


def scope_path(scope) -> str:
    """The request's path inside the site (without the proxy's ``root_path``)."""
    path, root = scope.get("path", ""), scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    return path


def _takes(routes: tuple[Route, ...], scope) -> bool:
    if scope["type"] != "http" or scope.get("method") != "POST":
        return False
    path = scope_path(scope)
    return any(route.match(path) is not None for route in routes)


def is_page_run(scope) -> bool:
    return _takes(PAGE_ROUTES, scope)


def is_api_run(scope) -> bool:
    return _takes(API_ROUTES, scope)
