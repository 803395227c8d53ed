"""How many of the machine's cores sat idle a moment ago, from /proc/stat.

The spares' warm-up buys latency with CPU: worth it while a core is idle, not when the cores are
short. The load average answered that a minute late and counted a node at 60 % of two cores
(load ~1.2) as having a core to spare; the idle time of the last fraction of a second does not.
"""

from __future__ import annotations

import threading
import time

WINDOW_S = 0.25  # a reading older than this is taken again; younger ones are reused


def read_stat(text: str) -> tuple[int, int]:
    """(idle, total) jiffies of all cores from /proc/stat's first line (idle counts iowait: a
    core waiting on a disk could run a warm-up)."""
    fields = text.split("\n", 1)[0].split()
    if not fields or fields[0] != "cpu" or len(fields) < 6:
        raise ValueError("/proc/stat does not start with the 'cpu' line up to iowait")
    # user nice system idle iowait irq softirq steal [guest guest_nice: already in user/nice]
    ticks = [int(f) for f in fields[1:9]]
    return ticks[3] + ticks[4], sum(ticks)


def idle_cores(before: tuple[int, int], after: tuple[int, int], cores: int) -> float | None:
    """The cores' worth of idle time between two readings; None when no tick passed."""
    idle, total = after[0] - before[0], after[1] - before[1]
    if total <= 0:
        return None
    return cores * idle / total


class IdleMeter:
    """``idle_cores()`` over the time since its previous reading (at least ``WINDOW_S``), from
    any thread. None when /proc/stat cannot be read or too little time passed to tell."""

    def __init__(self, cores: int, path: str = "/proc/stat") -> None:
        self.cores, self.path = cores, path
        self.lock = threading.Lock()
        self.last: tuple[float, tuple[int, int]] | None = None
        self.value: float | None = None

    def _read(self) -> tuple[int, int] | None:
        try:
            with open(self.path, encoding="ascii") as f:
                return read_stat(f.readline())
        except (OSError, ValueError):
            return None

    def idle_cores(self) -> float | None:
        now = time.monotonic()
        with self.lock:
            if self.last is not None and now - self.last[0] < WINDOW_S:
                return self.value
            reading = self._read()
            if reading is None:
                return None
            if self.last is not None:
                self.value = idle_cores(self.last[1], reading, self.cores)
            self.last = (now, reading)
            return self.value
