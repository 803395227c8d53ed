"""The learning core is strictly typed: ``mypy --strict`` finds nothing in ``learning/`` (the
modules it imports are read for their types, not reported on)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src"


def test_learning_passes_mypy_strict():
    command = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent"]
    command += ["--no-incremental", "-p", "codeblanks.learning"]
    done = subprocess.run(command, cwd=SOURCE, capture_output=True, text=True, timeout=600)
    assert "No module named mypy" not in done.stderr, "mypy is in the test extra: make install"
    assert done.returncode == 0, done.stdout + done.stderr
