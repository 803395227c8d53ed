"""The web process's cycle collector, set once the courses are loaded.

Python looks at its youngest objects every 700 net allocations, and a request makes thousands:
each request's objects were seen alive several times and moved on to older generations, whose
collections then came often, and the full ones (80–140 ms) held every request in flight. Here
what is loaded before the first request (the courses, the templates, Django) is frozen out of
every later collection (``gc.freeze``), and the youngest generation is collected every ``young``
allocations: fewer of a request's objects outlive it in the collector's eyes, and a full
collection comes less often and looks at less. The cost: garbage in reference cycles waits at
most ``young`` allocations longer. docs/performance.md, "The collector"."""

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
