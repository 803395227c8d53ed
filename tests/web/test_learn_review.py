"""`codeblanks learn review` walks the review queue of a real server (the live
server, this process: its queue's clock moved on in-process), one answer per card."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.utils import timezone

from codeblanks.cli.main import main
from codeblanks.content.public import option_order
from codeblanks.web.learner import reviews

from .conftest import CHOICE, FIRST
from .test_learner_api import auth, make_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("midday")]


@pytest.fixture
def terminal(tmp_path, monkeypatch, live_server, client):
    """A learner's terminal logged in to the live server with their token."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("CODEBLANKS_SERVER", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    user, raw = make_token(client)
    assert main(["learn", "login", "--server", live_server.url, "--token", raw]) == 0
    return user, raw


def review(monkeypatch, capsys, url, *lines):
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["learn", "review", "--server", url])
    return code, capsys.readouterr().out


def test_learn_review_asks_what_is_due_and_fsrs_moves_it(terminal, client, live_server,
                                                         monkeypatch, capsys):  # fmt: skip
    user, raw = terminal
    shown = option_order(CHOICE, f"user:{user.pk}")
    right = shown.index(CHOICE.answer)
    url = f"/api/lessons/{FIRST.id}/questions/{CHOICE.id}"
    client.post(url, {"answer": right}, "application/json", **auth(raw))

    code, out = review(monkeypatch, capsys, live_server.url)
    assert code == 0 and "Nothing to review right now." in out

    later = timezone.now() + timedelta(days=30)
    monkeypatch.setattr(reviews, "clock", lambda: later)
    wrong = (right + 1) % len(shown)
    code, out = review(monkeypatch, capsys, live_server.url, "x", str(wrong + 1))
    assert code == 1 and CHOICE.prompt in out and "Type a number from 1" in out
    assert CHOICE.explanation in out and "0 of 1 right." in out
    code, out = review(monkeypatch, capsys, live_server.url)
    assert code == 0 and "1 more come back later today." in out  # wrong: ten minutes on

    monkeypatch.setattr(reviews, "clock", lambda: later + timedelta(minutes=11))
    code, out = review(monkeypatch, capsys, live_server.url, str(right + 1))
    assert code == 0 and "Right." in out and "1 of 1 right." in out


def test_learn_review_needs_a_server_and_a_token(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("CODEBLANKS_UNSAFE_NO_SANDBOX", "1")
    monkeypatch.delenv("CODEBLANKS_SERVER", raising=False)
    assert main(["learn", "review"]) == 2
    assert "learn login" in capsys.readouterr().err
