"""The spare children: asked of the zygote ahead of need, so that a run finds one ready.

A spare is *pending* from the SPAWN until its HELLO, then (where cgroups are available) *joining*
its memory group on the ``Joiner``'s thread, then *ready*; a run *takes* it. Every spare is
*live* until the zygote reports its EXIT, which gives its uid back.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import logging
import os
import selectors
import threading
import time
from collections.abc import Callable

from codeblanks.sandbox.cgroups import Cgroups, Joiner
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.idle import IdleMeter
from codeblanks.sandbox.inside import wire
from codeblanks.sandbox.spare import Spare
from codeblanks.sandbox.uid_pool import UidPool
from codeblanks.sandbox.zygote_process import ZygoteProcess

log = logging.getLogger("codeblanks.sandbox")

SPARE_WAIT_S = 30.0


# "auto" warms spares up while at least this share of the machine sat idle: a quarter busy at
# most. At a third busy (two cores, 30 steps/s) the warm-up cost 13-15 % of a step's CPU and
# bought no step p95 (docs/performance.md, "The trusted warm-up").
WARM_IDLE_SHARE = 0.75


def _warm_up_now(config: SandboxConfig, idle: IdleMeter) -> bool:
    """Whether the next spare runs the trusted warm-up. "auto": while the machine sat mostly
    idle in the last quarter second (``WARM_IDLE_SHARE``), so the faults are taken off the
    learner's clock with CPU nobody wanted; when it is busier the warm-up is skipped (2-3 ms of
    CPU less per child, the faults then on the learner's clock, where a queue's wait dwarfs
    them). Without /proc/stat: while the load average is below a quarter of the cores."""
    if config.warm_up in ("always", "never"):
        return config.warm_up == "always"
    cores = idle.idle_cores()
    if cores is not None:
        return cores >= WARM_IDLE_SHARE * config.cores
    try:
        return os.getloadavg()[0] < (1 - WARM_IDLE_SHARE) * config.cores
    except OSError:
        return True


def _unwatch(sel: selectors.BaseSelector, spare: Spare) -> None:
    with contextlib.suppress(KeyError, ValueError):
        sel.unregister(spare.chan)


class SparePool:
    """The spares and their states, under one lock. The I/O thread tops them up and hears of
    them; runs ``take`` them between ``begin_run`` and ``end_run``; ``kick`` wakes that thread."""

    def __init__(
        self,
        config: SandboxConfig,
        zygote: ZygoteProcess,
        uids: UidPool,
        cgroups: Cgroups | None,
        sel: selectors.BaseSelector,
        kick: Callable[[], None],
    ) -> None:
        self.config, self.zygote, self.uids, self.sel, self.kick = config, zygote, uids, sel, kick
        self.lock = threading.Lock()
        self.ready_cond = threading.Condition(self.lock)
        self.running = 0  # runs holding a spare right now
        self.ready: collections.deque[Spare] = collections.deque()
        self.pending: dict[str, Spare] = {}  # asked for, no HELLO yet
        self.live_joining = 0  # said HELLO, joining their memory group
        self.live: dict[str, Spare] = {}  # not yet reaped (pending, ready, running, exiting)
        self.generation = 0
        self.closed = False
        self.broken: str | None = None
        self.failures = 0  # spares in a row that died before HELLO
        self.retry_at = 0.0
        self.counter = itertools.count()
        self.joiner = Joiner(cgroups, self._joined) if cgroups is not None else None
        self.idle = IdleMeter(config.cores)

    def _stocked(self) -> int:
        return len(self.ready) + len(self.pending) + self.live_joining

    def top_up(self) -> None:
        """Ask the zygote for spares until ``spare_count`` are ready or on their way."""
        while True:
            with self.lock:
                stocked = self._stocked()
                if (
                    self.closed
                    or self.zygote.ctl is None
                    or time.monotonic() < self.retry_at
                    or stocked >= self.config.spare_count
                    # While programs run, fork only if fewer spares than cores are left: a fork
                    # and a warm-up cost CPU the running programs (a grading burst) need.
                    or (self.running and stocked >= self.config.cores)
                ):
                    return
                uid = self.uids.take()
                if uid is None:
                    return
                generation = self.generation
            spare = self._spawn(uid, generation)
            if spare is None:
                with self.lock:
                    self.uids.give_back(uid)
                return

    def _spawn(self, uid: int, generation: int) -> Spare | None:
        child_id = f"c{next(self.counter)}"
        spare = self.zygote.spawn(child_id, uid, generation, _warm_up_now(self.config, self.idle))
        if spare is not None:
            with self.lock:
                self.live[spare.id] = spare
                self.pending[spare.id] = spare
            self.sel.register(spare.chan, selectors.EVENT_READ, spare)
        return spare

    def on_hello(self, spare: Spare) -> None:
        """The spare is locked down and warm: ready, or first into its memory group."""
        try:
            msg, fds = wire.recv_fds(spare.chan, 1, 1)
        except BlockingIOError:
            return
        except OSError:
            msg, fds = b"", []
        _unwatch(self.sel, spare)
        with self.lock:
            if self.pending.pop(spare.id, None) is None:
                for fd in fds:
                    os.close(fd)
                return
            if msg != wire.HELLO or len(fds) != 1:
                for fd in fds:
                    os.close(fd)
                spare.close()
                return
            spare.said_hello(fds[0])
            self.failures = 0
            self.broken = None
            if self.joiner is None:
                self.ready.append(spare)
                self.ready_cond.notify()
                return
            self.live_joining += 1
        self.joiner.put(spare)

    def _joined(self, spare: Spare) -> bool:
        """The ``Joiner`` is done with it: ready if it is still alive and accounted for."""
        with self.lock:
            self.live_joining -= 1
            if spare.group is not None and spare.id in self.live and not spare.zygote_died:
                self.ready.append(spare)
                self.ready_cond.notify()
                return True
        return False

    def on_exit(self, child_id: str, status: int, cpu_ms: int) -> None:
        """The zygote reaped a child: its uid is free again, its run learns how it ended."""
        with self.lock:
            spare = self.live.pop(child_id, None)
            if spare is None:
                return
            self.uids.give_back(spare.uid)
            spare.wait_status, spare.cpu_ms = status, cpu_ms
            spare.exited.set()
            if self.pending.pop(child_id, None) is not None:
                _unwatch(self.sel, spare)
                spare.close()
                self.failures += 1
                if self.failures >= 5:
                    # Something in the set-up is broken: stop hammering the zygote for a while.
                    self.broken = "children of the sandbox fail during set-up (see the log)"
                    self.retry_at = time.monotonic() + 5.0
                    self.ready_cond.notify_all()
                log.error("a spare child died during set-up (status %s)", status)
            elif spare in self.ready:
                self.ready.remove(spare)
                spare.close()

    def zygote_died(self) -> None:
        """Every child died with PID 1: tell the runs in flight, drop the rest."""
        with self.lock:
            self.generation += 1
            for spare in list(self.live.values()):
                spare.zygote_died = True
                spare.exited.set()
                # Its processes are being killed with the namespace, but may still count against
                # RLIMIT_NPROC for a moment: reuse these uids only after a pause.
                self.uids.cool(spare.uid, 2.0)
            for spare in [*self.ready, *self.pending.values()]:
                # Unregistered before closed: a closed socket left in the selector keeps its fd
                # number there, and the next socket given that number cannot be registered.
                _unwatch(self.sel, spare)
                spare.close()
            self.live.clear()
            self.ready.clear()
            self.pending.clear()

    def set_broken(self, why: str | None) -> None:
        """Why no spare can come (None: they can again); waiting runs hear of it at once."""
        with self.lock:
            self.broken = why
            if why is not None:
                self.ready_cond.notify_all()

    def begin_run(self) -> bool:
        """A run starts (False: the pool is closed); while runs go on, fewer spares are forked."""
        with self.lock:
            if self.closed:
                return False
            self.running += 1
            return True

    def end_run(self) -> None:
        with self.lock:
            self.running -= 1
        self.kick()  # refill the spares (at once if idle now, see top_up)

    def take(self) -> Spare | None:
        """A ready spare, waiting up to ``SPARE_WAIT_S`` for one; None if none can come."""
        deadline = time.monotonic() + SPARE_WAIT_S
        with self.lock:
            while not self.ready:
                left = deadline - time.monotonic()
                starting = self.pending or self.live_joining
                if self.closed or left <= 0 or (self.broken and not starting):
                    return None
                self.ready_cond.wait(min(left, 0.5))
            spare = self.ready.popleft()
            low = self._stocked() < self.config.cores
        if low:
            self.kick()
        return spare

    def close(self) -> bool:
        """Refuse new runs and wake the waiting ones; False if it was closed already."""
        with self.lock:
            if self.closed:
                return False
            self.closed = True
            self.ready_cond.notify_all()
        return True

    def close_spares(self) -> None:
        """After the zygote's end: tell the runs still in flight that their child is gone (no
        I/O thread is left to notice; they would wait out their wall limit), close the spares
        never used, and stop the joiner."""
        with self.lock:
            for spare in list(self.live.values()):
                spare.zygote_died = True
                spare.exited.set()
            self.live.clear()
        for spare in [*self.ready, *self.pending.values()]:
            spare.close()
        if self.joiner is not None:
            self.joiner.close()
