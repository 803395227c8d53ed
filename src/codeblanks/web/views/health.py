from __future__ import annotations

from asgiref.sync import sync_to_async
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.http import require_safe

from codeblanks.sandbox import RunLimits, get_sandbox


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:  # any failure to answer is "not healthy"; the body says which part
        return False


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
    """200 when the database and the sandbox both answer, else 503 (for load balancers)."""
    database = "ok" if await sync_to_async(_database_ok)() else "error"
    sandbox = await _sandbox_state()
    healthy = database == "ok" and sandbox == "ok"
    return JsonResponse(
        {"status": "ok" if healthy else "unhealthy", "database": database, "sandbox": sandbox},
        status=200 if healthy else 503,
    )
