"""`codeblanks manage`: Django's commands with our settings, through the installed script."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("codeblanks")


def _manage(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CODEBLANKS_", "DJANGO_"))}
    env["CODEBLANKS_DATA_DIR"] = str(tmp_path / "data")
    return subprocess.run(
        [str(SCRIPT), "manage", *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_migrate_creates_the_tables_in_the_configured_database(tmp_path):
    done = _manage(tmp_path, "migrate", "--noinput")
    assert done.returncode == 0, done.stderr
    [database] = (tmp_path / "data").glob("*.sqlite3")
    tables = {row[0] for row in sqlite3.connect(database).execute("SELECT name FROM sqlite_master")}
    assert "auth_user" in tables and any(t.startswith("codeblanks_") for t in tables)


def test_an_unknown_command_fails_with_djangos_message(tmp_path):
    done = _manage(tmp_path, "no-such-command")
    assert done.returncode == 1
    assert "Unknown command" in done.stderr
