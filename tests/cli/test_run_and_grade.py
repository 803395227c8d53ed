"""``run`` and ``grade`` through the real sandbox (whatever ``get_sandbox`` returns)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeblanks.cli.main import main
from codeblanks.content import catalog


@pytest.fixture
def qkv() -> Path:
    lesson = catalog().lesson("query-key-value")
    assert lesson is not None, "the built-in lesson query-key-value does not load"
    return lesson.path


def write(tmp_path: Path, name: str, code: str) -> str:
    path = tmp_path / name
    path.write_text(code)
    return str(path)


def test_run_prints_the_programs_output(tmp_path, capsys):
    assert main(["run", write(tmp_path, "hi.py", "print('hello', 6 * 7)\n")]) == 0
    assert capsys.readouterr().out == "hello 42\n"


def test_run_json_reports_a_failing_program(tmp_path, capsys):
    code = "import sys\nprint('partial')\nsys.exit(3)\n"
    assert main(["run", "--json", write(tmp_path, "fail.py", code)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["verdict"] == "error" and result["stdout"] == "partial\n"
    assert {"stderr", "duration_ms"} <= set(result)


def test_run_missing_file_exits_2(tmp_path, capsys):
    assert main(["run", str(tmp_path / "absent.py")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_grade_solution_is_correct(qkv, capsys):
    assert main(["grade", "query-key-value", str(qkv / "solution.py"), "--json"]) == 0
    grade = json.loads(capsys.readouterr().out)
    assert grade["verdict"] == "correct"
    assert grade["stdout"] == grade["expected"]
    assert grade["feedback"] == []


def test_grade_starter_is_not_correct(qkv, capsys):
    assert main(["grade", "query-key-value", str(qkv / "starter.py"), "--json"]) == 1
    grade = json.loads(capsys.readouterr().out)
    assert grade["verdict"] != "correct" and grade["feedback"]


def test_grade_human_output_shows_verdict_feedback_and_diff(tiny, tmp_path, capsys):
    wrong = write(tmp_path, "main.py", "a = 2\nb = 3\ntotal = a * b\nprint(total)\n")
    assert main(["grade", "sum-two", wrong]) == 1
    out = capsys.readouterr().out
    assert out.startswith("incorrect")
    assert "  - " in out  # feedback
    assert "-5" in out and "+6" in out  # the diff


def test_grade_unknown_lesson_names_close_ids(qkv, capsys):
    assert main(["grade", "query-key-valu", str(qkv / "solution.py")]) == 2
    err = capsys.readouterr().err
    assert "unknown lesson 'query-key-valu'" in err and "query-key-value" in err


def test_grade_missing_file_exits_2(capsys):
    assert main(["grade", "query-key-value", "/no/such/file.py"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_machine_that_cannot_isolate_exits_3(tmp_path, monkeypatch, capsys):
    import codeblanks.sandbox
    from codeblanks.sandbox import SandboxUnavailable

    def unavailable():
        raise SandboxUnavailable("no user namespaces here")

    monkeypatch.setattr(codeblanks.sandbox, "get_sandbox", unavailable)
    assert main(["run", write(tmp_path, "hi.py", "print(1)\n")]) == 3
    assert "no user namespaces here" in capsys.readouterr().err


ESCAPES = (
    "import sys\n"
    "print('\\x1b[2J\\x1b]0;owned\\x07title\\tok\\r')\n"
    "sys.stderr.write('\\x1b[31mred\\u202e\\n')\n"
    "print('zero\\u200bwidth\\ufeff, joined\\u200d')\n"
)


def test_run_shows_a_programs_control_characters_visibly(tmp_path, capsys):
    """Escape sequences a program prints would clear the screen, retitle the terminal or hide
    text: shown as escapes instead. Newline and tab stay as they are."""
    assert main(["run", write(tmp_path, "esc.py", ESCAPES)]) == 0
    out, err = capsys.readouterr()
    assert out == (
        "\\x1b[2J\\x1b]0;owned\\x07title\tok\\r\n"
        "zero\\u200bwidth\\ufeff, joined\u200d\n"  # the joiner some scripts need stays
    )
    assert err == "\\x1b[31mred\\u202e\n"
    assert "\x1b" not in out + err and "\x07" not in out


def test_run_raw_writes_the_output_as_it_is(tmp_path, capsys):
    assert main(["run", "--raw", write(tmp_path, "esc.py", ESCAPES)]) == 0
    out, err = capsys.readouterr()
    assert out == "\x1b[2J\x1b]0;owned\x07title\tok\r\nzero\u200bwidth\ufeff, joined\u200d\n"
    assert err == "\x1b[31mred\u202e\n"


def test_grade_shows_a_programs_control_characters_visibly(qkv, tmp_path, capsys):
    """The grade's diff and stderr hold what the program printed: no raw escape reaches the
    terminal from `codeblanks grade` either."""
    hostile = "import sys\nsys.stderr.write('\\x1b]0;owned\\x07')\nraise SystemExit(1)\n"
    assert main(["grade", "query-key-value", write(tmp_path, "model.py", hostile)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b]0;owned\\x07" in out


def test_grade_shows_no_diff_where_prints_are_not_graded(tmp_path, monkeypatch, capsys):
    import shutil

    pycourse = Path(__file__).parents[1] / "grading" / "pycourse"
    course = Path(shutil.copytree(pycourse, tmp_path / "pycourse"))
    monkeypatch.setenv("CODEBLANKS_COURSES", str(course))
    wrong = (course / "06-fibonacci" / "programs" / "wrong-starts-at-one.py").read_text()
    program = write(tmp_path, "fib.py", wrong + "\nprint('debugging')\n")
    assert main(["grade", "py-fibonacci", program]) == 1
    out = capsys.readouterr().out
    assert out.startswith("incorrect") and "  - 2 of 3 tests fail:" in out
    assert "+debugging" not in out and "expected output" not in out  # no diff against nothing
