"""The limits every run passes before it reaches the sandbox: program size, characters that can
be kept, and the work a client address may ask for: CPU time from a token bucket (cpu_meter.py;
charged after the run, with what it used), a cap on its runs at once, and, if set, a ceiling on
programs per minute (charged before the run, every program it may run). Counts live in
Django's cache, so nodes that share a cache (Redis) share the limits. A refusal is a value with
the HTTP status, words for the learner and, for a 429, when to try again.

A run (the lesson page's Run, the API's grade and bare run) meets the web's limits in this
order, each refusal stopping it before the next: a new anonymous learner past the address's
share (the page only: ``views/common.new_learner_limited``), the program's size and characters
(``code_refusal``), the client's programs per minute, CPU share and runs at once (``metered``),
then the learner's room for saved code (``room_refusal``, checked by the store in the hop that
saves). ``run_limits`` is the one call the Run paths make for the middle three. The page's Run
sets a 429's Retry-After from the refusal, a question's Check through ``tells_when_to_retry``."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from codeblanks import inline
from codeblanks.learning.texts import unkeepable
from codeblanks.learning.tutor import Refused
from codeblanks.sandbox.service import cpu_tally
from codeblanks.web.door.outages import cache_gap
from codeblanks.web.learner import cpu_meter

log = logging.getLogger("codeblanks.web")


@dataclass(frozen=True)
class Refusal:
    status: int  # 413, 422 or 429
    error: str  # machine-readable
    message: str  # for people
    retry_after: int | None = None  # seconds, for a 429's Retry-After header


def headers(refusal: Refused) -> dict[str, str]:
    """The HTTP headers a refusal's response carries (Retry-After on a 429)."""
    return {"Retry-After": str(refusal.retry_after)} if refusal.retry_after else {}


_last_refusal: contextvars.ContextVar[Refusal | None] = contextvars.ContextVar(
    "codeblanks_last_refusal", default=None
)


def tells_when_to_retry(view):
    """For an async view that renders a page for a refusal (the lesson page's Run and blanks):
    its 429 gets the Retry-After of the refusal this request met (the refusal is remembered
    in the request's context, which a directly awaited view shares)."""

    @functools.wraps(view)
    async def wrapped(request, *args, **kwargs):
        token = _last_refusal.set(None)
        try:
            response = await view(request, *args, **kwargs)
            refusal = _last_refusal.get()
        finally:
            _last_refusal.reset(token)
        if response.status_code == 429 and refusal is not None:
            for name, value in headers(refusal).items():
                response.headers.setdefault(name, value)
        return response

    return wrapped


def size_refusal(code: str) -> Refusal | None:
    limit = settings.CODEBLANKS.max_code_bytes
    size = len(code.encode("utf-8", errors="surrogatepass"))
    if size <= limit:
        return None
    return Refusal(
        413,
        "too-large",
        _("The program is %(size)s bytes; the limit is %(limit)s bytes. Shorten it and run again.")
        % {
            "size": number_format(size, force_grouping=True),
            "limit": number_format(limit, force_grouping=True),
        },
    )


def room_refusal(used: int, code: str, words: str) -> Refusal | None:
    """The one room check (saved code in the store, drafts in ``drafts``): a refusal, in
    ``words`` (translated, with %(used)s, %(size)s and %(limit)s to fill), when ``used`` bytes
    kept in other lessons and ``code`` together pass CODEBLANKS_LEARNER_CODE_BYTES."""
    limit = settings.CODEBLANKS.learner_code_bytes
    size = len(code.encode("utf-8"))
    if used + size <= limit:
        return None
    numbers = {"used": used, "size": size, "limit": limit}
    return Refusal(
        413,
        "too-much-code",
        words % {key: number_format(n, force_grouping=True) for key, n in numbers.items()},
    )


def code_refusal(code: str) -> Refusal | None:
    """What is wrong with a program before anything is done with it: its size, or a character
    that cannot be kept."""
    return size_refusal(code) or character_refusal(code)


def character_refusal(code: str) -> Refusal | None:
    """Characters that cannot be kept: a NUL (PostgreSQL text refuses it, and it is no Python
    anyway) or a lone surrogate (no UTF-8 text holds one; JSON can send it)."""
    bad = unkeepable(code)
    if bad is None:
        return None
    if bad.is_nul:
        return Refusal(
            422,
            "nul-character",
            _(
                "The program has a NUL character (\\x00) on line %(line)s, so it was neither "
                "saved nor run. Remove it and run again."
            )
            % {"line": bad.line},
        )
    return Refusal(
        400,
        "bad-character",
        _(
            "The program has a lone surrogate (%(char)s) on line %(line)s: half of a character, "
            "which no UTF-8 text can hold, so it was neither saved nor run. Send the program as "
            "UTF-8 text."
        )
        % {"char": bad.char, "line": bad.line},
    )


async def rate_refusal(client: str, programs: int = 1) -> Refusal | None:
    """Charges ``programs`` runs to the client's minute; a refusal once the rate is used up. A
    request that may run more programs than the whole rate is charged the rate (it can run
    once a minute rather than never)."""
    rate = settings.CODEBLANKS.run_rate
    if rate <= 0:
        return None
    cost = max(1, min(programs, rate))
    window = int(time.time() // 60)
    key = f"codeblanks:runs:{client}:{window}"
    try:
        count = await _count(key, cost)
    except Exception:  # the shared cache is down: let learners run rather than fail them all
        cache_gap.failed("runs go on without the rate limit")
        return None
    cache_gap.answered()
    if count <= rate:
        return None
    wait = 60 - int(time.time()) % 60
    return Refusal(
        429,
        "rate-limited",
        _(
            "You have run %(rate)s programs this minute, the most we allow (a check on hidden "
            "cases counts each case). Try again in %(wait)s s."
        )
        % {"rate": rate, "wait": wait},
        retry_after=wait,
    )


def _shared_thread(func):
    """How the loop hands a call to Redis off itself: asgiref's shared thread."""
    return sync_to_async(func, thread_sensitive=False)


async def _count(key: str, cost: int = 1) -> int:
    """This minute's count for ``key``, ``cost`` more than before. With the in-process cache
    (LocMem) the count is a dict operation under a lock, done right here on the event loop;
    with Redis it is two network round trips, done in a worker thread so a slow Redis never
    stalls the loop. (Django's ``aadd``/``aincr`` would hop to a thread three times, and
    their ``aincr`` is a get then a set: not atomic.)"""
    if isinstance(caches["default"], LocMemCache):
        return _count_now(key, cost)
    return await inline.hop(_shared_thread, _count_now, key, cost)


def _count_now(key: str, cost: int = 1, timeout: int = 61) -> int:
    # add() is a no-op when the key exists; incr() is atomic in Redis and under the locmem lock.
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key, cost)
    except ValueError:  # the key expired between add and incr
        cache.set(key, cost, timeout=timeout)
        return cost


def window_count(key: str, window_s: int) -> int | None:
    """Count one more ``key`` in this window of ``window_s`` seconds (the hour, say) and return
    the window's count; None when the shared cache does not answer (then nothing is limited, as
    for runs). Synchronous: for views and services that already run in a thread."""
    window = int(time.time() // window_s)
    try:
        count = _count_now(f"codeblanks:{key}:{window}", 1, timeout=window_s + 1)
    except Exception:
        cache_gap.failed("new learners and password resets go on without their limits")
        return None
    cache_gap.answered()
    return count


def window_left(window_s: int) -> timedelta:
    """How long until the current window of ``window_s`` seconds ends (a refusal's wait)."""
    return timedelta(seconds=window_s - int(time.time()) % window_s)


# ---- CPU time: a token bucket per client, charged with what its runs used ---------------------

# What the web side spends on one program besides the program's own CPU (parsing, judging, the
# sandbox's hand-offs: benchmarks/cpu_per_grade.py measures ~10 ms), charged per program run so
# a flood of empty programs is metered too.
OVERHEAD_S = 0.01
AT_ONCE_RETRY_S = 2  # a refusal for runs at once: most runs end well within this
clock = time.time  # the buckets' clock; tests replace it rather than wait


def _bucket() -> cpu_meter.Bucket | None:
    c = settings.CODEBLANKS
    if c.run_cpu_per_minute <= 0:
        return None
    return cpu_meter.Bucket(c.run_cpu_per_minute, c.run_cpu_burst)


def _admit_now(client: str) -> Refusal | None:
    """Let one request's runs in, or refuse them; takes one of the client's places at once."""
    bucket, at_once = _bucket(), settings.CODEBLANKS.runs_at_once
    if bucket is not None:
        wait = bucket.wait(cpu_meter.store_for().full_at(f"codeblanks:cpu:{client}"), clock())
        if wait:
            return Refusal(
                429,
                "cpu-limited",
                _(
                    "Your programs have used up the share of the server's time we keep for one "
                    "address for now. Try again in %(wait)s s; a program that finishes sooner "
                    "uses less of it."
                )
                % {"wait": wait},
                retry_after=wait,
            )
    if at_once > 0:
        running = _count_now(f"codeblanks:running:{client}", 1, timeout=300)
        if running > at_once:
            _release_now(client)
            return Refusal(
                429,
                "too-many-at-once",
                _(
                    "%(running)s of your programs are running already, the most we run at once "
                    "for one address. Try again in %(wait)s s, when one has finished."
                )
                % {"running": at_once, "wait": AT_ONCE_RETRY_S},
                retry_after=AT_ONCE_RETRY_S,
            )
    return None


def _release_now(client: str) -> None:
    with contextlib.suppress(ValueError):  # the count expired meanwhile: nothing to give back
        cache.decr(f"codeblanks:running:{client}")


def _settle_now(client: str, cpu_s: float | None) -> None:
    """Give the place back and charge ``cpu_s`` (None: the request was refused before it ran)."""
    if settings.CODEBLANKS.runs_at_once > 0:
        _release_now(client)
    bucket = _bucket()
    if bucket is not None and cpu_s:
        cpu_meter.store_for().charge(f"codeblanks:cpu:{client}", bucket, clock(), cpu_s)


async def _in_cache(call, *args):
    """``call(*args)`` on the loop with the in-process cache, in a worker thread with Redis (as
    ``_count``); None, and the gap logged once, when the shared cache does not answer."""
    try:
        if isinstance(caches["default"], LocMemCache):
            answer = call(*args)
        else:
            answer = await inline.hop(_shared_thread, call, *args)
    except Exception:
        cache_gap.failed("runs go on without the rate limit")
        return None
    cache_gap.answered()
    return answer


@contextlib.asynccontextmanager
async def metered(client: str, programs: int = 1) -> AsyncIterator[Refusal | None]:
    """Around everything a request runs: yields a refusal (the body must not run), or None and
    then charges the client the CPU its runs used (each run's own, as the sandbox measured it,
    plus ``OVERHEAD_S``) and gives its place back, however the body ends."""
    refusal = await rate_refusal(client, programs) or await _in_cache(_admit_now, client)
    if refusal is not None:
        _last_refusal.set(refusal)
        yield refusal
        return
    with cpu_tally() as used:
        try:
            yield None
        finally:
            await _in_cache(_settle_now, client, sum(used) + OVERHEAD_S * len(used))


# A ``learning.tutor.Quota`` that yields this module's refusals (the API's bare run reads them).
RunLimits = Callable[[str, int], contextlib.AbstractAsyncContextManager[Refusal | None]]


def run_limits(client: str) -> RunLimits:
    """The web's limits on one run, as the tutor's quota hook (module docstring: the order):
    the program's size and characters, then ``metered`` (charged what the runs used)."""

    @contextlib.asynccontextmanager
    async def quota(code: str, programs: int) -> AsyncIterator[Refusal | None]:
        if (refusal := code_refusal(code)) is not None:
            yield refusal
            return
        async with metered(client, programs) as refusal:
            yield refusal

    return quota
