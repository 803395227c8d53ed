"""The terminal learner against a real `codeblanks serve` (SQLite, the real sandbox): sign up in
the "browser", make a personal token on the progress page, then `codeblanks learn` does the
lesson and the progress shows on the web page of the same account; a revoked token is refused
in words; and in tmux, as a person would see it, the verdict is coloured."""

from __future__ import annotations

import html
import os
import re
import secrets
import shutil
import subprocess
import time

import pytest

from codeblanks.content import catalog

from .nodes import CODEBLANKS, Browser, csrf_token, node_env

LESSON = "query-key-value"


@pytest.fixture
def node(start_node, tmp_path):
    node = start_node("learn", node_env({"CODEBLANKS_DATA_DIR": str(tmp_path / "data")}))
    node.wait_healthy()
    return node


@pytest.fixture
def learner(tmp_path):
    """Environment of a learner's terminal: their own config and data folders, no server set."""
    env = node_env({})
    env.update(XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "share"))
    env.pop("http_proxy", None)
    env.pop("HTTP_PROXY", None)
    return env


def learn(env, *args, cwd, input=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CODEBLANKS, "learn", *args],
        env=env,
        cwd=cwd,
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
    )


def sign_up_and_make_token(node) -> tuple[Browser, str]:
    browser = Browser()
    form = browser.get(f"{node.url}/accounts/signup/")
    password = secrets.token_urlsafe(12)
    done = browser.post(
        f"{node.url}/accounts/signup/",
        {
            "csrfmiddlewaretoken": csrf_token(form.body),
            "username": "terminal-learner",
            "password1": password,
            "password2": password,
        },
    )
    assert done.status == 302, done.body[:1000]
    page = browser.get(f"{node.url}/progress/")
    made = browser.post(
        f"{node.url}/progress/tokens",
        {"csrfmiddlewaretoken": csrf_token(page.body), "name": "my terminal"},
    )
    assert made.status == 200, made.body[:1000]
    token = re.search(r'<code class="token-text">(cbt_[^<]+)</code>', made.body)
    assert token, "the progress page does not show the new token"
    return browser, html.unescape(token.group(1))


def test_a_lesson_in_the_terminal_counts_on_the_web(node, learner, tmp_path):
    lesson = catalog().lesson(LESSON)
    browser, token = sign_up_and_make_token(node)

    logged = learn(learner, "login", "--server", node.url, "--token", token, cwd=tmp_path)
    assert logged.returncode == 0, logged.stderr
    assert "terminal-learner" in logged.stdout
    creds = tmp_path / "cfg" / "codeblanks" / "credentials.json"
    assert oct(creds.stat().st_mode & 0o777) == "0o600"

    started = learn(learner, "start", LESSON, cwd=tmp_path)
    assert started.returncode == 0, started.stderr
    folder = tmp_path / LESSON
    assert (folder / "model.py").read_text() == lesson.exercise.starter

    failed = learn(learner, "test", cwd=folder)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Your program stopped with an error  (case: " in failed.stdout

    hint = learn(learner, "hint", cwd=folder)
    assert hint.returncode == 0 and f"Hint 1 of {len(lesson.exercise.hints)}" in hint.stdout

    (folder / "model.py").write_text(lesson.exercise.solution)
    passed = learn(learner, "test", cwd=folder)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Correct" in passed.stdout

    # Choices come in this learner's own order: read the number of the right one off the screen.
    first = lesson.questions[0]
    shown = learn(learner, "quiz", cwd=folder, input="").stdout
    right = first.options[first.answer]
    number = re.search(rf"^\s*(\d+)\) {re.escape(right)}$", shown, re.M).group(1)
    quiz = learn(learner, "quiz", cwd=folder, input=f"{number}\n")
    assert "Right." in quiz.stdout, quiz.stdout + quiz.stderr

    # The same account in the browser: solved, the terminal's code in the editor.
    progress = browser.get(f"{node.url}/progress/").body
    row = next(r for r in re.findall(r"<tr>.*?</tr>", progress, re.S) if lesson.title in r)
    assert "Solved" in row and f"1/{len(lesson.questions)}" in row
    page = browser.get(f"{node.url}/lessons/{LESSON}/").body
    assert html.escape(lesson.exercise.solution.splitlines()[-1], quote=False) in page
    listed = learn(learner, "lessons", "--json", cwd=tmp_path)
    assert '"solved": true' in listed.stdout

    # Revoked on the web: the terminal is told so, in words, and exits 2.
    page = browser.get(f"{node.url}/progress/")
    token_id = re.search(r'action="/progress/tokens/(\d+)/revoke"', page.body).group(1)
    browser.post(
        f"{node.url}/progress/tokens/{token_id}/revoke",
        {"csrfmiddlewaretoken": csrf_token(page.body)},
    )
    refused = learn(learner, "test", cwd=folder)
    assert refused.returncode == 2
    assert "revoked" in refused.stderr and "codeblanks learn login" in refused.stderr


def test_no_server_answering_is_said_in_words(learner, tmp_path):
    gone = learn(learner, "lessons", "--server", "http://127.0.0.1:9", cwd=tmp_path)
    assert gone.returncode == 2
    assert "no CodeBlanks server answers at http://127.0.0.1:9" in gone.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_terminal_the_verdict_is_coloured(node, learner, tmp_path):
    """What a person sees: tmux runs `learn test` on a real terminal; its screen keeps the
    colours (capture-pane -e), while a pipe (the other tests) gets plain text."""
    lesson = catalog().lesson(LESSON)
    learn(learner, "start", LESSON, "--server", node.url, cwd=tmp_path)
    folder = tmp_path / LESSON
    (folder / "model.py").write_text(lesson.exercise.solution)
    session = f"cb{secrets.token_hex(3)}"
    env = {**learner, "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    command = " ".join([*CODEBLANKS, "learn", "test"]) + "; echo EXIT=$?; sleep 30"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command],
        env=env,
        cwd=folder,
        check=True,
    )
    try:
        screen = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "EXIT=" not in screen:
            time.sleep(0.3)
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-e", "-t", session],
                capture_output=True,
                text=True,
                env={**os.environ, "TMUX": ""},
            ).stdout
        assert "EXIT=0" in screen, screen
        line = next(x for x in screen.splitlines() if "Correct" in x)
        assert "\x1b[" in line, f"no colour on the verdict line: {line!r}"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
