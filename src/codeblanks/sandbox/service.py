"""The sandbox's public face: ``Sandbox`` and the process-wide ``get_sandbox()``.

    Sandbox.run(code, *, filename="main.py", limits=None, capture=()) -> RunResult
    await Sandbox.arun(...)        same, without blocking the event loop
    Sandbox.close()

Errors:
    SandboxUnavailable  raised when the sandbox starts on a machine that cannot isolate programs
                        (the message says why and what to do). Everything that happens to a
                        program afterwards is a RunResult, never an exception.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.preflight import SandboxUnavailable, isolation_problem
from codeblanks.sandbox.result import RunLimits, RunResult
from codeblanks.sandbox.supervisor import Supervisor

__all__ = ["Sandbox", "SandboxUnavailable", "get_sandbox"]

log = logging.getLogger("codeblanks.sandbox")

UNSAFE_WARNING = """
!!! CODEBLANKS_UNSAFE_NO_SANDBOX=1: programs run WITHOUT ISOLATION !!!
They can read and change every file this user can, reach the network, and see this
process's environment. Use this only for yourself, on 127.0.0.1, with code you trust.
"""


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
        self._executor = ThreadPoolExecutor(
            max_workers=config.slots + config.queue_size + 1, thread_name_prefix="sandbox-run"
        )

    def run(
        self,
        code: str,
        *,
        filename: str = "main.py",
        limits: RunLimits | None = None,
        capture: Sequence[str] = (),
        client: str | None = None,
    ) -> RunResult:
        """Run ``code`` as the program ``filename``; always returns a RunResult. ``client``
        (a learner's session, an address) is whom the run counts to in the fair share."""
        return self._supervisor.run(code, filename, limits or RunLimits(), tuple(capture))

    async def arun(
        self,
        code: str,
        *,
        filename: str = "main.py",
        limits: RunLimits | None = None,
        capture: Sequence[str] = (),
        client: str | None = None,
    ) -> RunResult:
        """``run()`` on a worker thread: the event loop keeps serving while the program runs."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor,
            lambda: self.run(
                code, filename=filename, limits=limits, capture=capture, client=client
            ),
        )

    def close(self) -> None:
        """Stop the zygote and every child; later runs return ``sandbox-error``."""
        self._supervisor.close()
        self._executor.shutdown(wait=False)


_shared: Sandbox | None = None
_shared_pid = 0
_shared_lock = threading.Lock()


def get_sandbox() -> Sandbox:
    """The process-wide sandbox, started on first use (raises SandboxUnavailable if it cannot).

    A forked process (e.g. a server worker) gets its own: threads and sockets do not survive
    fork."""
    global _shared, _shared_pid
    with _shared_lock:
        if _shared is None or _shared_pid != os.getpid():
            _shared = Sandbox()
            _shared_pid = os.getpid()
        return _shared
