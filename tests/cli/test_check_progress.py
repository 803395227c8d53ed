"""``codeblanks check`` shows its progress on a terminal (Rich: a line per lesson proved, with
its time, its problems as they come) and stays quiet and plain when piped or in CI."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from codeblanks.cli import check
from codeblanks.cli.check_live import Live
from codeblanks.cli.check_progress import Plain, in_ci, progress_for
from codeblanks.cli.main import main

FIXTURES = Path(__file__).parents[1] / "content" / "fixtures"
CODEBLANKS = Path(sys.executable).with_name("codeblanks")
ESCAPE = "\x1b["
SUMMARY = "1 lesson in 1 course: 0 problems"


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return {**env, "LANG": "C.UTF-8", **extra}


def test_piped_output_is_the_problems_and_the_summary_only():
    done = subprocess.run(
        [str(CODEBLANKS), "check", str(FIXTURES / "valid")],
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == SUMMARY + "\n"  # no progress, no colours
    assert ESCAPE not in done.stderr


def _on_a_terminal(*args: str, **env: str) -> str:
    """What ``codeblanks`` writes with a terminal (a pseudo-terminal) as its stdout."""
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [str(CODEBLANKS), *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.PIPE,
        env=_environment(TERM="xterm-256color", COLUMNS="120", **env),
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the child closed the terminal's last end
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=600)
    os.close(leader)
    assert process.returncode == 0, b"".join(chunks)
    return b"".join(chunks).decode(errors="replace").replace("\r\n", "\n")


def test_in_ci_a_terminal_gets_plain_output_too():
    out = _on_a_terminal("check", str(FIXTURES / "valid"), CI="true")
    assert out == SUMMARY + "\n"


def test_on_a_terminal_each_lesson_is_shown_with_its_time():
    out = _on_a_terminal("check", str(FIXTURES / "valid"))
    assert ESCAPE in out  # Rich's colours
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out)
    assert re.search(r"✓ sum-two \(en\)\s+\d+\.\d s", plain), plain
    assert plain.rstrip().endswith(SUMMARY), plain


def test_problems_are_shown_under_their_lesson_as_they_come(tiny, monkeypatch):
    (tiny / "01-sum" / "expected.txt").write_text("7\n")  # not what solution.py prints
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=200, color_system="standard")
    monkeypatch.setattr(check, "progress_for", lambda: Live(console))
    assert main(["check", str(tiny)]) == 1
    out = screen.getvalue()
    assert ESCAPE in out
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out)
    lines = plain.splitlines()
    problem = next(i for i, line in enumerate(lines) if line.startswith("grading.E001 "))
    mark = next(i for i, line in enumerate(lines) if line.startswith("✗ sum-two (en): "))
    assert problem < mark, plain  # the problem as it came, then the lesson's line
    assert re.search(r"✗ sum-two \(en\): \d+ problems?\s+\d+\.\d s", lines[mark]), lines[mark]
    assert re.fullmatch(r"1 lesson in 1 course: \d+ problems?", lines[-1]), lines[-1]


@pytest.mark.parametrize(
    ("value", "ci"), [("", False), ("0", False), ("false", False), ("true", True), ("1", True)]
)
def test_ci_is_any_value_but_empty_or_false(value, ci):
    assert in_ci({"CI": value}) is ci
    assert not in_ci({})


def test_the_mode_follows_the_stream_and_ci():
    assert isinstance(progress_for(io.StringIO(), {}), Plain)
    leader, follower = pty.openpty()
    try:
        with open(follower, "w", closefd=False) as terminal:
            assert isinstance(progress_for(terminal, {}), Live)
            assert isinstance(progress_for(terminal, {"CI": "1"}), Plain)
    finally:
        os.close(leader)
        os.close(follower)
