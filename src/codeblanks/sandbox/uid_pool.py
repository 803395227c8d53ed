"""The uids the sandbox's children run as: a range of our own, each uid reused only after its
child was reaped (and, after a zygote died, after a pause)."""

from __future__ import annotations

import collections
import itertools
import os
import time

_instances = itertools.count()
RANGE_BASE = 1_000_000_000
MAX_UIDS = 1024


class UidPool:
    """Free uids and cooling ones. Not locked: its owner (``SparePool``) holds its lock."""

    def __init__(self, size: int) -> None:
        # A uid range of our own (one web process may host several sandboxes, one host several
        # web processes): each live child holds one uid, reused only after it was reaped.
        self.start = RANGE_BASE + ((os.getpid() * 8 + next(_instances)) % 1_000_000) * MAX_UIDS
        self.free = collections.deque(range(self.start, self.start + min(size, MAX_UIDS)))
        self.cooling: list[tuple[float, int]] = []  # (reusable after, uid)

    def take(self) -> int | None:
        """A free uid (cooled ones count again), or None if every uid is in use."""
        if self.cooling:
            now = time.monotonic()
            self.free.extend(uid for t, uid in self.cooling if t <= now)
            self.cooling = [(t, uid) for t, uid in self.cooling if t > now]
        return self.free.popleft() if self.free else None

    def give_back(self, uid: int) -> None:
        """Its child was reaped: the uid can be used at once."""
        self.free.append(uid)

    def cool(self, uid: int, seconds: float) -> None:
        """Its child's processes may still count against RLIMIT_NPROC for a moment: reuse the
        uid only after ``seconds``."""
        self.cooling.append((time.monotonic() + seconds, uid))
