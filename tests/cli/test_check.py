from __future__ import annotations

import importlib
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from codeblanks.cli.main import main

FIXTURES = Path(__file__).parents[1] / "content" / "fixtures"
BUILTIN = Path(__file__).parents[2] / "src" / "codeblanks" / "courses"
BROKEN = sorted(p for p in FIXTURES.iterdir() if p.name.startswith("content."))


def test_builtin_courses_pass_the_static_checks(capsys):
    """And every built-in lesson has a complete, current translation into each of its course's
    languages: a missing or out-of-date one is a warning, which fails here."""
    assert main(["check", "--no-run"]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out.strip().splitlines()
    # Every lesson folder on disk, so that none can go missing from the check unnoticed.
    lessons = len(list(BUILTIN.glob("*/[0-9]*/lesson.toml")))
    courses = len(list(BUILTIN.glob("*/course.toml")))
    assert lessons >= 25 + 5 and courses >= 2, (lessons, courses)
    said = f"{lessons} lessons (and {lessons} translations) in {courses} courses: 0 problems"
    assert out[-1] == said, "\n".join(out)


def test_a_translated_course_is_proved_in_both_languages(capsys, tmp_path):
    course = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "translated", course)
    assert main(["check", str(course)]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out.strip()
    assert out.endswith("1 lesson (and 1 translation) in 1 course: 0 problems"), out
    # the Turkish solution is a program of its own: a wrong one is refused, in its own file
    solution = course / "01-sum" / "tr" / "solution.py"
    solution.write_text(solution.read_text().replace("a + b", "a * b"))
    assert main(["check", str(course)]) == 1
    out = capsys.readouterr().out
    assert f"grading.E001 {solution}" in out, out
    assert "1 problem" in out.strip().splitlines()[-1]


def test_a_valid_course_passes_with_the_sandbox_proofs(capsys):
    assert main(["check", str(FIXTURES / "valid")]) == 0, capsys.readouterr().out
    assert capsys.readouterr().out.strip().endswith("1 lesson in 1 course: 0 problems")


@pytest.mark.parametrize("folder", BROKEN, ids=lambda p: p.name)
def test_each_broken_fixture_fails_with_its_problem(folder: Path, capsys, monkeypatch):
    expect = tomllib.loads((folder / "expect.toml").read_text())
    monkeypatch.chdir(folder)
    warning = ".W" in expect["code"]
    assert main(["check", "--no-run", "."]) == (0 if warning else 1)
    lines = capsys.readouterr().out.strip().splitlines()
    where = str(Path(expect["file"])) + (f":{expect['line']}" if "line" in expect else "")
    assert lines[0].startswith(f"{expect['code']} {where}: "), lines
    assert lines[0].endswith(")")  # the fix, in parentheses
    assert lines[-1].endswith(": 0 problems, 1 warning" if warning else ": 1 problem")


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


def test_a_solution_whose_output_differs_shows_what_it_printed(tiny, capsys):
    (tiny / "01-sum" / "expected.txt").write_text("7\n")
    assert main(["check", str(tiny)]) == 1
    out = capsys.readouterr().out
    first = out.index("grading.E001 ")
    assert "    -7\n    +5\n" in out[first:], out


def test_a_new_course_passes_its_check_with_a_warning_for_each_todo(tmp_path, capsys):
    course = tmp_path / "my-course"
    assert main(["new", "course", str(course), "--id", "my-course", "--title", "Mine"]) == 0
    assert (course / "course.toml").exists() and (
        course / "01-first-lesson" / "starter.py"
    ).exists()
    capsys.readouterr()
    assert main(["check", str(course)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert all(line.startswith("content.W001 ") for line in lines[:-1]), lines
    assert re.fullmatch(r"1 lesson in 1 course: 0 problems, \d+ warnings", lines[-1])
    assert any("course.toml:3: still TODO" in line for line in lines)
    assert main(["new", "course", str(course), "--id", "my-course", "--title", "Mine"]) == 2


def test_a_sandbox_that_cannot_start_is_exit_3_naming_why(tiny, capsys, monkeypatch):
    """The proofs start the sandbox before anything runs (``aprove_all``); a machine that cannot
    isolate programs stops the check there, with its reason. The static checks need none."""
    from codeblanks.sandbox import SandboxUnavailable

    # the module: the package gives its name to the function `prove`
    proofs = importlib.import_module("codeblanks.grading.prove")

    def unavailable():
        raise SandboxUnavailable("no user namespaces here")

    monkeypatch.setattr(proofs, "get_sandbox", unavailable)
    assert main(["check", str(tiny)]) == 3
    assert "the sandbox cannot run here: no user namespaces here" in capsys.readouterr().err
    assert main(["check", "--no-run", str(tiny)]) == 0
