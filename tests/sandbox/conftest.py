"""One real sandbox for the whole module (starting one costs ~0.5 s); no mocks anywhere."""

from __future__ import annotations

import os

import pytest

from codeblanks.sandbox import RunLimits, Sandbox
from codeblanks.sandbox.config import SandboxConfig

SECRET = "cb-test-secret-7f3a9c"
# Short limits keep the hostile suite fast; the defaults are tested separately.
FAST = RunLimits(wall_s=2.0, cpu_s=2.0)


@pytest.fixture(scope="session")
def sandbox():
    # A secret in the web process's environment must never reach a program.
    os.environ["CODEBLANKS_FAKE_SECRET"] = SECRET
    box = Sandbox(config=SandboxConfig(slots=2, queue=16, spares=4))
    yield box
    box.close()


@pytest.fixture
def secret(sandbox):
    return SECRET


@pytest.fixture
def run(sandbox):
    """Run a program and check the sandbox still answers correctly afterwards."""

    def _run(code: str, limits: RunLimits = FAST, **kwargs):
        result = sandbox.run(code, limits=limits, **kwargs)
        after = sandbox.run("import numpy as np\nprint(int(np.sum([1, 2, 3])))")
        assert after.verdict == "ok" and after.stdout == "6\n", (after, result)
        return result

    return _run
