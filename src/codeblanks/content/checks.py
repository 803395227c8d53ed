"""The static checks of ``codeblanks check``: each reads one loaded course and returns its
problems, running nothing. A check joins by ``@register`` in its own module (Django's system
checks are the model), so every door that checks courses runs the same ones: the command line
only prints what ``run_static_checks`` finds. The load itself reports its own problems
(``load_courses``); these come after, course by course.

    from codeblanks.content.checks import register, run_static_checks

    @register
    def my_check(course: Course) -> list[Problem]: ...
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

from codeblanks.content.model import Course
from codeblanks.content.problems import Problem

StaticCheck = Callable[[Course], list[Problem]]

# The modules holding the built-in checks, in the order their problems are printed: each is
# imported before the checks run (it registers on import), whoever imported it first.
BUILT_IN = ("codeblanks.content.todos", "codeblanks.content.giveaways")

_registered: list[StaticCheck] = []


def register(check: StaticCheck) -> StaticCheck:
    """Add ``check`` to the static checks (once, however often its module is reloaded)."""
    if check not in _registered:
        _registered.append(check)
    return check


def static_checks() -> list[StaticCheck]:
    """Every registered check: the built-in ones in ``BUILT_IN``'s order, then any other in the
    order it registered."""
    for module in BUILT_IN:
        importlib.import_module(module)

    def place(check: StaticCheck) -> int:
        module = check.__module__
        return BUILT_IN.index(module) if module in BUILT_IN else len(BUILT_IN)

    return sorted(_registered, key=place)  # a stable sort: registration order within a module


def run_static_checks(courses: Iterable[Course]) -> list[Problem]:
    """The problems every static check finds, course by course, check by check."""
    checks = static_checks()
    return [found for course in courses for check in checks for found in check(course)]
