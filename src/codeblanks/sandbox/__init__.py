"""The one door through which CodeBlanks runs code.

    from codeblanks.sandbox import get_sandbox, RunLimits
    result = get_sandbox().run(code, filename="model.py", limits=RunLimits(), capture=("A",))
    result = await get_sandbox().arun(code, ...)   # from async code (the web app)

Only this package may create processes (ruff's banned-api rule guards the door). It is the
isolation and nothing else: docs/sandbox.md says how it is built and what it stops.

| module | what it holds |
|---|---|
| ``service.py`` | ``Sandbox`` and ``get_sandbox()``: the public face, sync and async |
| ``result.py`` | ``RunLimits``, ``RunRequest``, ``RunResult``, the verdicts, the ``Runner`` seam |
| ``config.py`` | the settings, read once from the environment |
| ``supervisor.py`` | the trusted side: its threads, a run from a slot to its result |
| ``scheduler.py`` | who runs next: the fair, bounded queue in front of the slots |
| ``spare_pool.py`` | the spare children, asked of the zygote ahead of need |
| ``spare.py`` | one spare as the supervisor sees it: fds, pidfd, how it ended |
| ``idle.py`` | how many cores sat idle a moment ago: whether a spare warms up |
| ``zygote_process.py`` | the zygote's launch, control socket and logged stderr |
| ``execute.py`` | one run (or a grade's cases) in a spare: collect, cap, give the verdict |
| ``cgroups.py`` | the tree's cgroup, a memory group per run, the demoted runs' cpu group |
| ``demotion.py`` | short jobs first: a run past its slice of CPU goes to ``SCHED_IDLE`` |
| ``seccomp.py`` | the system-call filters, built here, loaded by the zygote |
| ``layout.py`` | what of the Python installation a run can read |
| ``uid_pool.py`` | the uids the children run as, each reused only once reaped |
| ``preflight.py`` | can this machine isolate programs? (asked before starting) |
| ``workers.py`` | worker processes for the trusted side's own CPU work (reading a long program) |
| ``cores.py`` | the cores the node was given, read once: what its processes take back |
| ``remote.py`` | the node's one sandbox for its web workers: the client and the wire |
| ``testing.py`` | for tests: a sandbox whose cases are counted, a bounded wait, ``FakeRunner`` |
| ``inside/`` | the trust boundary: what builds the sandbox and runs in it (its own table) |
"""

from typing import Any

from codeblanks.sandbox.result import VERDICTS, RunLimits, RunResult

__all__ = ["VERDICTS", "RunLimits", "RunResult", "Sandbox", "SandboxUnavailable", "get_sandbox"]


def __getattr__(name: str) -> Any:
    """The service on first use, not at import: a module that needs only ``RunLimits`` or
    ``RunResult`` (the grader's rules, the metrics) does not pay for the supervisor and
    asyncio."""
    if name in ("Sandbox", "SandboxUnavailable", "get_sandbox"):
        from codeblanks.sandbox import service

        return getattr(service, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
