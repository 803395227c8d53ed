"""The warm sandbox of the command line: the first call starts a server of
the user's, later calls reuse it, it stops once idle, and it is never reached through a folder
that is not private. Real processes throughout; waits are polls with long deadlines."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from codeblanks.cli.main import main
from codeblanks.content import catalog

QKV = "query-key-value"
DEADLINE_S = 120.0


@pytest.fixture
def user(tmp_path, monkeypatch):
    """A user of their own: a private runtime folder, data and config folders, a short idle."""
    # Short: a Unix socket's path has at most 107 bytes (pytest's folders are long).
    runtime = Path(tempfile.mkdtemp(prefix="cbw-", dir="/tmp"))
    os.chmod(runtime, 0o700)
    env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        # Long: the calls of one test must find it; test_it_stops_when_idle sets a short one.
        "CODEBLANKS_WARM_IDLE_S": "600",
    }
    env.pop("CODEBLANKS_SERVER", None)
    env.pop("CODEBLANKS_WARM", None)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, env[name])
    monkeypatch.delenv("CODEBLANKS_SERVER", raising=False)
    yield env
    for pid in servers(runtime):  # never leave one behind
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + DEADLINE_S
    while servers(runtime) and time.monotonic() < deadline:
        time.sleep(0.1)
    shutil.rmtree(runtime, ignore_errors=True)


def servers(runtime: Path) -> list[int]:
    """The warm servers whose socket lives under ``runtime``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"codeblanks.cli.warm" in cmdline and any(str(runtime).encode() in a for a in cmdline):
            found.append(int(entry.name))
    return found


def codeblanks(env, *args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "codeblanks.cli.main", *args],
        capture_output=True, text=True, timeout=300, env=env, cwd=cwd,
    )  # fmt: skip


def test_the_second_call_reuses_the_warm_sandbox(user, tmp_path):
    runtime = Path(user["XDG_RUNTIME_DIR"])
    program = tmp_path / "hi.py"
    program.write_text("import os\nprint('hello', 6 * 7)\n")
    first = codeblanks(user, "run", "hi.py", cwd=tmp_path)
    assert (first.returncode, first.stdout) == (0, "hello 42\n"), first.stderr
    started = servers(runtime)
    assert len(started) == 1

    solution = tmp_path / "qkv.py"
    solution.write_text(catalog().lesson(QKV).exercise.solution)
    second = codeblanks(user, "grade", QKV, "qkv.py", "--json", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["verdict"] == "correct"
    assert servers(runtime) == started  # the same server answered
    folder = runtime / "codeblanks"
    assert (folder.stat().st_mode & 0o777) == 0o700


def test_it_stops_when_idle(user, tmp_path):
    runtime = Path(user["XDG_RUNTIME_DIR"])
    (tmp_path / "hi.py").write_text("print('hi')\n")
    done = codeblanks({**user, "CODEBLANKS_WARM_IDLE_S": "1"}, "run", "hi.py", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "hi\n"), done.stderr
    folder = runtime / "codeblanks"
    assert list(folder.glob("*.log"))  # a server was started (its log stays)
    deadline = time.monotonic() + DEADLINE_S
    while servers(runtime) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert servers(runtime) == [], "the warm server did not stop when idle"
    assert list(folder.glob("*.sock")) == []


def test_learn_test_goes_to_the_warm_sandbox_and_keeps_progress(user, tmp_path, monkeypatch):
    runtime = Path(user["XDG_RUNTIME_DIR"])
    monkeypatch.chdir(tmp_path)
    assert main(["learn", "start", QKV, "work"]) == 0
    starter = codeblanks(user, "learn", "test", cwd=tmp_path / "work")
    assert starter.returncode == 1
    assert "Your program stopped with an error  (case: " in starter.stdout
    started = servers(runtime)
    assert len(started) == 1
    (tmp_path / "work" / "model.py").write_text(catalog().lesson(QKV).exercise.solution)
    solved = codeblanks(user, "learn", "test", "--json", cwd=tmp_path / "work")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["verdict"] == "correct"
    assert servers(runtime) == started
    progress = json.loads((tmp_path / "data" / "codeblanks" / "progress.json").read_text())
    assert progress  # written by the server, as the learner, in the learner's data folder


def test_a_folder_others_may_enter_is_refused_and_the_call_runs_cold(user, tmp_path):
    runtime = Path(user["XDG_RUNTIME_DIR"])
    (runtime / "codeblanks").mkdir(mode=0o755)
    os.chmod(runtime / "codeblanks", 0o755)
    program = tmp_path / "hi.py"
    program.write_text("print('cold')\n")
    done = codeblanks(user, "run", "hi.py", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "cold\n")
    assert "not using the warm sandbox" in done.stderr and "mode 755" in done.stderr
    assert servers(runtime) == []


def test_another_user_cannot_reach_the_socket(user, tmp_path):
    runtime = Path(user["XDG_RUNTIME_DIR"])
    (tmp_path / "hi.py").write_text("print(1)\n")
    assert codeblanks(user, "run", "hi.py", cwd=tmp_path).returncode == 0
    (sock,) = (runtime / "codeblanks").glob("*.sock")
    os.chmod(runtime, 0o755)  # let the other user reach the private folder itself
    pid = os.fork()
    if pid == 0:  # another user (nobody) tries to talk to the server
        code = 3
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            probe = socket.socket(socket.AF_UNIX)
            try:
                probe.connect(str(sock))
                code = 0
            except PermissionError:
                code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 1  # refused by the private folder
    # ... and our own connection works
    mine = socket.socket(socket.AF_UNIX)
    mine.connect(str(sock))
    mine.close()
