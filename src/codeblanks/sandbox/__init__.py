"""The one door through which CodeBlanks runs code.

    from codeblanks.sandbox import get_sandbox, RunLimits
    result = get_sandbox().run(code, filename="model.py", limits=RunLimits(), capture=("A",))
    result = await get_sandbox().arun(code, ...)   # from async code (the web app)

Only this package may create processes (ruff's banned-api rule guards the door).
"""

from codeblanks.sandbox.result import VERDICTS, RunLimits, RunResult
from codeblanks.sandbox.service import Sandbox, SandboxUnavailable, get_sandbox

__all__ = ["VERDICTS", "RunLimits", "RunResult", "Sandbox", "SandboxUnavailable", "get_sandbox"]
