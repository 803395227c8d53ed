from __future__ import annotations

from asgiref.sync import sync_to_async
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.views.decorators.http import require_safe

from codeblanks.sandbox import RunLimits, get_sandbox

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


async def _sandbox_state() -> str:
    try:
        result = await get_sandbox().arun("print(6 * 7)", limits=RunLimits(wall_s=5.0, cpu_s=5.0))
    except Exception as exc:  # e.g. SandboxUnavailable: report it, do not crash the probe
        return f"unavailable: {exc}"
    if result.ok and result.stdout.strip() == "42":
        return "ok"
    return result.verdict


@require_safe
async def healthz(request):
    """200 when the database (migrated) and the sandbox both answer (a full sandbox answers
    busy: healthy), else 503 (for load balancers)."""
    database = await sync_to_async(_database_state)()
    sandbox = await _sandbox_state()
    # "busy": the sandbox works and is full. Taking the node out would only send its crowd to
    # the other nodes, which are as full, and then bring it back: it stays in.
    healthy = database == "ok" and sandbox in ("ok", "busy")
    return JsonResponse(
        {"status": "ok" if healthy else "unhealthy", "database": database, "sandbox": sandbox},
        status=200 if healthy else 503,
    )
