"""No local state is ever committed: a ``data/`` folder (the SQLite file, the generated secret
key: ``CODEBLANKS_DATA_DIR``) is ignored at any depth, and none is tracked
(``src/codeblanks/data/secret_key`` once was)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (PROJECT / ".git").exists(), reason="not a git checkout"
)


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-C", str(PROJECT), *args], capture_output=True, text=True, timeout=60
    )


def test_no_file_in_a_data_folder_is_tracked():
    tracked = _git("ls-files", "-z").stdout.split("\0")
    assert [p for p in tracked if "data" in Path(p).parts[:-1]] == []


@pytest.mark.parametrize(
    "path", ["data/secret_key", "src/codeblanks/data/secret_key", "deploy/x/data/db.sqlite3"]
)
def test_a_data_folder_is_ignored_at_any_depth(path):
    assert _git("check-ignore", "--no-index", "-q", path).returncode == 0, path
