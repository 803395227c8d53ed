"""The serve process's garbage collector, set once the courses are loaded.

Python's cycle collector looks at its youngest objects every 700 net allocations; a request makes
thousands, so every in-flight request's objects (its template context, rows, frames) were seen
alive again and again and moved on to older generations, and the full collections that came of it
(78–91 ms each, every 5–7 s under a crowd) held every request in flight. Here the courses, the
templates and everything else loaded before the first request are frozen out of every later
collection (``gc.freeze``), and the youngest generation is collected every ``young`` allocations:
a request's objects mostly die before they are looked at, fewer are promoted, and a full
collection comes rarely and looks at little. The cost: garbage in reference cycles lives a little
longer (at most ``young`` objects' worth). docs/performance.md, "The collector"."""

from __future__ import annotations

import gc


def settle(young: int) -> None:
    """Freeze what is loaded and collect the youngest generation every ``young`` allocations
    (0: Python's own settings, nothing frozen). The older generations keep Python's ratios."""
    if young <= 0:
        return
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, old)
