"""The learning core and grading are strictly typed: ``mypy --strict`` finds nothing in
``learning/`` or ``grading/`` (the modules they import are read for their types, not reported
on)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.parametrize("package", ["codeblanks.learning", "codeblanks.grading"])
def test_package_passes_mypy_strict(package):
    """One run per package, so that a failure names the package that lost its types."""
    command = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent"]
    command += ["--no-incremental", "-p", package]
    done = subprocess.run(command, cwd=SOURCE, capture_output=True, text=True, timeout=600)
    assert "No module named mypy" not in done.stderr, "mypy is in the test extra: make install"
    assert done.returncode == 0, done.stdout + done.stderr
