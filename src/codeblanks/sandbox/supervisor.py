"""The trusted side: starts and watches the zygote, keeps spare children ready, runs programs.

Threads:
* one I/O thread owns the zygote's control socket: it asks for spares (keeping ``spare_count``
  ready), collects their HELLO (the pidfd), reaps EXIT reports, and restarts a dead zygote;
* each ``run()`` happens in its caller's thread, once the ``Scheduler`` gave it a slot: a ready
  spare, then ``outcome.execute`` talks to that spare directly. Nothing passes through the zygote.

On the trusted side only this module starts a process (the launcher); the zygote forks the rest.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import io
import itertools
import json
import logging
import os
import queue
import selectors
import socket
import subprocess
import sys
import sysconfig
import threading
import time

from codeblanks.sandbox import layout, seccomp
from codeblanks.sandbox.cgroups import Cgroups, pid_of
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.inside import wire
from codeblanks.sandbox.outcome import Stop, execute, stop_at_failure
from codeblanks.sandbox.preflight import SandboxUnavailable
from codeblanks.sandbox.result import ERROR, SANDBOX_ERROR, RunLimits, RunResult
from codeblanks.sandbox.spare import Spare

log = logging.getLogger("codeblanks.sandbox")

# The trust boundary: the only folder of ours the sandbox sees (as /opt/codeblanks).
INSIDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inside")
LIBRARIES = "/opt/site-packages"  # where the libraries the zygote imports appear inside
START_TIMEOUT_S = 60.0
SPARE_WAIT_S = 30.0
_instances = itertools.count()


def _batch(
    codes: list[str], filename: str, limits: RunLimits, capture: tuple[str, ...]
) -> list[str]:
    """The first of ``codes`` that one child takes: at most ``wire.MAX_CASES`` programs and
    ``wire.MAX_REQUEST_BYTES`` in all, none over ``wire.MAX_CODE_BYTES`` with its header.
    Empty if the first program alone is too large."""
    head = len(wire.encode_request(filename, dataclasses.asdict(limits), list(capture), [""]))
    batch, total = [], head
    for code in codes[: wire.MAX_CASES]:
        size = len(code.encode("utf-8", "surrogatepass"))
        if head + size > wire.MAX_CODE_BYTES or (batch and total + size > wire.MAX_REQUEST_BYTES):
            break
        batch.append(code)
        total += size
    return batch


def _warm_up_now(config: SandboxConfig) -> bool:
    """Whether the next spare runs the trusted warm-up. "auto": while the node has a core to
    spare (load average below the cores), so the faults are off the learner's clock; when CPU
    is short it is skipped (~4 ms of CPU less per child, the faults then on the learner's
    clock)."""
    if config.warm_up in ("always", "never"):
        return config.warm_up == "always"
    try:
        return os.getloadavg()[0] < config.cores
    except OSError:
        return True


def _site_packages() -> list[str]:
    """Unsafe mode only (no isolation): the zygote imports from the real site-packages."""
    paths = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    return sorted(p for p in paths if os.path.isdir(p))


class Supervisor:
    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.lock = threading.Lock()
        self.ready_cond = threading.Condition(self.lock)
        self.running = 0  # runs holding a spare right now
        self.ready: collections.deque[Spare] = collections.deque()
        self.pending: dict[str, Spare] = {}  # asked for, no HELLO yet
        self.live_joining = 0  # said HELLO, joining their memory group
        self.live: dict[str, Spare] = {}  # not yet reaped (pending, ready, running, exiting)
        self.generation = 0
        self.restarts = 0  # zygotes that died and were started again (metrics)
        self.closed = False
        self.broken: str | None = None
        self.failures = 0  # spares in a row that died before HELLO
        self.retry_at = 0.0
        self.proc: subprocess.Popen | None = None
        self.ctl: socket.socket | None = None
        self.counter = itertools.count()
        n_uids = max(64, 4 * (config.spare_count + config.slots))
        # A uid range of our own (one web process may host several sandboxes, one host several
        # web processes): each live child holds one uid, reused only after it was reaped.
        start = 1_000_000_000 + ((os.getpid() * 8 + next(_instances)) % 1_000_000) * 1024
        self.free_uids = collections.deque(range(start, start + min(n_uids, 1024)))
        self.cooling: list[tuple[float, int]] = []  # (reusable after, uid)
        self.cgroups: Cgroups | None = None
        if not config.unsafe and config.cgroups:
            pids = (config.slots + config.spare_count) * (RunLimits().threads + 4) + 64
            name = f"{os.getpid()}-{start % 1_000_000}"
            self.cgroups, why = Cgroups.create(name, config.tree_memory_mb, pids)
            if self.cgroups is None:
                log.warning(
                    "sandbox: %s, so a run's memory is bounded by RLIMIT_AS alone (memfds are "
                    "refused) and nothing caps the sandbox tree as a whole",
                    why,
                )
        deny_memfd = self.cgroups is None
        self.filters = (
            (seccomp.zygote_filter(), seccomp.child_filter(deny_memfd))
            if not config.unsafe
            else (b"", b"")
        )
        # Spares join their memory group on a thread of their own (a move may wait for an RCU
        # grace period), then become ready.
        self.joining: queue.SimpleQueue[Spare | None] = queue.SimpleQueue()
        self.wake_r, self.wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.wake_r, selectors.EVENT_READ, "wake")
        try:
            self._launch()
        except BaseException:
            self.sel.close()
            os.close(self.wake_r)
            os.close(self.wake_w)
            raise
        self.thread = threading.Thread(target=self._loop, name="sandbox-supervisor", daemon=True)
        self.thread.start()
        self.joiner = threading.Thread(target=self._join_loop, name="sandbox-cgroups", daemon=True)
        if self.cgroups is not None:
            self.joiner.start()
        self._kick()

    # ---- the zygote -------------------------------------------------------------------------

    def _launch(self) -> None:
        """Start a zygote and wait for READY; raise SandboxUnavailable with its words if not."""
        ctl, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        python = os.path.realpath(sys._base_executable)
        zygote_cfg = {
            "isolate": not self.config.unsafe,
            # Inside, the libraries it needs appear under a neutral name: tracebacks and listings
            # do not reveal where the project lives on the host.
            "site_packages": [LIBRARIES] if not self.config.unsafe else _site_packages(),
            "modules": list(self.config.modules),
            "zygote_bpf": self.filters[0].hex(),
            "child_bpf": self.filters[1].hex(),
            "disk_kib": self.config.disk_kib,
        }
        launcher_cfg = {
            "isolate": not self.config.unsafe,
            "python": python,
            "python_prefix": sys.base_prefix,
            # Only these of any site-packages (never CodeBlanks and its courses); every folder of
            # installed packages under /usr or the interpreter's prefix is covered (layout.py).
            "libraries": layout.libraries(self.config.modules),
            "hidden": layout.hidden(),
            "libraries_dir": LIBRARIES,
            "pkg_dir": INSIDE_DIR,
            "ctl_fd": theirs.fileno(),
            "cgroup_procs": self.cgroups.procs_files() if self.cgroups else [],
        }
        proc = subprocess.Popen(
            [python, "-I", "-S", "-B", os.path.join(INSIDE_DIR, "namespaces.py"),
             json.dumps(launcher_cfg), json.dumps(zygote_cfg)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=(theirs.fileno(),),
            env={},  # the web process's environment (secrets) never reaches the sandbox
            cwd="/",
            # Its own session: a Ctrl+C meant for the server must not kill the sandbox under the
            # runs still in flight; it ends when the server closes it or its control socket.
            start_new_session=True,
        )  # fmt: skip
        theirs.close()
        ctl.settimeout(START_TIMEOUT_S)
        try:
            msg = ctl.recv(4096)
        except (TimeoutError, OSError):
            msg = b""
        if not msg.startswith(wire.READY):
            proc.kill()
            err = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
            proc.wait()
            ctl.close()
            raise SandboxUnavailable(
                "the sandbox could not start"
                + (f": {err.splitlines()[-1]}" if err else " (no reason given)")
                + ". It needs Linux namespaces, seccomp and root; see docs/sandbox.md."
                + (f"\n{err}" if err else "")
            )
        info = json.loads(msg[len(wire.READY) :] or b"{}")
        ctl.settimeout(None)
        ctl.setblocking(False)
        log.info("sandbox zygote ready: %s", info)
        self.proc, self.ctl = proc, ctl
        self.sel.register(ctl, selectors.EVENT_READ, "ctl")
        if proc.stderr is not None:
            os.set_blocking(proc.stderr.fileno(), False)
            self.sel.register(proc.stderr, selectors.EVENT_READ, "stderr")

    def _zygote_died(self) -> None:
        """Every child died with PID 1: fail the runs in flight clearly, then start a new one."""
        log.error("the sandbox zygote died; restarting it")
        with self.lock:
            self.generation += 1
            self.restarts += 1
            for spare in list(self.live.values()):
                spare.zygote_died = True
                spare.exited.set()
                # Its processes are being killed with the namespace, but may still count against
                # RLIMIT_NPROC for a moment: reuse these uids only after a pause.
                self.cooling.append((time.monotonic() + 2.0, spare.uid))
            for spare in [*self.ready, *self.pending.values()]:
                # Unregistered before closed: a closed socket left in the selector keeps its fd
                # number there, and the next socket given that number cannot be registered.
                self._unregister(spare)
                spare.close()
            self.live.clear()
            self.ready.clear()
            self.pending.clear()
        for key in ("ctl", "stderr"):
            obj = self.ctl if key == "ctl" else (self.proc.stderr if self.proc else None)
            if obj is not None:
                with contextlib.suppress(KeyError, ValueError):
                    self.sel.unregister(obj)
        if self.ctl is not None:
            self.ctl.close()
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            if self.proc.stderr:
                self.proc.stderr.close()
        self.proc = self.ctl = None
        for attempt in range(5):
            if self.closed:
                return
            try:
                self._launch()
                with self.lock:
                    self.broken = None
                return
            except SandboxUnavailable as e:
                with self.lock:
                    self.broken = str(e)
                    self.ready_cond.notify_all()
                time.sleep(0.2 * (attempt + 1))

    # ---- the I/O thread ---------------------------------------------------------------------

    def _kick(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.wake_w, b"x")

    def _loop(self) -> None:
        """The I/O thread. It must never die: an unexpected error is logged and the zygote
        restarted, so that the sandbox heals instead of leaving every later run waiting."""
        while not self.closed:
            try:
                self._turn()
            except Exception:
                log.exception("the sandbox's I/O thread hit an unexpected error; restarting")
                with contextlib.suppress(Exception):
                    self._zygote_died()
                time.sleep(0.05)

    def _turn(self) -> None:
        """One pass: restart a dead zygote, top the spares up, handle what is ready."""
        if self.ctl is None:
            self._zygote_died()
            return
        self._top_up()
        generation = self.generation
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
                self._on_stderr(key.fileobj)
            elif isinstance(key.data, Spare):
                self._on_hello(key.data)
            if self.ctl is None or self.generation != generation:
                break  # the zygote died: the other events belong to the old one

    def _on_stderr(self, stream: io.BufferedReader) -> None:
        try:
            data = os.read(stream.fileno(), 65536)
        except BlockingIOError:
            return
        except (OSError, ValueError):
            data = b""
        if data:
            for line in data.decode(errors="replace").splitlines():
                log.warning("zygote: %s", line)
        else:
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(stream)

    def _on_ctl(self) -> None:
        assert self.ctl is not None
        while True:
            try:
                msg = self.ctl.recv(4096)
            except BlockingIOError:
                return
            except OSError:
                msg = b""
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
                self._on_exit(parts[1].decode(errors="replace"), int(parts[2]), int(parts[3]))

    def _on_exit(self, child_id: str, status: int, cpu_ms: int) -> None:
        with self.lock:
            spare = self.live.pop(child_id, None)
            if spare is None:
                return
            self.free_uids.append(spare.uid)
            spare.wait_status, spare.cpu_ms = status, cpu_ms
            spare.exited.set()
            if self.pending.pop(child_id, None) is not None:
                self._unregister(spare)
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

    def _unregister(self, spare: Spare) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(spare.chan)

    def _on_hello(self, spare: Spare) -> None:
        try:
            msg, fds = wire.recv_fds(spare.chan, 1, 1)
        except BlockingIOError:
            return
        except OSError:
            msg, fds = b"", []
        self._unregister(spare)
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
            spare.pidfd = fds[0]
            spare.pid = pid_of(spare.pidfd)
            spare.chan.setblocking(False)
            self.failures = 0
            self.broken = None
            if self.cgroups is None:
                self.ready.append(spare)
                self.ready_cond.notify()
                return
            self.live_joining += 1
        self.joining.put(spare)

    def _join_loop(self) -> None:
        """Move each new spare into its uid's memory group, then offer it to runs."""
        assert self.cgroups is not None
        while (spare := self.joining.get()) is not None:
            try:
                pid = spare.pid
                if pid is not None:
                    group = self.cgroups.group(spare.uid)
                    group.join(pid)
                    spare.group = group
            except OSError as e:
                log.warning("a spare could not join its memory group: %s", e)
            with self.lock:
                self.live_joining -= 1
                if spare.group is not None and spare.id in self.live and not spare.zygote_died:
                    self.ready.append(spare)
                    self.ready_cond.notify()
                    continue
            spare.kill()  # dead already, or unaccountable: not offered to a run
            spare.close()

    def _top_up(self) -> None:
        """Ask the zygote for spares until ``spare_count`` are ready or on their way."""
        while True:
            with self.lock:
                if self.cooling:
                    now = time.monotonic()
                    self.free_uids.extend(uid for t, uid in self.cooling if t <= now)
                    self.cooling = [(t, uid) for t, uid in self.cooling if t > now]
                stocked = len(self.ready) + len(self.pending) + self.live_joining
                if (
                    self.closed
                    or self.ctl is None
                    or time.monotonic() < self.retry_at
                    or stocked >= self.config.spare_count
                    # While programs run, fork only if fewer spares than cores are left: a fork
                    # and a warm-up cost CPU the running programs (a grading burst) need.
                    or (self.running and stocked >= self.config.cores)
                    or not self.free_uids
                ):
                    return
                uid = self.free_uids.popleft()
                generation = self.generation
            spare = self._spawn(uid, generation)
            if spare is None:
                with self.lock:
                    self.free_uids.append(uid)
                return

    def _spawn(self, uid: int, generation: int) -> Spare | None:
        code_r, code_w = os.pipe2(os.O_CLOEXEC)
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        spare = Spare(f"c{next(self.counter)}", uid, generation, code_w, out_r, err_r, mine)
        try:
            assert self.ctl is not None
            self.ctl.setblocking(True)
            wire.send_fds(
                self.ctl,
                b"%s %s %d %d" % (wire.SPAWN, spare.id.encode(), uid, _warm_up_now(self.config)),
                [code_r, out_w, err_w, theirs.fileno()],
            )
            self.ctl.setblocking(False)
        except OSError:
            spare.close()
            return None
        finally:
            for fd in (code_r, out_w, err_w):
                os.close(fd)
            theirs.close()
        mine.setblocking(False)
        with self.lock:
            self.live[spare.id] = spare
            self.pending[spare.id] = spare
        self.sel.register(mine, selectors.EVENT_READ, spare)
        return spare

    # ---- runs ---------------------------------------------------------------------------------

    def _take_spare(self) -> Spare | None:
        deadline = time.monotonic() + SPARE_WAIT_S
        with self.lock:
            while not self.ready:
                left = deadline - time.monotonic()
                starting = self.pending or self.live_joining
                if self.closed or left <= 0 or (self.broken and not starting):
                    return None
                self.ready_cond.wait(min(left, 0.5))
            spare = self.ready.popleft()
            low = len(self.ready) + len(self.pending) + self.live_joining < self.config.cores
        if low:
            self._kick()
        return spare

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
    ) -> list[RunResult]:
        """Several programs (a grade's cases) in one child, one after another, until ``stop``
        says so after a case: one outcome per case run, in order. The caller holds a slot
        (``Scheduler``): this only finds spares, hands the code over and collects the outcomes.
        A child that cannot go on (it ended, or reports itself unfit) leaves the rest of the
        cases to a fresh spare; a platform failure ends the batch."""
        with self.lock:
            if self.closed:
                return [RunResult(SANDBOX_ERROR, stderr="The sandbox is shut down.")]
            self.running += 1
        results: list[RunResult] = []
        try:
            while len(results) < len(codes):
                batch = _batch(codes[len(results) :], filename, limits, capture)
                if not batch:  # the next program alone is too large
                    results.append(
                        RunResult(ERROR, stderr="The program is too large (over 1 MiB).")
                    )
                else:
                    done = len(results)
                    here = (lambda i, r: stop(done + i, r)) if done else stop  # noqa: B023
                    results += self._on_spare(batch, filename, limits, capture, here)
                last = results[-1]
                if last.verdict == SANDBOX_ERROR or stop(len(results) - 1, last):
                    break
            return results
        finally:
            with self.lock:
                self.running -= 1
            self._kick()  # refill the spares (at once if idle now, see _top_up)

    def _on_spare(
        self,
        codes: list[str],
        filename: str,
        limits: RunLimits,
        capture: tuple[str, ...],
        stop: Stop,
    ) -> list[RunResult]:
        # A spare may have died while it waited (or with a zygote not yet seen dead): take
        # another, as often as it takes; dead ones are cheap to skip.
        for _attempt in range(64):
            spare = self._take_spare()
            if spare is None:
                why = self.broken or "no sandbox process became ready in time"
                return [RunResult(SANDBOX_ERROR, stderr=f"The sandbox is unavailable: {why}")]
            try:
                if spare.group is not None:
                    spare.group.limit(limits.memory_mb)
                results = execute(
                    spare, codes, filename, limits, capture, stop, self.config.slice_ms
                )
            finally:
                spare.kill()
                spare.close()
            if results:
                return results
        return [RunResult(SANDBOX_ERROR, stderr="The sandbox processes keep failing.")]

    def close(self) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.ready_cond.notify_all()
        self._kick()
        self.thread.join(timeout=5)
        if self.ctl is not None:
            self.ctl.close()  # EOF: the zygote (PID 1) exits and takes every child with it
        if self.proc is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            if self.proc.stderr:
                self.proc.stderr.close()
        for spare in [*self.ready, *self.pending.values()]:
            spare.close()
        os.close(self.wake_r)
        os.close(self.wake_w)
        if self.cgroups is not None:
            self.joining.put(None)
            self.joiner.join(timeout=5)
            self.cgroups.close()
