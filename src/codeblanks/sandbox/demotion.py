"""Short jobs first: a run that has used more than a small slice of CPU is demoted to
SCHED_IDLE, so that a runaway's remaining CPU goes to the cores only when no well-behaved run
wants them (least-attained service in two classes; docs/sandbox.md, "Short jobs first").

The supervisor's run loop reads the child's CPU from /proc/<pid>/stat and calls ``demote``
once the slice is used. Each thread has its own policy, so every task of the child is demoted;
threads started later inherit it. The child cannot leave SCHED_IDLE: that needs
``RLIMIT_NICE`` to allow nice 0, and the zygote sets it to 0 in every child."""

from __future__ import annotations

import contextlib
import os

TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")
# A demoted run waits for the cores whenever a run that has used less wants them, so on a busy
# node its wall clock no longer says how long the program itself takes: its wall limit is
# stretched this many times, and its CPU limit (RLIMIT_CPU, unchanged) still ends a runaway.
# Without it a right but CPU-hungry grade would be told it ran out of time for others' load.
# The same bound caps the time given back to any run for waiting on a core (``waited_ms``).
DEMOTED_WALL = 4


def cpu_ms(pid: int) -> float | None:
    """utime + stime of the whole process ``pid`` (all its threads), in ms; None if it is
    gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) * TICK_MS


def waited_ms(pid: int) -> float | None:
    """How long the main thread of ``pid`` has waited, runnable, for a core (the kernel's
    run-queue delay, /proc/<pid>/schedstat), in ms; None if it is gone or the kernel keeps no
    such count. NumPy's BLAS runs one thread here, so the main thread is the program."""
    try:
        with open(f"/proc/{pid}/schedstat", "rb") as f:
            return int(f.read().split()[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return None


def demote(pid: int) -> int:
    """Put every thread of ``pid`` under SCHED_IDLE; the number of threads demoted."""
    done = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for tid in tasks:
        with contextlib.suppress(OSError, ValueError):
            os.sched_setscheduler(int(tid), os.SCHED_IDLE, os.sched_param(0))
            done += 1
    return done


def demoted(pid: int) -> bool:
    """Whether the main thread of ``pid`` runs under SCHED_IDLE (tests, metrics)."""
    try:
        return os.sched_getscheduler(pid) == os.SCHED_IDLE
    except OSError:
        return False
