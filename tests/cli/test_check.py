from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from codeblanks.cli.main import main

FIXTURES = Path(__file__).parents[1] / "content" / "fixtures"
BROKEN = sorted(p for p in FIXTURES.iterdir() if p.name.startswith("content."))


def test_builtin_courses_pass_the_static_checks(capsys):
    assert main(["check", "--no-run"]) == 0, capsys.readouterr().out
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ lessons? in \d+ courses?: 0 problems", last)


def test_a_valid_course_passes_with_the_sandbox_proofs(capsys):
    assert main(["check", str(FIXTURES / "valid")]) == 0, capsys.readouterr().out
    assert capsys.readouterr().out.strip().endswith("1 lesson in 1 course: 0 problems")


@pytest.mark.parametrize("folder", BROKEN, ids=lambda p: p.name)
def test_each_broken_fixture_fails_with_its_problem(folder: Path, capsys, monkeypatch):
    expect = tomllib.loads((folder / "expect.toml").read_text())
    monkeypatch.chdir(folder)
    assert main(["check", "--no-run", "."]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    where = str(Path(expect["file"])) + (f":{expect['line']}" if "line" in expect else "")
    assert lines[0].startswith(f"{expect['code']} {where}: "), lines
    assert lines[0].endswith(")")  # the fix, in parentheses
    assert lines[-1].endswith(": 1 problem")


def test_missing_path_is_a_usage_error(tmp_path, capsys):
    assert main(["check", str(tmp_path / "nowhere")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_sandbox_proof_problems_are_printed_and_fail_the_check(tiny, capsys):
    (tiny / "01-sum" / "expected.txt").write_text("7\n")  # not what solution.py prints
    assert main(["check", str(tiny)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert any(line.startswith("grading.") for line in lines[:-1]), lines
    assert re.fullmatch(r"1 lesson in 1 course: \d+ problems?", lines[-1])
    assert main(["check", "--no-run", str(tiny)]) == 0  # the files themselves are fine
