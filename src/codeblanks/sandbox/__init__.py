"""The one door through which CodeBlanks runs code.

    from codeblanks.sandbox import get_sandbox, RunLimits
    result = get_sandbox().run(code, filename="model.py", limits=RunLimits(), capture=("A",))
    result = await get_sandbox().arun(code, ...)   # from async code (the web app)

Only this package may create processes (ruff's banned-api rule guards the door).
"""

from typing import Any

from codeblanks.sandbox.result import VERDICTS, RunLimits, RunResult

__all__ = ["VERDICTS", "RunLimits", "RunResult", "Sandbox", "SandboxUnavailable", "get_sandbox"]


def __getattr__(name: str) -> Any:
    """The service on first use, not at import: ``codeblanks.sandbox.warm`` (the command line's
    client) must not pay for the supervisor and asyncio."""
    if name in ("Sandbox", "SandboxUnavailable", "get_sandbox"):
        from codeblanks.sandbox import service

        return getattr(service, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
