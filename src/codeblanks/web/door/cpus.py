"""One core for the web process's threads (``CODEBLANKS_WEB_CPU``).

The web process is one interpreter: its threads take turns holding the GIL. Left to the
scheduler they wander between cores, so every hand-over of the GIL wakes a thread on another
core, whose caches hold none of the interpreter's state. Kept on one core, the hand-overs stay
where the caches are warm. The sandbox's processes keep every core the node was given
(``sandbox.cores.NODE_CPUS``), and so do the workers that read long programs: only the web
process's own threads are held. Nodes started on one machine under "auto" take a core each
while there are cores enough (``claimed``).
Measured in docs/performance.md, "One core for the web process".
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator

from codeblanks.sandbox.cores import NODE_CPUS
from codeblanks.web.door.workers import scratch_folder


def chosen(setting: str, port: int, cpus: frozenset[int] = NODE_CPUS) -> int | None:
    """The core for ``setting`` ("auto", "off" or a core's number), or None for none. "auto"
    takes one only where there are two or more, by the port (``claimed`` moves it off a core
    another node holds)."""
    if setting == "off" or (setting == "auto" and len(cpus) < 2):
        return None
    if setting == "auto":
        return sorted(cpus)[port % len(cpus)]
    return int(setting)


@contextlib.contextmanager
def claimed(
    setting: str, port: int, cpus: frozenset[int] = NODE_CPUS, folder: str | None = None
) -> Iterator[int | None]:
    """``chosen``'s core, held for the block. Under "auto", the first core from it on that no
    other node of this machine (and user) holds: a lock on a file per core where the nodes of a
    machine keep their shared files (/dev/shm, else the temporary folder: ``folder`` for tests),
    which the kernel lets go when the node ends, however it ends. With every core held, the one
    the port picks (nodes then share). A core named in the setting is not claimed."""
    core = chosen(setting, port, cpus)
    if setting != "auto" or core is None:
        yield core
        return
    order = sorted(cpus)
    start = order.index(core)
    folder = folder or scratch_folder() or tempfile.gettempdir()
    held = None
    for candidate in order[start:] + order[:start]:
        held = _lock(folder, candidate)
        if held is not None:
            core = candidate
            break
    try:
        yield core
    finally:
        if held is not None:
            os.close(held)


def _lock(folder: str, core: int) -> int | None:
    """An open file holding ``core`` for this process, or None if another holds it (or the
    folder refuses the file, or another user put a link or a file of theirs there: the core is
    then taken as held). Only locked, never written."""
    path = os.path.join(folder, f"codeblanks-web-core-{os.geteuid()}-{core}")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def keep_on(core: int) -> None:
    """Every thread of this process on ``core``; threads started later inherit it from the
    thread that starts them."""
    for task in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(task), {core})
        except ProcessLookupError:  # a thread that ended meanwhile
            continue
