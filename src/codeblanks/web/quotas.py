"""The limits every run passes before it reaches the sandbox: program size, characters that can
be kept, and programs per minute per client address (a request is charged every program it may
run, before it runs). Counts live in Django's cache, so nodes that share a cache (Redis) share
the limit. A refusal is a value with the HTTP status and words for the learner."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from codeblanks.web.outages import cache_gap
from codeblanks.web.texts import unkeepable

log = logging.getLogger("codeblanks.web")


@dataclass(frozen=True)
class Refusal:
    status: int  # 413, 422 or 429
    error: str  # machine-readable
    message: str  # for people


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
    )


async def _count(key: str, cost: int = 1) -> int:
    """This minute's count for ``key``, ``cost`` more than before. With the in-process cache
    (LocMem) the count is a dict operation under a lock, done right here on the event loop;
    with Redis it is two network round trips, done in a worker thread so a slow Redis never
    stalls the loop. (Django's ``aadd``/``aincr`` would hop to a thread three times, and
    their ``aincr`` is a get then a set: not atomic.)"""
    if isinstance(caches["default"], LocMemCache):
        return _count_now(key, cost)
    return await sync_to_async(_count_now, thread_sensitive=False)(key, cost)


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
