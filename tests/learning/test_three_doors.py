"""One learner, three doors, the same outcomes: the lesson page (the real views, htmx posts with
a CSRF token, an anonymous visitor), the JSON API with a personal token, and the terminal's local
mode (``LocalBackend``, progress in its JSON file). Each door drives the same script against the
documented example lesson with the real grader and sandbox; only the ``busy`` step swaps in a
``Runner`` double that answers ``busy``. The transcript each door leaves (what the learner was
told, reduced to its kind, and what was recorded) must be the one below, for every door."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from codeblanks.cli.console import UsageError
from codeblanks.cli.learn import backends
from codeblanks.content import load_courses
from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox import get_sandbox
from codeblanks.sandbox.result import Runner, RunResult
from codeblanks.sandbox.testing import FakeRunner
from codeblanks.web.learner import api_tokens, store
from codeblanks.web.models import LessonProgress
from codeblanks.web.pages import selectors

pytestmark = pytest.mark.django_db
VALID = Path(__file__).parents[1] / "content" / "fixtures" / "valid"
(COURSE,), _ = load_courses([VALID])
(SUM,) = COURSE.lessons
BLANK = next(q for q in SUM.questions if q.kind == "blank")
MESSAGE = SUM.exercise.grading.mistakes[0].message
MINUS = (SUM.path / "mistakes" / "minus.py").read_text()
WRONG = SUM.exercise.solution.replace("a + b", "a * b")
TOO_LONG = "b" + " " * 499 + "b"  # 501 characters, none of them to strip
HOST = "localhost"
FULL = RunResult(Verdict.BUSY, stderr="The server is busy.")  # what a full sandbox answers


class Runners:
    """Which runner the doors are given: the real sandbox, or, for one step, a ``FakeRunner``
    whose every batch meets a full sandbox."""

    def __init__(self) -> None:
        self.busy = False

    def __call__(self) -> Runner:
        return FakeRunner(FULL) if self.busy else get_sandbox()


class OneCourse:
    courses = (COURSE,)
    problems = ()

    def lesson(self, lesson_id):
        return SUM if lesson_id == SUM.id else None

    def lessons(self):
        return [SUM]


def _run_kind(grade: dict) -> tuple[str, str | None]:
    """A grade as (verdict, where its mistake's explanation stands)."""
    stage = None
    if grade.get("more") == MESSAGE:
        stage = "nudge"  # the explanation held back behind the nudge
    elif MESSAGE in (grade.get("feedback") or ()):
        stage = "explained"
    return grade["verdict"], stage


class Web:
    """The lesson page, as a browser with htmx uses it (anonymous; CSRF enforced)."""

    def __init__(self, runners: Runners, monkeypatch) -> None:
        monkeypatch.setattr(store, "get_sandbox", runners)
        self.client = Client(HTTP_HOST=HOST, enforce_csrf_checks=True)
        page = self.client.get(f"/lessons/{SUM.id}/")
        assert page.status_code == 200
        self.said = ""

    def _post(self, path: str, data: dict | None = None):
        token = self.client.cookies["csrftoken"].value
        r = self.client.post(
            f"/lessons/{SUM.id}/{path}", data or {}, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token
        )
        self.said = html.unescape(r.content.decode())
        return r

    def run(self, code: str):
        r = self._post("run", {"code": code})
        assert r.status_code == 200, self.said
        verdict = self.said.split('data-verdict="', 1)[1].split('"', 1)[0]
        stage = None
        if "<summary>Explain</summary>" in self.said:
            stage = "nudge"
        elif f"<li>{MESSAGE}</li>" in self.said:
            stage = "explained"
        return verdict, stage

    def answer(self, text: str):
        r = self._post(f"questions/{BLANK.id}", {"blank": text})
        if r.status_code == 200:
            return "judged", "is-right" in self.said
        return "refused", {503: "busy", 422: "bad-answer"}[r.status_code]

    def hint(self, number: int):
        r = self._post("hint")
        return r.status_code == 200

    def reveal(self):
        r = self._post("solution")
        shown = html.unescape(re.sub(r"<[^>]+>", "", r.content.decode()))  # highlighted
        return r.status_code == 200 and SUM.exercise.solution.strip() in shown

    def recorded(self) -> dict:
        return _recorded(LessonProgress.objects.get(user__isnull=True, lesson_uuid=SUM.uuid))


class Api:
    """The JSON API with a personal token (what ``codeblanks learn`` does against a server)."""

    def __init__(self, runners: Runners, monkeypatch) -> None:
        monkeypatch.setattr(store, "get_sandbox", runners)
        self.client = Client(HTTP_HOST=HOST)
        self.user = get_user_model().objects.create_user("ada", password="a-long-passphrase-1")
        _, token = api_tokens.token_create(user_id=self.user.pk, name="laptop")
        self.headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        self.said = ""

    def _post(self, path: str, body: dict):
        r = self.client.post(
            f"/api/lessons/{SUM.id}/{path}", json.dumps(body), "application/json", **self.headers
        )
        self.said = r.json().get("message", "")
        return r

    def run(self, code: str):
        r = self._post("grade", {"code": code})
        assert r.status_code == 200, r.content
        return _run_kind(r.json())

    def answer(self, text: str):
        r = self._post(f"questions/{BLANK.id}", {"answer": text})
        if r.status_code == 200:
            return "judged", r.json()["correct"]
        return "refused", r.json()["error"]

    def hint(self, number: int):
        r = self._post("hint", {"number": number})
        return r.status_code == 200 and r.json()["text"] == _hint_text(number)

    def reveal(self):
        r = self._post("solution", {})
        return r.status_code == 200 and r.json()["solution"] == SUM.exercise.solution

    def recorded(self) -> dict:
        return _recorded(LessonProgress.objects.get(user=self.user, lesson_uuid=SUM.uuid))


class Terminal:
    """``codeblanks learn`` on this machine: ``LocalBackend`` with its JSON progress file."""

    def __init__(self, runners: Runners, monkeypatch, home: Path) -> None:
        monkeypatch.setenv("XDG_DATA_HOME", str(home))
        self.backend = backends.LocalBackend(runner=runners)
        monkeypatch.setattr(self.backend, "_find", lambda lesson_id: SUM)
        self.said = ""

    def run(self, code: str):
        return _run_kind(self.backend.grade(SUM.id, code))

    def answer(self, text: str):
        try:
            result = self.backend.answer(SUM.id, BLANK.id, text)
        except UsageError as refused:
            self.said = str(refused)
            busy = "could not check your answer" in self.said
            return "refused", "busy" if busy else "bad-answer"
        self.said = result["message"]
        return "judged", result["correct"]

    def hint(self, number: int):
        return self.backend.hint(SUM.id, number)["text"] == _hint_text(number)

    def reveal(self):
        return self.backend.solution(SUM.id)["solution"] == SUM.exercise.solution

    def recorded(self) -> dict:
        mine = self.backend.progress.of(SUM)
        return {
            "solved": bool(mine.get("solved")),
            "hints": mine.get("hints", 0),
            "answers": mine.get("questions", {}),
            "revealed": bool(mine.get("solution_seen")),
        }


def _hint_text(number: int) -> str | None:
    hints = SUM.exercise.hints
    return hints[number - 1] if number <= len(hints) else None


def _recorded(row: LessonProgress) -> dict:
    return {
        "solved": row.solved_at is not None,
        "hints": row.hints_revealed,
        "answers": {a.question_id: a.correct for a in row.answers.all()},
        "revealed": row.revealed_at is not None,
    }


EXPECTED = [
    ("run wrong", ("incorrect", None)),
    ("a mistake", ("incorrect", "nudge")),
    ("the same mistake again", ("incorrect", "explained")),
    ("run right", ("correct", None)),
    ("a blank the sandbox is too busy to judge", ("refused", "busy")),
    ("not recorded", {"solved": True, "hints": 0, "answers": {}, "revealed": False}),
    ("a 501-character answer", ("refused", "bad-answer")),
    ("the blank, right", ("judged", True)),
    ("hint 1", True),
    ("hint 2", True),
    ("hint 3, past the last", True),
    ("the solution", True),
    ("recorded", {"solved": True, "hints": 2, "answers": {BLANK.id: True}, "revealed": True}),
]


@pytest.fixture(autouse=True)
def one_lesson(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: OneCourse())
    cache.clear()  # the rate limits (the mistakes remembered are rows: each test has its own)
    yield
    cache.clear()


@pytest.mark.parametrize("door", ["web", "api", "terminal"])
def test_the_same_learner_meets_the_same_outcomes_at_every_door(door, monkeypatch, tmp_path):
    runners = Runners()
    learner = {
        "web": lambda: Web(runners, monkeypatch),
        "api": lambda: Api(runners, monkeypatch),
        "terminal": lambda: Terminal(runners, monkeypatch, tmp_path),
    }[door]()
    said = []
    transcript = [("run wrong", learner.run(WRONG))]
    transcript.append(("a mistake", learner.run(MINUS)))
    again = MINUS.replace("a - b", "a - b  # really")
    transcript.append(("the same mistake again", learner.run(again)))
    transcript.append(("run right", learner.run(SUM.exercise.solution)))
    runners.busy = True
    transcript.append(("a blank the sandbox is too busy to judge", learner.answer("b")))
    said.append(learner.said)
    runners.busy = False
    transcript.append(("not recorded", learner.recorded()))
    transcript.append(("a 501-character answer", learner.answer(TOO_LONG)))
    said.append(learner.said)
    transcript.append(("the blank, right", learner.answer("b")))
    for number in (1, 2, 3):
        past = ", past the last" if number > len(SUM.exercise.hints) else ""
        transcript.append((f"hint {number}{past}", learner.hint(number)))
    transcript.append(("the solution", learner.reveal()))
    transcript.append(("recorded", learner.recorded()))
    assert transcript == EXPECTED
    busy, too_long = said
    assert "The sandbox could not check your answer just now. Please try again." in busy
    assert "Keep the answer under 500 characters." in too_long
