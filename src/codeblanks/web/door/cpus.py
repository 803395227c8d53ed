"""One core for the web process's threads (``CODEBLANKS_WEB_CPU``).

The web process is one interpreter: its threads take turns holding the GIL. Left to the
scheduler they wander between cores, so every hand-over of the GIL wakes a thread on another
core, whose caches hold none of the interpreter's state. Kept on one core, the hand-overs stay
where the caches are warm. The sandbox's processes keep every core the node was given
(``sandbox.cores.NODE_CPUS``), and so do the workers that read long programs: only the web
process's own threads are held.
Measured in docs/performance.md, "One core for the web process".
"""

from __future__ import annotations

import os

from codeblanks.sandbox.cores import NODE_CPUS


def chosen(setting: str, port: int, cpus: frozenset[int] = NODE_CPUS) -> int | None:
    """The core for ``setting`` ("auto", "off" or a core's number), or None for none. "auto"
    takes one only where there are two or more, by the port. Nodes sharing a machine are given a
    core each instead (``make cluster`` does: deploy/cluster.py)."""
    if setting == "off" or (setting == "auto" and len(cpus) < 2):
        return None
    if setting == "auto":
        return sorted(cpus)[port % len(cpus)]
    return int(setting)


def keep_on(core: int) -> None:
    """Every thread of this process on ``core``; threads started later inherit it from the
    thread that starts them."""
    for task in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(task), {core})
        except ProcessLookupError:  # a thread that ended meanwhile
            continue
