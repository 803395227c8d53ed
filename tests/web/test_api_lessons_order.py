"""The learner trial's F14: `GET /api/lessons` gives each lesson the next one in its
course's reading order (what `codeblanks learn test` names after a solve), and with a token
whether the learner tried it on the web (begun, not solved: what `learn lessons` marks ◐)."""

from __future__ import annotations

import pytest

from codeblanks.content.public import option_order

from .conftest import CHOICE, FIRST, LAST
from .test_learner_api import auth, make_token

pytestmark = pytest.mark.django_db


def test_the_list_names_each_lessons_next_and_what_was_tried(client):
    rows = {row["id"]: row for row in client.get("/api/lessons").json()["lessons"]}
    assert rows[FIRST.id]["next"] == LAST.id and rows[LAST.id]["next"] is None
    assert "progress" not in rows[FIRST.id]

    user, raw = make_token(client)
    shown = option_order(CHOICE, f"user:{user.pk}")
    wrong = (shown.index(CHOICE.answer) + 1) % len(shown)
    url = f"/api/lessons/{FIRST.id}/questions/{CHOICE.id}"
    assert client.post(url, {"answer": wrong}, "application/json", **auth(raw)).status_code == 200
    mine = {row["id"]: row["progress"] for row in
            client.get("/api/lessons", **auth(raw)).json()["lessons"]}  # fmt: skip
    assert mine[FIRST.id]["tried"] is True and mine[FIRST.id]["solved"] is False
    assert mine[LAST.id]["tried"] is False
