"""``/healthz`` for load balancers: the database and the sandbox, answered from state.

Anyone may call it, as often as they like, so a probe never buys sandbox time (security review
S6): the sandbox is checked by running a tiny program at most once every ``CHECK_EVERY_S``
seconds, by whichever probe comes when the last check is that old; every other probe answers
with the last check's state and its age.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.views.decorators.http import require_safe

from codeblanks.sandbox import RunLimits, get_sandbox
from codeblanks.web.door import gate

_migrated = False  # once the schema is up to date it stays so for this process's code


def _database_state() -> str:
    """ "ok", "error" (no answer) or "not migrated": a node whose database lacks our tables must
    not be put behind the load balancer (every page would fail)."""
    global _migrated
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            if cursor.fetchone() != (1,):
                return "error"
        if not _migrated:
            executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
            _migrated = not executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception:  # any failure to answer is "not healthy"; the body says which part
        return "error"
    return "ok" if _migrated else "not migrated"


CHECK_EVERY_S = 5.0  # a load balancer probes every few seconds: a check is as fresh as that
monotonic = time.monotonic  # the clock of the checks (a test moves it)


@dataclass
class SandboxCheck:
    """The last sandbox check, shared by every probe of this process."""

    state: str | None = None  # None: not checked yet
    at: float = 0.0  # when it ended (``monotonic``)
    running: threading.Lock = field(default_factory=threading.Lock)  # one check at a time

    def due(self) -> bool:
        return self.state is None or monotonic() - self.at >= CHECK_EVERY_S

    async def refresh(self) -> None:
        """Check the sandbox, unless another probe is checking it now (its answer will do)."""
        if not self.running.acquire(blocking=False):
            return
        try:
            state = await _run_check()
            self.state, self.at = state, monotonic()
        finally:
            self.running.release()


_check = SandboxCheck()


async def _sandbox_state() -> tuple[str, float | None]:
    """The sandbox's state as last checked (checked now when that is due) and the check's age
    in seconds; "checking" (no age) while the very first check runs."""
    check = _check
    if check.due():
        await check.refresh()
    if check.state is None:
        return "checking", None
    return check.state, monotonic() - check.at


async def _run_check() -> str:
    try:
        limits = RunLimits(wall_s=5.0, cpu_s=5.0)
        async with gate.lent():  # a hung sandbox must not hold the site's permits (gate.py)
            result = await get_sandbox().arun("print(6 * 7)", limits=limits)
    except Exception as exc:  # e.g. SandboxUnavailable: report it, do not crash the probe
        return f"unavailable: {exc}"
    if result.ok and result.stdout.strip() == "42":
        return "ok"
    return result.verdict


@require_safe
async def healthz(request):
    """200 when the database (migrated) and the sandbox both answer (a full sandbox answers
    busy: healthy), else 503 (for load balancers). The sandbox as last checked: see the
    module's docstring."""
    database = await sync_to_async(_database_state)()
    sandbox, age = await _sandbox_state()
    # "busy": the sandbox works and is full. Taking the node out would only send its crowd to
    # the other nodes, which are as full, and then bring it back: it stays in.
    healthy = database == "ok" and sandbox in ("ok", "busy")
    body = {"status": "ok" if healthy else "unhealthy", "database": database, "sandbox": sandbox}
    checked = None if age is None else round(age, 1)
    return JsonResponse(
        # ``worker``: which web process answered (several serve one node: door/workers.py)
        {**body, "sandbox_checked_s_ago": checked, "worker": os.getpid()},
        status=200 if healthy else 503,
    )
