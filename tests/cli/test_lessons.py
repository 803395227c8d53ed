from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from codeblanks.cli.main import main


def test_lessons_json_lists_query_key_value_at_expert(capsys):
    assert main(["lessons", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_id = {row["id"]: row for row in rows}
    assert by_id["query-key-value"]["level"] == "Intermediate"
    assert by_id["query-key-value"]["course"] == "attention-from-scratch"
    assert all({"id", "title", "level", "course"} <= set(row) for row in rows)


def test_lessons_lists_extra_courses_from_the_environment(tiny, capsys):
    assert main(["lessons"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "sum-two" in line)
    assert "Beginner" in line and "tiny" in line and "Sum two numbers" in line


def test_installed_console_script_lists_lessons():
    script = Path(sys.executable).parent / "codeblanks"
    done = subprocess.run(
        [str(script), "lessons", "--json"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "query-key-value" in [row["id"] for row in json.loads(done.stdout)]


def test_unsafe_flag_sets_the_variable_and_warns(monkeypatch, capsys):
    monkeypatch.setenv("CODEBLANKS_UNSAFE_NO_SANDBOX", "")  # restored after the test
    assert main(["--unsafe-no-sandbox", "lessons"]) == 0
    import os

    assert os.environ["CODEBLANKS_UNSAFE_NO_SANDBOX"] == "1"
    assert "WITHOUT isolation" in capsys.readouterr().err


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["no-such-command"]) == 2
    assert main(["grade", "only-one-argument"]) == 2
    assert "usage:" in capsys.readouterr().err
