"""The item analysis page's groups of wrong programs: those no declared mistake matches, grouped
by what they do with ``mistakes suggest``'s own grouping (grading/suggest.py ``group``), so that
a teacher and an author name the same group the same way (its candidate file's name).

Grouping runs each program in the sandbox again, and an ``Attempt`` keeps a program and its
verdict but not its values, so a page never computes it: it asks one background thread to, and
shows what the shared cache holds meanwhile ("computing", or the groups of a little earlier).
The cache keeps one entry per lesson (its version and the page's language) and page (a class's,
or the site's), stamped with the wrong runs it was computed from (their number, the newest's id
and whose they are): a new wrong run, or a learner joining or leaving the class, asks for a new
grouping, and the thread grades only the programs it has not graded before for that lesson
version.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max

from codeblanks import i18n
from codeblanks.content.model import Lesson
from codeblanks.grading.grade import run_sync
from codeblanks.grading.reference import cache_key
from codeblanks.grading.suggest import Candidate, Graded, agraded, distinct, group
from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox import get_sandbox
from codeblanks.web.teaching.corpus_export import wrong_programs, wrong_runs

log = logging.getLogger("codeblanks.web")

KEPT_S = 7 * 24 * 3600  # a grouping nobody looks at for a week is computed again when asked
PARTIAL_S = 300  # one that left programs out (the sandbox could not run them) is tried again
KNOWN_MOST = 2_000  # programs the thread remembers the grade of (then it starts again)

# One daemon thread: a grouping is computed again when asked, so a node that stops need not
# wait for one (a pool's thread would hold the process's exit until its job ended).
_jobs: queue.SimpleQueue[tuple[str, str, Lesson, list[str], str]] = queue.SimpleQueue()
_lock = threading.Lock()
_idle = threading.Condition(_lock)
_thread: threading.Thread | None = None
_busy = 0  # jobs queued or running
_asked: dict[str, str] = {}  # scope -> the stamp queued or being computed for it
_known: dict[tuple[tuple[str, str, str], str, str], Graded] = {}  # the thread's own


@dataclass(frozen=True)
class Where:
    """One case a group fails, and how."""

    case: str
    error: str  # the exception's type (or the verdict) for a run that did not end normally
    output: bool  # its output is right, or not graded
    names: tuple[str, ...]  # the checked values and tests that differ


@dataclass(frozen=True)
class Group:
    name: str  # the file `codeblanks mistakes suggest` writes for the same programs
    count: int  # distinct programs in it
    verdict: str
    said: str  # the grader's first line to its example
    example: str  # its shortest program
    where: tuple[Where, ...]

    @property
    def verdict_label(self) -> str:
        return Verdict.label_of(self.verdict)


@dataclass(frozen=True)
class Groups:
    groups: tuple[Group, ...] = ()
    ready: bool = False  # computed at least once for this lesson and scope
    fresh: bool = False  # computed from the wrong runs there are now
    left_out: int = 0  # programs the sandbox could not run then
    unavailable: bool = False  # the shared cache did not answer


def for_page(lesson: Lesson, users: list[int] | None, where: str) -> Groups:
    """The groups to show now of these users' wrong runs (a class's members; ``None``: the
    site's), on the page ``where`` names (``class:<id>``, ``site``); never waits for the
    sandbox (see the module)."""
    runs = wrong_runs(lesson, users)
    seen = runs.aggregate(last=Max("id"), n=Count("id"))
    if not seen["n"]:
        return Groups(ready=True, fresh=True)
    who = "" if users is None else ",".join(str(u) for u in sorted(users))
    members = hashlib.sha256(who.encode()).hexdigest()[:16]
    scope, stamp = _scope(lesson, where), f"{seen['n']}:{seen['last']}:{members}"
    try:
        kept = cache.get(scope)
    except Exception:
        log.warning("the shared cache did not answer: no groups of wrong programs shown")
        return Groups(unavailable=True)
    fresh = isinstance(kept, dict) and kept.get("stamp") == stamp
    if not fresh:
        _ask(scope, stamp, lesson, users)
    try:
        return Groups(_read(kept["groups"]), True, fresh, int(kept["left_out"]))
    except (KeyError, TypeError, ValueError):  # nothing kept yet (or in an older shape)
        return Groups()


def _scope(lesson: Lesson, where: str) -> str:
    key = repr((cache_key(lesson), i18n.current(), where))
    return "codeblanks:clusters:" + hashlib.sha256(key.encode()).hexdigest()


def _ask(scope: str, stamp: str, lesson: Lesson, users: list[int] | None) -> None:
    """Queue the grouping of these wrong runs, unless it is queued already."""
    global _busy, _thread
    with _lock:
        if _asked.get(scope) == stamp:
            return
        _asked[scope] = stamp
    try:
        programs = wrong_programs(lesson, users)
    except BaseException:
        _forget(scope, stamp)
        raise
    with _lock:
        _busy += 1
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_serve, name="clusters", daemon=True)
            _thread.start()
    _jobs.put((scope, stamp, lesson, programs, i18n.current()))


def _forget(scope: str, stamp: str) -> None:
    with _lock:
        if _asked.get(scope) == stamp:
            del _asked[scope]


def _serve() -> None:
    global _busy
    while True:
        job = _jobs.get()
        try:
            _compute(*job)
        finally:
            with _lock:
                _busy -= 1
                _idle.notify_all()


def _compute(scope: str, stamp: str, lesson: Lesson, programs: list[str], language: str) -> None:
    try:
        with _lock:
            if _asked.get(scope) != stamp:  # a newer grouping was asked for since
                return
        with i18n.language(language):
            groups, left_out = run_sync(_agroups(lesson, programs))
        entry = {"stamp": stamp, "groups": groups, "left_out": left_out}
        cache.set(scope, entry, timeout=PARTIAL_S if left_out else KEPT_S)
    except Exception:  # a thread has no caller to tell: log it, ask again on the next view
        log.exception("the groups of wrong programs of %s could not be computed", lesson.id)
    finally:
        _forget(scope, stamp)


async def _agroups(lesson: Lesson, programs: list[str]) -> tuple[list[dict], int]:
    """Grade each program (once per lesson version: ``_known``), then group them; the groups
    as plain data for the cache, and how many programs the sandbox could not run."""
    if len(_known) > KNOWN_MOST:
        _known.clear()
    version, language, graded, left_out = cache_key(lesson), i18n.current(), [], 0
    for code in distinct(programs):
        one = _known.get((version, language, code))
        if one is None:
            # (this thread is the groups' own: it holds none of the site's permits to lend)
            one = await agraded(lesson, code, get_sandbox())
            if one.grade.verdict.platform:
                left_out += 1
                continue
            _known[version, language, code] = one
        graded.append(one)
    return [_plain(lesson, c) for c in group(lesson, graded)], left_out


def _plain(lesson: Lesson, candidate: Candidate) -> dict:
    where = [
        {
            "case": case,
            "error": how.error or "",
            "output": how.output,
            "names": sorted(how.wrong | how.tests),
        }
        for case, how in candidate.fails(lesson)
    ]
    return {
        "name": candidate.name,
        "count": candidate.count,
        "verdict": str(candidate.grade.verdict),
        "said": candidate.grade.feedback[0] if candidate.grade.feedback else "",
        "example": candidate.code,
        "where": where,
    }


def _read(groups: list[dict]) -> tuple[Group, ...]:
    return tuple(
        Group(
            g["name"],
            g["count"],
            g["verdict"],
            g["said"],
            g["example"],
            tuple(Where(w["case"], w["error"], w["output"], tuple(w["names"])) for w in g["where"]),
        )
        for g in groups
    )


def wait_computed(timeout: float) -> bool:
    """Wait until every grouping asked for is done; False if some still are not after
    ``timeout`` seconds. For tests."""
    with _idle:
        return _idle.wait_for(lambda: _busy == 0, timeout)
