"""Parts of pages rendered once and kept in this process: what a lesson page shows that depends
only on the lesson, its content version and the language (the explanation and the task, each
question as a learner's answer leaves it), the site's chrome, and the home page's course maps
and a level's lesson list as a learner's progress leaves them. A page then renders only what is
this request's own around them.

Correct by construction, not by discipline:

- A part is rendered with only the names it is keyed on (templatetags/pageparts.py), so what it
  shows cannot depend on anything its key leaves out: a name it reads but does not list renders
  empty, and fails the render when ``strict`` is on (the tests) or in DEBUG.
- A part's key is built here from those values (``vary``): the lesson's id, content ``version``
  (a hash of its files) and identity (so an edited lesson, reloaded by the dev server, is a new
  key and its old parts simply age out), the request's language, and the learner's state the
  part shows. Only kinds this module knows make a key.
- Parts are whole elements (tests/web/test_pagecache.py parses every kept part on its own).
- Two bounded caches (least recently used dropped first): ``shared`` for parts the same for
  every learner (lesson texts, the chrome, forms), ``learner`` for parts whose key holds a view
  of a learner's state, whose variety grows with the learners; filling one never drops a part
  of the other.

CSRF tokens are per request, so a part is rendered with a marker in their place and the
request's own token is put in on the way out. Thread-safe. ``enabled = False`` renders every
part afresh; ``learner.limit = 0`` keeps no learner-state part (benchmarks/pages.py compares
the three in one run).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import fields, is_dataclass

from django.utils.translation import get_language

from codeblanks.content.model import Course, Lesson
from codeblanks.web.pages.coursemap import CourseMap
from codeblanks.web.pages.question_display import QuestionView
from codeblanks.web.pages.selectors import CourseProgress, HintsView, LevelBlock

enabled = True
strict = False  # a part reading a name it is not keyed on raises (on in the tests; DEBUG too)
_PLAIN = frozenset({str, int, bool})


class Kept:
    """One bounded cache of rendered parts, least recently used dropped first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        # key -> (html, the lessons and courses it names, kept alive so no other takes their id)
        self._parts: OrderedDict[Hashable, tuple[str, list]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            found = self._parts.get(key)
            if found is None:
                return None
            self._parts.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, html: str, keep: list) -> None:
        with self._lock:
            self._parts[key] = (html, keep)
            while len(self._parts) > self.limit:
                self._parts.popitem(last=False)

    def parts(self) -> Iterator[tuple[Hashable, str]]:
        """Every kept part's key and HTML (a copy: the tests read them while pages render)."""
        with self._lock:
            found = [(key, html) for key, (html, _) in self._parts.items()]
        return iter(found)

    def __len__(self) -> int:
        return len(self._parts)

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()


shared = Kept(4096)  # the same for every learner: a few per lesson and language
learner = Kept(4096)  # a learner's state shown: as many as learners at work


class Holds(list):
    """What a key names: the lessons and courses to keep alive with its entry, and whether it
    holds a learner's state (which sends the part to the ``learner`` cache)."""

    learner_state = False


def _lesson(lesson: Lesson, keep: Holds) -> tuple:
    """A lesson by its id, content version and identity: a lesson made in code (tests replace
    parts of one) is another key even with the same version. The entry keeps the lesson
    alive (``keep``), so no other object can take its identity while the entry exists."""
    keep.append(lesson)
    return ("lesson", lesson.id, lesson.version, id(lesson))


def _question_view(view) -> tuple:
    """Every field of a question's view (its question by lesson-independent id), so a field
    added to ``QuestionView`` is part of the key without anyone remembering to add it."""
    rest = (repr(getattr(view, name)) for name in _names(type(view)) if name != "question")
    return ("question", view.question.id, *rest)


def _fields(kind: str, view) -> tuple:
    """Every field of a small view (a hints block): a field added later is in the key too."""
    return (kind, *(repr(getattr(view, name)) for name in _names(type(view))))


_field_names: dict[type, tuple[str, ...]] = {}


def _names(kind: type) -> tuple[str, ...]:
    """A dataclass's field names (``fields()`` is slow to ask for on every key)."""
    found = _field_names.get(kind)
    if found is None:
        found = _field_names[kind] = tuple(f.name for f in fields(kind))
    return found


def _level_block(block, keep: Holds) -> tuple:
    """What lesson_list.html shows of each row: the lesson, its state and its checks."""
    return ("rows", *(
        (*_lesson(r.lesson, keep), r.state, r.progress.solved, r.questions_right)
        for r in block.rows
    ))  # fmt: skip


def _course(course: Course, keep: Holds) -> tuple:
    """A course by its id and identity (a reloaded catalogue makes new courses, so an edited
    course.toml is a new key); kept alive like a lesson."""
    keep.append(course)
    return ("course", course.id, id(course))


def _course_map(found, keep: Holds) -> tuple:
    """What course_map.html shows of a map: the course, and each level's stops with their
    lesson, state, questions right and marks (the counts and the next lesson follow from
    them; ``started`` and ``next`` are in the key all the same)."""
    return ("map", _course(found.course, keep), found.started,
            found.next.lesson.id if found.next else None, *(
        (leg.block.level, leg.block.slug, *(
            (*_lesson(s.lesson, keep), s.number, s.state, s.next, s.capstone, s.questions_right)
            for s in leg.stops
        )) for leg in found.legs
    ))  # fmt: skip


def _course_progress(found, keep: Holds) -> tuple:
    """What course_progress.html shows: the course and every level's counts and names."""
    return ("course-progress", _course(found.course, keep),
            *((x.level, x.slug, x.done, x.total, x.name) for x in found.levels))  # fmt: skip


def vary(value, keep: Holds) -> Hashable:
    """The key of one thing a part shows (the lessons it names are added to ``keep``, and a
    learner's state marks it). Only kinds this module knows: anything else is an error, never
    a key that might leave out what makes two renderings differ. A plain value (text, a number,
    a flag) must be the same for every learner: a learner's state comes as its view."""
    if value is None or type(value) in _PLAIN:  # most of what a key holds: no checks below
        return value
    if isinstance(value, Lesson):
        return _lesson(value, keep)
    if isinstance(value, Course):
        return _course(value, keep)
    if isinstance(value, list | tuple):
        return tuple(vary(v, keep) for v in value)
    if isinstance(value, str | int | bool):  # a subclass: marked-safe text, a StrEnum
        return value
    keep.learner_state = True  # every kind below is a view of a learner's state
    if isinstance(value, QuestionView):
        return _question_view(value)
    if isinstance(value, LevelBlock):
        return _level_block(value, keep)
    if isinstance(value, CourseProgress):
        return _course_progress(value, keep)
    if isinstance(value, CourseMap):
        return _course_map(value, keep)
    if isinstance(value, HintsView):
        return _fields("hints", value)
    kind = type(value).__name__ if not is_dataclass(value) else f"dataclass {type(value).__name__}"
    raise TypeError(f"pagecache.vary: no key for a {kind}; add one in web/pages/pagecache.py")


def part(name: Hashable, shown: tuple, render: Callable[[], str]) -> str:
    """The part ``name`` showing ``shown`` in the request's language, rendered by ``render()``
    the first time (every time when the cache is off)."""
    if not enabled:
        return render()
    keep = Holds()
    part_key = (name, get_language(), *(vary(v, keep) for v in shown))
    kept = learner if keep.learner_state else shared
    found = kept.get(part_key)
    if found is not None:
        return found
    made = render()
    kept.put(part_key, made, keep)
    return made


def clear() -> None:
    shared.clear()
    learner.clear()
