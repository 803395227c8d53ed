"""`make run` serves on the port asked for (the learner trial: 8000 was hard-wired): PORT=8001
reaches the serve command, and 8000 stays the default. Read with `make -n`, which runs nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _serve_line(*args: str) -> str:
    out = subprocess.run(["make", "-n", "run", *args], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    return next(line for line in out.splitlines() if "codeblanks serve" in line)


def test_make_run_takes_a_port():
    assert _serve_line("PORT=8001").endswith("--port 8001")
    assert _serve_line().endswith("--port 8000")
