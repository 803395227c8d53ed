"""The sandbox's public face: ``Sandbox`` and the process-wide ``get_sandbox()``.

    Sandbox.run(code, *, filename="main.py", limits=None, capture=(), client=None, stdin="")
                                   -> RunResult
    await Sandbox.arun(...)        same, without blocking the event loop
    Sandbox.run_cases(codes, *, ..., stop=None) -> list[RunResult]   (a RunRequest's keywords)
    Sandbox.run_request(RunRequest(...)) -> list[RunResult]
    await Sandbox.arun_cases(RunRequest(...))  the ``Runner`` Protocol (sandbox/result.py):
                                   several programs (a grade's cases) in one child, one after
                                   another, for one slot; an outcome per case run, until ``stop``
    Sandbox.zygote(after=0) -> (number, pid)   the running zygote, waited for through restarts
    Sandbox.close()

``client`` names whom a run is for (a learner's session, an API caller's address): the
``Scheduler`` shares the slots fairly between clients, and a run waits for one (a bounded
time) rather than being refused at the first burst.

Each run ends in one log line (``codeblanks.sandbox``, INFO, with ``extra={"run": {...}}``) and
is handed to every callable in ``Sandbox.watchers`` (the web app's metrics): nothing here knows
about either's format.

Errors:
    SandboxUnavailable  raised when the sandbox starts on a machine that cannot isolate programs
                        (the message says why and what to do). Everything that happens to a
                        program afterwards is a RunResult, never an exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import cast

from codeblanks import inline
from codeblanks.sandbox import remote
from codeblanks.sandbox.cgroups import Cgroups
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.execute import stop_at_failure
from codeblanks.sandbox.preflight import SandboxUnavailable, isolation_problem
from codeblanks.sandbox.result import BUSY, SANDBOX_ERROR, RunLimits, RunRequest, RunResult, Stop
from codeblanks.sandbox.scheduler import Scheduler, Ticket
from codeblanks.sandbox.supervisor import Supervisor

__all__ = ["Sandbox", "SandboxUnavailable", "get_sandbox"]

log = logging.getLogger("codeblanks.sandbox")

UNSAFE_WARNING = """
!!! CODEBLANKS_UNSAFE_NO_SANDBOX=1: programs run WITHOUT ISOLATION !!!
They can read and change every file this user can, reach the network, and see this
process's environment. Use this only for yourself, on 127.0.0.1, with code you trust.
"""


_tally: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar(
    "codeblanks_cpu_tally", default=None
)


@contextlib.contextmanager
def cpu_tally() -> Iterator[list[float]]:
    """Collect the CPU (in seconds) of every run made in this context, one entry per outcome
    (a grade's cases are several): the web's rate limit charges what a request really used.
    Worker threads see it, as they run in a copy of the caller's context."""
    used: list[float] = []
    token = _tally.set(used)
    try:
        yield used
    finally:
        _tally.reset(token)


class Sandbox:
    """Runs learners' programs in the isolated fork-server; thread-safe."""

    def __init__(self, slots: int | None = None, *, config: SandboxConfig | None = None) -> None:
        config = config or SandboxConfig.from_env()
        if slots is not None:
            config = dataclasses.replace(config, slots=slots)
        self.config = config
        self.slots = config.slots
        if config.unsafe:
            sys.stderr.write(UNSAFE_WARNING)
            log.warning("sandbox isolation is OFF (CODEBLANKS_UNSAFE_NO_SANDBOX=1)")
        else:
            problem = isolation_problem()
            if problem:
                raise SandboxUnavailable(problem)
        self._supervisor = Supervisor(config)
        self.scheduler = Scheduler(
            slots=config.slots,
            per_client=config.per_client,
            queue=config.queue_size,
            client_queue=config.client_queue,
            fresh=config.fresh_runs,
        )
        self.watchers: list[Callable[[RunResult], None]] = []  # told of every finished run
        # Runs enter the pool only once they hold a slot: waiting costs no thread.
        self._executor = ThreadPoolExecutor(
            max_workers=config.slots + 1, thread_name_prefix="sandbox-run"
        )

    def run(
        self,
        code: str,
        *,
        filename: str = "main.py",
        limits: RunLimits | None = None,
        capture: Sequence[str] = (),
        client: str | None = None,
        stdin: str = "",
    ) -> RunResult:
        """Run ``code`` as the program ``filename``; always returns a RunResult. ``client``
        (a learner's session, an address) is whom the run counts to in the fair share;
        ``stdin``, what the program reads as its standard input."""
        request = _request([code], filename, limits, capture, client, stdins=(stdin,))
        return self.run_request(request)[0]

    async def arun(
        self,
        code: str,
        *,
        filename: str = "main.py",
        limits: RunLimits | None = None,
        capture: Sequence[str] = (),
        client: str | None = None,
        stdin: str = "",
    ) -> RunResult:
        """``run()`` without blocking the event loop: the wait for a slot is a future, the run
        itself happens on a worker thread."""
        request = _request([code], filename, limits, capture, client, stdins=(stdin,))
        return (await self.arun_cases(request))[0]

    def run_cases(
        self,
        codes: Sequence[str],
        *,
        filename: str = "main.py",
        limits: RunLimits | None = None,
        capture: Sequence[str] = (),
        client: str | None = None,
        stop: Stop | None = None,
        stdins: Sequence[str] = (),
    ) -> list[RunResult]:
        """``run_request`` for the keywords of ``RunRequest`` (a thin wrapper)."""
        return self.run_request(_request(codes, filename, limits, capture, client, stop, stdins))

    def run_request(self, request: RunRequest) -> list[RunResult]:
        """Run each of ``request.codes`` (a grade's cases: the same program on other data) in
        one child, one after another, with fresh globals and each case's own limits, holding one
        slot. ``stop(index, result)`` is asked after each case whether to end there (default: at
        the first that did not end normally). One RunResult per case run, in order: at least
        one, fewer than ``codes`` when it stopped early."""
        granted = threading.Event()
        ticket = self.scheduler.submit(request.client, lambda _ticket: granted.set())
        if ticket is None:
            return [self._told(_busy(), request.filename)]
        if not granted.wait(self.config.wait_s) and self.scheduler.withdraw(ticket):
            return [self._told(_busy(), request.filename)]
        results = self._run_granted(ticket, request)
        return [self._told(r, request.filename) for r in results]

    async def arun_cases(self, request: RunRequest) -> list[RunResult]:
        """``run_request()`` without blocking the event loop (the ``Runner`` Protocol): the wait
        for a slot is a future, the runs themselves happen on a worker thread. Driven on a
        thread of its own (``codeblanks.inline``), it is ``run_request()``, on that thread."""
        if not inline.on_loop():
            return self.run_request(request)
        loop = asyncio.get_running_loop()
        granted = loop.create_future()
        filename = request.filename
        submitting = True

        def grant_now() -> None:
            if not granted.done():
                granted.set_result(None)

        def grant(ticket: Ticket) -> None:
            if submitting:
                return  # granted before submit() returned: ``ticket.granted`` is seen below
            try:
                loop.call_soon_threadsafe(grant_now)
            except RuntimeError:  # the loop is closed: nobody waits for this slot any more
                self.scheduler.finish(ticket)

        ticket = self.scheduler.submit(request.client, grant)
        submitting = False
        if ticket is None:
            return [self._told(_busy(), filename)]
        # A slot free at once (most runs): no future to wait on, no wake-up of the loop.
        if not ticket.granted and not await self._wait_for_slot(ticket, granted):
            return [self._told(_busy(), filename)]
        # In the caller's context: what the worker logs carries the request's id (web/door/logs.py).
        job = self._executor.submit(
            contextvars.copy_context().run, self._run_granted, ticket, request
        )
        # Cancelled before a worker took it: the slot must still be handed on.
        job.add_done_callback(lambda j: self.scheduler.finish(ticket) if j.cancelled() else None)
        results = await asyncio.wrap_future(job)
        return [self._told(r, filename) for r in results]

    async def _wait_for_slot(self, ticket: Ticket, granted: asyncio.Future[None]) -> bool:
        """Wait (up to ``wait_s``) for the ticket's slot; False if it never came (withdrawn)."""
        try:
            await asyncio.wait_for(asyncio.shield(granted), self.config.wait_s)
        except TimeoutError:
            if self.scheduler.withdraw(ticket):
                return False
        except BaseException:  # cancelled: give the place (or the slot) back
            if not self.scheduler.withdraw(ticket):
                self.scheduler.finish(ticket)
            raise
        return True

    def _told(self, result: RunResult, filename: str) -> RunResult:
        """One log line per run, the CPU tallied, and the watchers told; a watcher's error
        never fails a run."""
        tally = _tally.get()
        if tally is not None:
            tally.append(result.cpu_ms / 1000)
        log.info(
            "run %s in %d ms (%s)", result.verdict, result.duration_ms, filename,
            extra={"run": {"verdict": result.verdict, "ms": result.duration_ms,
                           "file": filename}},
        )  # fmt: skip
        for watch in self.watchers:
            try:
                watch(result)
            except Exception:
                log.exception("a sandbox watcher failed")
        return result

    def stats(self) -> dict[str, int]:
        """What operators watch, now: runs holding a slot, runs waiting for one, zygote
        restarts since start."""
        return {
            "running": self.scheduler.running,
            "waiting": self.scheduler.waiting,
            "zygote_restarts": self._supervisor.restarts,
        }

    def zygote(self, *, after: int = 0, timeout: float = 60.0) -> tuple[int, int]:
        """The zygote running now, once more than ``after`` have started: its number (1, then
        one more per restart) and its host pid. For tools and tests that watch it or kill it on
        purpose: it waits through a restart instead of racing it; TimeoutError if none comes."""
        return self._supervisor.wait_zygote(after, timeout)

    @property
    def launcher_pid(self) -> int | None:
        """This sandbox's process on the host (the zygote's parent), None between zygotes."""
        proc = self._supervisor.proc
        return proc.pid if proc is not None else None

    def service_threads(self) -> list[threading.Thread]:
        """The threads it keeps while open (its I/O thread, its memory-group joiner)."""
        return self._supervisor.threads()

    def spares_ready(self) -> int:
        """Children waiting, locked down, for a program (what a run takes at once)."""
        return len(self._supervisor.ready)

    @property
    def cgroups(self) -> Cgroups | None:
        """The memory groups runs are placed in, None where rlimits alone bound a run."""
        return self._supervisor.cgroups

    @property
    def demotion(self) -> str:
        """How a run past its CPU slice is demoted here (for /healthz and the logs): into the
        low-weight cpu group and SCHED_IDLE, or SCHED_IDLE alone where there is no such group."""
        groups = self._supervisor.cgroups
        if groups is None or groups.cpu is None:
            return "SCHED_IDLE"
        return f"cpu weights {self.config.fresh_weight}/{self.config.demoted_weight} and SCHED_IDLE"

    def _run_granted(self, ticket: Ticket, request: RunRequest) -> list[RunResult]:
        try:
            if not request.codes:
                return [RunResult(SANDBOX_ERROR, stderr="No program was given to run.")]
            return self._supervisor.run_cases(
                list(request.codes),
                request.filename,
                request.limits,
                request.capture,
                request.stop or stop_at_failure,
                request.stdins,
                settled=lambda: self.scheduler.settle(ticket),
            )
        finally:
            self.scheduler.finish(ticket)

    def close(self) -> None:
        """Stop the zygote and every child; later runs return ``sandbox-error``."""
        self._supervisor.close()
        self._executor.shutdown(wait=False)


def _request(
    codes: Sequence[str],
    filename: str,
    limits: RunLimits | None,
    capture: Sequence[str],
    client: str | None,
    stop: Stop | None = None,
    stdins: Sequence[str] = (),
) -> RunRequest:
    return RunRequest(
        tuple(codes), filename, limits or RunLimits(), tuple(capture), client, stop,
        tuple(stdins) if any(stdins) else (),
    )  # fmt: skip


def _busy() -> RunResult:
    return RunResult(
        BUSY, stderr="The server is busy running other programs. Try again in a moment."
    )


def shared() -> Sandbox | None:
    """The process-wide sandbox if this process has started one (never starts it)."""
    return _shared if _shared_pid == os.getpid() else None


_shared: Sandbox | None = None
_shared_pid = 0
_shared_lock = threading.Lock()


def get_sandbox() -> Sandbox:
    """The process-wide sandbox, started on first use (raises SandboxUnavailable if it cannot).

    A forked process gets its own: threads and sockets do not survive fork. A web worker of
    ``codeblanks serve --workers N`` (``CODEBLANKS_NODE_SOCKET`` set by its parent) gets the
    parent's, through ``remote.RemoteSandbox``: one set of slots and one fair share per node."""
    global _shared, _shared_pid
    with _shared_lock:
        if _shared is None or _shared_pid != os.getpid():
            path = os.environ.get(remote.SOCKET_ENV)
            if path:
                slots = SandboxConfig.from_env().slots
                _shared = cast(Sandbox, remote.RemoteSandbox(path, slots))
            else:
                _shared = Sandbox()
            _shared_pid = os.getpid()
        return _shared


def close_shared() -> None:
    """Stop the process-wide sandbox if this process started one (a server that exits)."""
    global _shared
    with _shared_lock:
        if _shared is not None and _shared_pid == os.getpid():
            _shared.close()
        _shared = None
