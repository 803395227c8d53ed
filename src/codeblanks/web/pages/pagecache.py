"""Parts of pages rendered once and kept in this process: what a lesson page shows that depends
only on the lesson, its content version and the language (the explanation and the task, each
question as a learner's answer leaves it), and the home page's course maps and a level's lesson
list as a learner's progress leaves them. A page then renders only what is this request's own
around them.

A part's key is built here, explicitly, from what its template shows (``vary``): the lesson's
id, content ``version`` (a hash of its files) and identity (so an edited lesson, reloaded by the
dev server, is a new key and its old parts simply age out), the request's language, and the
learner's state the part shows. CSRF tokens are per request, so a part is rendered with a
marker in their place and the request's own token is put in on the way out
(templatetags/pageparts.py).

Bounded (``LIMIT`` parts, least recently used dropped first); thread-safe. ``enabled = False``
renders every part afresh (benchmarks/pages.py compares the two in one run).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import fields, is_dataclass

from django.utils.translation import get_language

from codeblanks.content.model import Course, Lesson

enabled = True
LIMIT = 4096
_PLAIN = frozenset({str, int, bool})

# key -> (html, the lessons it names, kept alive so that no other object takes their id)
_parts: OrderedDict[Hashable, tuple[str, list]] = OrderedDict()
_lock = threading.Lock()


def _lesson(lesson: Lesson, keep: list) -> tuple:
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


def _level_block(block, keep: list) -> tuple:
    """What lesson_list.html shows of each row: the lesson, its state and its checks."""
    return ("rows", *(
        (*_lesson(r.lesson, keep), r.state, r.progress.solved, r.questions_right)
        for r in block.rows
    ))  # fmt: skip


def _course(course: Course, keep: list) -> tuple:
    """A course by its id and identity (a reloaded catalogue makes new courses, so an edited
    course.toml is a new key); kept alive like a lesson."""
    keep.append(course)
    return ("course", course.id, id(course))


def _course_map(found, keep: list) -> tuple:
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


def _course_progress(found, keep: list) -> tuple:
    """What course_progress.html shows: the course and every level's counts and names."""
    return ("course-progress", _course(found.course, keep),
            *((x.level, x.slug, x.done, x.total, x.name) for x in found.levels))  # fmt: skip


def vary(value, keep: list) -> Hashable:
    """The key of one thing a part shows (the lessons it names are added to ``keep``). Only
    kinds this module knows: anything else is an error, never a key that might leave out what
    makes two renderings differ."""
    from codeblanks.web.pages.coursemap import CourseMap
    from codeblanks.web.pages.question_display import QuestionView
    from codeblanks.web.pages.selectors import CourseProgress, HintsView, LevelBlock

    if value is None or type(value) in _PLAIN:  # most of what a key holds: no checks below
        return value
    if isinstance(value, Lesson):
        return _lesson(value, keep)
    if isinstance(value, QuestionView):
        return _question_view(value)
    if isinstance(value, LevelBlock):
        return _level_block(value, keep)
    if isinstance(value, Course):
        return _course(value, keep)
    if isinstance(value, CourseProgress):
        return _course_progress(value, keep)
    if isinstance(value, CourseMap):
        return _course_map(value, keep)
    if isinstance(value, HintsView):
        return _fields("hints", value)
    if isinstance(value, list | tuple):
        return tuple(vary(v, keep) for v in value)
    if isinstance(value, str | int | bool) or value is None:
        return value
    kind = type(value).__name__ if not is_dataclass(value) else f"dataclass {type(value).__name__}"
    raise TypeError(f"pagecache.vary: no key for a {kind}; add one in web/pages/pagecache.py")


def part(name: str, shown: tuple, render: Callable[[], str]) -> str:
    """The part ``name`` showing ``shown`` in the request's language, rendered by ``render()``
    the first time (every time when the cache is off)."""
    if not enabled:
        return render()
    keep: list = []
    part_key = (name, get_language(), *(vary(v, keep) for v in shown))
    with _lock:
        found = _parts.get(part_key)
        if found is not None:
            _parts.move_to_end(part_key)
            return found[0]
    made = render()
    with _lock:
        _parts[part_key] = (made, keep)
        while len(_parts) > LIMIT:
            _parts.popitem(last=False)
    return made


def clear() -> None:
    with _lock:
        _parts.clear()
