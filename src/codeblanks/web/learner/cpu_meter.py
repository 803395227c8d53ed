"""The run rate as a meter of work: each client has a token bucket of CPU time. It is full
(``burst`` CPU-seconds) when the client has been idle, refills at ``per_minute`` CPU-seconds a
minute, and every run is charged afterwards the CPU it actually used. A run is let in while the
bucket holds anything at all, so a learner's slow-but-honest program is never refused for being
slow; a client whose runs use more than its share runs into debt and waits until it is repaid.

The bucket is kept as one number, the moment it will be full again (``full_at``): its level at
``now`` is ``burst - (full_at - now) * rate`` (capped at ``burst``). A charge of ``c`` moves
``full_at`` to ``max(full_at, now) + c / rate``; that one update is atomic in every store:

* ``LocalStore``: Django's in-process cache under a lock (one process, SQLite alone);
* ``SharedStore``: the node's cache in the parent of ``serve --workers N`` (door/sharedcache.py),
  the charge made there by ``LocalStore``, in one call;
* ``RedisStore``: a short Lua script on the shared Redis, so nodes behind one balancer share
  the bucket (the nodes' clocks are trusted to agree to well under a second).

The clock is a parameter everywhere, so tests drive it rather than wait.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache


@dataclass(frozen=True)
class Bucket:
    """``per_minute`` CPU-seconds earned a minute, up to ``burst`` CPU-seconds banked."""

    per_minute: float
    burst: float

    @property
    def rate(self) -> float:
        """CPU-seconds earned per second of wall time."""
        return self.per_minute / 60

    def level(self, full_at: float, now: float) -> float:
        """CPU-seconds in the bucket at ``now`` (negative: in debt)."""
        return self.burst - max(0.0, full_at - now) * self.rate

    def wait(self, full_at: float, now: float) -> int:
        """Whole seconds until the bucket holds something again (0: it does now)."""
        level = self.level(full_at, now)
        if level > 0:
            return 0
        # The first whole second at which it holds some. The margin keeps a debt that is a
        # whole number of seconds (CPU comes in 10 ms ticks) from being told a second too
        # early by rounding: a Retry-After must be a time the request is let in.
        return math.floor(-level / self.rate + 1e-6) + 1

    def charged(self, full_at: float, now: float, cpu_s: float) -> float:
        """``full_at`` after a charge of ``cpu_s``. Debt is bounded by one burst more, so a
        single enormous charge never locks a client out for hours."""
        moved = max(full_at, now) + cpu_s / self.rate
        return min(moved, now + 2 * self.burst / self.rate)


class LocalStore:
    """Buckets in this process's cache (LocMem), updated under one lock."""

    _lock = threading.Lock()

    def __init__(self, cache) -> None:
        self.cache = cache

    def full_at(self, key: str) -> float:
        return float(self.cache.get(key, 0.0))

    def charge(self, key: str, bucket: Bucket, now: float, cpu_s: float) -> float:
        with self._lock:
            moved = bucket.charged(self.full_at(key), now, cpu_s)
            self.cache.set(key, moved, timeout=_ttl(moved, now))
        return moved


class SharedStore:
    """Buckets in the node's cache kept by the parent of the web workers (door/sharedcache.py):
    a charge is one call there, made by ``LocalStore`` under its lock."""

    def __init__(self, cache) -> None:
        self.cache = cache

    def full_at(self, key: str) -> float:
        return float(self.cache.get(key, 0.0))

    def charge(self, key: str, bucket: Bucket, now: float, cpu_s: float) -> float:
        moved: float = self.cache.update(_charge_here, key, bucket, now, cpu_s)
        return moved


def _charge_here(cache, key: str, bucket: Bucket, now: float, cpu_s: float) -> float:
    """In the parent: the charge on its own cache."""
    return LocalStore(cache).charge(key, bucket, now, cpu_s)


# max(full_at, now) + cpu / rate, capped at now + cap, kept until it is full again.
_CHARGE = """
local full = tonumber(redis.call('GET', KEYS[1]) or '0')
local now, add, cap = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if full < now then full = now end
full = math.min(full + add, now + cap)
redis.call('SET', KEYS[1], string.format('%.6f', full), 'EX', math.ceil(full - now) + 2)
return string.format('%.6f', full)
"""


class RedisStore:
    """Buckets on the shared Redis (``CODEBLANKS_CACHE_URL=redis://…``), one atomic script per
    charge. Keys carry the cache's prefix and version, like every other key of ours."""

    def __init__(self, cache) -> None:
        self.cache = cache

    def _client(self):
        return self.cache._cache.get_client(write=True)

    def full_at(self, key: str) -> float:
        raw = self._client().get(self.cache.make_and_validate_key(key))
        return float(raw) if raw is not None else 0.0

    def charge(self, key: str, bucket: Bucket, now: float, cpu_s: float) -> float:
        script = self._client().register_script(_CHARGE)
        cap = 2 * bucket.burst / bucket.rate
        moved = script(
            keys=[self.cache.make_and_validate_key(key)], args=[now, cpu_s / bucket.rate, cap]
        )
        return float(moved)


def _ttl(full_at: float, now: float) -> int:
    return max(1, math.ceil(full_at - now) + 2)


def store_for(alias: str = "default") -> LocalStore | SharedStore | RedisStore:
    """The store that suits the configured cache."""
    cache = caches[alias]
    if isinstance(cache, LocMemCache):
        return LocalStore(cache)
    if hasattr(cache, "update"):  # door/sharedcache.SharedCache
        return SharedStore(cache)
    return RedisStore(cache)
