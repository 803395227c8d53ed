"""The trusted side: starts and watches the zygote, keeps spare children ready, runs programs.

Threads:
* one I/O thread owns the zygote's control socket (``ZygoteProcess``): it asks for spares
  (``SparePool``, keeping ``spare_count`` ready), collects their HELLO (the pidfd), reaps EXIT
  reports, and restarts a dead zygote;
* where cgroups are available, one thread moves each new spare into its memory group
  (``cgroups.Joiner``) before it becomes ready;
* each ``run()`` happens in its caller's thread, once the ``Scheduler`` gave it a slot: a ready
  spare, then ``execute.execute`` talks to that spare directly. Nothing passes through the zygote.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import logging
import os
import selectors
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from codeblanks.sandbox import demotion, seccomp
from codeblanks.sandbox.cgroups import Cgroups
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.execute import Stop, execute, stop_at_failure
from codeblanks.sandbox.inside import wire
from codeblanks.sandbox.preflight import SandboxUnavailable
from codeblanks.sandbox.result import ERROR, SANDBOX_ERROR, RunLimits, RunResult
from codeblanks.sandbox.spare import Spare
from codeblanks.sandbox.spare_pool import SparePool
from codeblanks.sandbox.uid_pool import UidPool
from codeblanks.sandbox.zygote_process import ZygoteProcess

if TYPE_CHECKING:
    import subprocess

log = logging.getLogger("codeblanks.sandbox")


def _batch(
    codes: list[str],
    filename: str,
    limits: RunLimits,
    capture: tuple[str, ...],
    stdins: list[str] | None = None,
) -> list[str]:
    """The first of ``codes`` that one child takes: at most ``wire.MAX_CASES`` programs and
    ``wire.MAX_REQUEST_BYTES`` in all (with their standard inputs), none over
    ``wire.MAX_CODE_BYTES`` with its header. Empty if the first program alone is too large."""
    head = _head_size(filename, limits, capture)
    batch: list[str] = []
    total = head
    for index, code in enumerate(codes[: wire.MAX_CASES]):
        size = len(code.encode("utf-8", "surrogatepass"))
        given = stdins[index] if stdins and index < len(stdins) else ""
        extra = len(given.encode("utf-8", "surrogatepass")) + 16  # and its size in the header
        if head + size > wire.MAX_CODE_BYTES or (
            batch and total + size + extra > wire.MAX_REQUEST_BYTES
        ):
            break
        batch.append(code)
        total += size + extra
    return batch


@functools.lru_cache(maxsize=64)
def _head_size(filename: str, limits: RunLimits, capture: tuple[str, ...]) -> int:
    """The size of a request's header with one empty program (a few lessons' limits and files:
    remembered, not encoded again for every run)."""
    return len(wire.encode_request(filename, dataclasses.asdict(limits), list(capture), [""]))


def _first_child(pid: int) -> int | None:
    """The launcher's child (the zygote, PID 1 of the sandbox's namespace), None if gone."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = f.read().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def _tree_groups(config: SandboxConfig, uid_start: int) -> Cgroups | None:
    """The tree's group and the run groups, or None (rlimits alone) with a warning."""
    if config.unsafe or not config.cgroups:
        return None
    pids = (config.slots + config.spare_count) * (RunLimits().threads + 4) + 64
    name = f"{os.getpid()}-{uid_start % 1_000_000}"
    cgroups, why = Cgroups.create(name, config.tree_memory_mb, pids)
    if cgroups is None:
        log.warning(
            "sandbox: %s, so a run's memory is bounded by RLIMIT_AS alone (memfds are "
            "refused), nothing caps the sandbox tree as a whole, and a run past its CPU slice "
            "is demoted by SCHED_IDLE alone",
            why,
        )
    elif not config.demoted_weight:
        log.info("sandbox: a run past its CPU slice is demoted by SCHED_IDLE alone")
    else:
        why = cgroups.weigh(config.fresh_weight, config.demoted_weight)
        if why:
            log.warning("sandbox: %s, so a run past its slice is demoted by SCHED_IDLE alone", why)
        else:
            log.info(
                "sandbox: cpu weights: fresh runs %d, demoted runs %d (cgroup v1 cpu.shares)",
                config.fresh_weight, config.demoted_weight,
            )  # fmt: skip
    return cgroups


def _demote(cgroups: Cgroups | None, pid: int) -> None:
    """Short jobs first: SCHED_IDLE at once (one system call per thread), then, where the cpu
    groups exist, the move to the low-weight group, which holds against the web process and
    every other group too (a move may wait for an RCU grace period: this run's thread waits,
    and the runaway is already idle meanwhile)."""
    demotion.demote(pid)
    cpu = cgroups.cpu if cgroups is not None else None
    if cpu is not None:
        cpu.demote(pid)


class Supervisor:
    """The zygote, the spares and the uids together, with the I/O thread that keeps them."""

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.restarts = 0  # zygotes that died and were started again (metrics)
        # Zygotes started so far (1 once the first is up) and the last one's launcher, changed
        # together under ``up``: ``wait_zygote`` waits on them.
        self.started = 0
        self.launched: subprocess.Popen[bytes] | None = None
        self.up = threading.Condition()
        self.uids = UidPool(max(64, 4 * (config.spare_count + config.slots)))
        self.cgroups = _tree_groups(config, self.uids.start)
        deny_memfd = self.cgroups is None
        filters = (
            (seccomp.zygote_filter(), seccomp.child_filter(deny_memfd))
            if not config.unsafe
            else (b"", b"")
        )
        self.wake_r, self.wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.wake_r, selectors.EVENT_READ, "wake")
        self.zygote = ZygoteProcess(config, filters, self.cgroups, self.sel)
        try:
            self.zygote.launch()
        except BaseException:
            self.sel.close()
            os.close(self.wake_r)
            os.close(self.wake_w)
            raise
        self._now_up()
        self.pool = SparePool(config, self.zygote, self.uids, self.cgroups, self.sel, self._kick)
        self.thread = threading.Thread(target=self._loop, name="sandbox-supervisor", daemon=True)
        self.thread.start()
        self._kick()

    # What the service and the tests look at.
    @property
    def proc(self) -> subprocess.Popen[bytes] | None:
        return self.zygote.proc

    @property
    def ready(self) -> collections.deque[Spare]:
        return self.pool.ready

    @property
    def broken(self) -> str | None:
        return self.pool.broken

    @property
    def closed(self) -> bool:
        return self.pool.closed

    # ---- the I/O thread ---------------------------------------------------------------------

    def _kick(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.wake_w, b"x")

    def _loop(self) -> None:
        """The I/O thread. It must never die: an unexpected error is logged and the zygote
        restarted, so that the sandbox heals instead of leaving every later run waiting."""
        while not self.pool.closed:
            try:
                self._turn()
            except Exception:
                log.exception("the sandbox's I/O thread hit an unexpected error; restarting")
                with contextlib.suppress(Exception):
                    self._zygote_died()
                time.sleep(0.05)

    def _turn(self) -> None:
        """One pass: restart a dead zygote, top the spares up, handle what is ready."""
        if self.zygote.ctl is None:
            self._zygote_died()
            return
        self.pool.top_up()
        generation = self.pool.generation
        for key, _ in self.sel.select(timeout=1.0):
            if key.data == "wake":
                try:
                    while os.read(self.wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
            elif key.data == "ctl":
                self._on_ctl()
            elif key.data == "stderr":
                self.zygote.on_stderr(key.fileobj)  # type: ignore[arg-type]
            elif isinstance(key.data, Spare):
                self.pool.on_hello(key.data)
            if self.zygote.ctl is None or self.pool.generation != generation:
                break  # the zygote died: the other events belong to the old one

    def _on_ctl(self) -> None:
        while (msg := self.zygote.receive()) is not None:
            if not msg:
                self._zygote_died()
                return
            parts = msg.split()
            if (
                len(parts) == 4
                and parts[0] == wire.EXIT
                and parts[2].isdigit()
                and parts[3].isdigit()
            ):
                self.pool.on_exit(parts[1].decode(errors="replace"), int(parts[2]), int(parts[3]))

    def _zygote_died(self) -> None:
        """Every child died with PID 1: fail the runs in flight clearly, then start a new one."""
        log.error("the sandbox zygote died; restarting it")
        self.restarts += 1
        self.pool.zygote_died()
        self.zygote.died()
        for attempt in range(5):
            if self.pool.closed:
                return
            try:
                self.zygote.launch()
                self.pool.set_broken(None)
                self._now_up()
                return
            except SandboxUnavailable as e:
                self.pool.set_broken(str(e))
                time.sleep(0.2 * (attempt + 1))

    def threads(self) -> list[threading.Thread]:
        """The threads this keeps: the I/O thread and, with cgroups, the joiner's."""
        joiner = self.pool.joiner
        return [self.thread] + ([joiner.thread] if joiner is not None else [])

    def _now_up(self) -> None:
        with self.up:
            self.started += 1
            self.launched = self.zygote.proc
            self.up.notify_all()

    def wait_zygote(self, after: int, timeout: float) -> tuple[int, int]:
        """The zygote running now, once more than ``after`` have started: its number (1 for
        the first, one more per restart) and its host pid. Waits through a restart in progress
        rather than reading half-changed state; TimeoutError if none is up in time."""
        deadline = time.monotonic() + timeout
        with self.up:
            while True:
                proc = self.launched
                pid = _first_child(proc.pid) if proc is not None else None
                if self.started > after and pid is not None:
                    return self.started, pid
                left = deadline - time.monotonic()
                if left <= 0 or self.pool.closed:
                    raise TimeoutError(f"no sandbox zygote number {after + 1} came up")
                # A launched zygote may die before the I/O thread sees it: look again shortly.
                self.up.wait(min(left, 0.05))

    # ---- runs ---------------------------------------------------------------------------------

    def run(
        self, code: str, filename: str, limits: RunLimits, capture: tuple[str, ...]
    ) -> RunResult:
        """One run on a ready spare (``run_cases`` with one case)."""
        return self.run_cases([code], filename, limits, capture)[0]

    def run_cases(
        self,
        codes: list[str],
        filename: str,
        limits: RunLimits,
        capture: tuple[str, ...],
        stop: Stop = stop_at_failure,
        stdins: tuple[str, ...] = (),
        settled: Callable[[], object] | None = None,
    ) -> list[RunResult]:
        """Several programs (a grade's cases) in one child, one after another, until ``stop``
        says so after a case: one outcome per case run, in order (``stdins``: each one's
        standard input, in the same order; none: empty). The caller holds a slot
        (``Scheduler``): this only finds spares, hands the code over and collects the outcomes.
        A child that cannot go on (it ended, or reports itself unfit) leaves the rest of the
        cases to a fresh spare; a platform failure ends the batch. ``settled`` is called (at
        most once per child) when the run is demoted or has run long: ``Scheduler.settle``."""
        if not self.pool.begin_run():
            return [RunResult(SANDBOX_ERROR, stderr="The sandbox is shut down.")]
        results: list[RunResult] = []
        try:
            while len(results) < len(codes):
                rest = list(stdins[len(results) :])
                batch = _batch(codes[len(results) :], filename, limits, capture, rest)
                if not batch:  # the next program alone is too large
                    results.append(
                        RunResult(ERROR, stderr="The program is too large (over 1 MiB).")
                    )
                else:
                    done = len(results)
                    here = (lambda i, r: stop(done + i, r)) if done else stop  # noqa: B023
                    given = tuple(rest[: len(batch)]) if rest else ()
                    results += self._on_spare(
                        batch, filename, limits, capture, here, given, settled
                    )
                last = results[-1]
                if last.verdict == SANDBOX_ERROR or stop(len(results) - 1, last):
                    break
            return results
        finally:
            self.pool.end_run()

    def _on_spare(
        self,
        codes: list[str],
        filename: str,
        limits: RunLimits,
        capture: tuple[str, ...],
        stop: Stop,
        stdins: tuple[str, ...] = (),
        settled: Callable[[], object] | None = None,
    ) -> list[RunResult]:
        # A spare may have died while it waited (or with a zygote not yet seen dead): take
        # another, as often as it takes; dead ones are cheap to skip.
        for _attempt in range(64):
            spare = self.pool.take()
            if spare is None:
                why = self.pool.broken or "no sandbox process became ready in time"
                return [RunResult(SANDBOX_ERROR, stderr=f"The sandbox is unavailable: {why}")]
            try:
                if spare.group is not None:
                    spare.group.limit(limits.memory_mb)
                results = execute(
                    spare, codes, filename, limits, capture, stop, self.config.slice_ms, stdins,
                    functools.partial(_demote, self.cgroups), settled,
                )  # fmt: skip
            finally:
                spare.kill()
                spare.close()
            if results:
                return results
        return [RunResult(SANDBOX_ERROR, stderr="The sandbox processes keep failing.")]

    def close(self) -> None:
        if not self.pool.close():
            return
        self._kick()
        self.thread.join(timeout=5)
        self.zygote.close()
        self.pool.close_spares()
        os.close(self.wake_r)
        os.close(self.wake_w)
        if self.cgroups is not None:
            self.cgroups.close()
