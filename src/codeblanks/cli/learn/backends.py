"""Where ``codeblanks learn`` gets lessons and grades from: a CodeBlanks server over its JSON API
(progress kept there, with a personal token), or the courses on this machine with the local
sandbox (progress kept in a file of the learner's). Both answer with the same dicts
(``codeblanks.content.public`` and ``Grade.to_json()``), so the commands do not care which.

Errors a learner can act on are ``UsageError`` (exit 2) in words: no server answers, a refused
token, an unknown lesson."""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from codeblanks import i18n
from codeblanks.cli.console import UsageError
from codeblanks.cli.learn import untrusted
from codeblanks.cli.learn.fetch import check_server, request_json
from codeblanks.i18n import gettext as _

if TYPE_CHECKING:  # the learning core is loaded only for local mode: a server's client is light
    from codeblanks.content.model import Lesson
    from codeblanks.learning import Tutor
    from codeblanks.learning.tutor import Refused
    from codeblanks.sandbox.result import Runner

DEFAULT_SERVER = "http://127.0.0.1:8000"


def _data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "codeblanks"


def _config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "codeblanks"


# ---- the personal token ----------------------------------------------------------------------


def credentials_path() -> Path:
    return _config_home() / "credentials.json"


def read_credentials() -> dict[str, str]:
    try:
        data = json.loads(credentials_path().read_text(encoding="utf-8"))
        return {k: str(v) for k, v in data.items() if k in ("server", "token")}
    except (OSError, ValueError, AttributeError):
        return {}


def write_credentials(server: str, token: str) -> Path:
    """Stored readable by the learner alone (the token acts as them on the server)."""
    path = credentials_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"server": server, "token": token}, out)
    os.chmod(path, 0o600)
    return path


# ---- a server -------------------------------------------------------------------------------


class ServerBackend:
    """The JSON API of a CodeBlanks server (docs/api.md, "The learner's endpoints"). Nothing it
    answers is trusted: each answer is checked for its shape before use (``untrusted``), and the
    exchange itself is bounded in time, size and where it may go (``fetch``)."""

    def __init__(self, server: str, token: str | None = None) -> None:
        self.server = check_server(server)
        self.token = token
        self.where = self.server

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        # the server answers (feedback, lessons) in the learner's language, as it would a browser
        headers = {"Accept": "application/json", "Accept-Language": i18n.current()}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return request_json(method, self.server + path, self.server, body, headers)

    def _checked(self, method: str, path: str, fields, body: Any = None) -> Any:
        """The answer to ``method path`` when it has ``fields`` (a dict of them, or a function
        of the answer, the server and the request that checks it)."""
        answer = self._call(method, path, body)
        asked = f"{method} {path}"
        if callable(fields):
            return fields(answer, self.server, asked)
        return untrusted.check(answer, fields, self.server, asked)

    def _lesson_path(self, lesson_id: str) -> str:
        return "/api/lessons/" + urllib.parse.quote(lesson_id, safe="")

    def lessons(self) -> list[dict[str, Any]]:
        return self._checked("GET", "/api/lessons", untrusted.lessons)

    def lesson(self, lesson_id: str) -> dict[str, Any]:
        return self._checked("GET", self._lesson_path(lesson_id), untrusted.lesson)

    def grade(self, lesson_id: str, code: str) -> dict[str, Any]:
        path = self._lesson_path(lesson_id) + "/grade"
        return self._checked("POST", path, untrusted.GRADE, {"code": code})

    def hint(self, lesson_id: str, number: int) -> dict[str, Any]:
        path = self._lesson_path(lesson_id) + "/hint"
        return self._checked("POST", path, untrusted.HINT, {"number": number})

    def solution(self, lesson_id: str) -> dict[str, Any]:
        path = self._lesson_path(lesson_id) + "/solution"
        return self._checked("POST", path, untrusted.SOLUTION, {})

    def review(self, lesson_id: str) -> list[dict[str, Any]]:
        return self._checked("GET", self._lesson_path(lesson_id) + "/review", untrusted.review)

    def answer(self, lesson_id: str, question_id: str, answer: Any) -> dict[str, Any]:
        path = (
            self._lesson_path(lesson_id) + "/questions/" + urllib.parse.quote(question_id, safe="")
        )
        return self._checked("POST", path, untrusted.ANSWER, {"answer": answer})

    def whoami(self) -> dict[str, Any]:
        return self._checked("GET", "/api/me", untrusted.WHO)

    def review_queue(self) -> list[dict[str, Any]]:
        """The review queue's cards due today (docs/api.md, "The review queue")."""
        return self._checked("GET", "/api/review", untrusted.review_queue)

    def review_answer(self, card_id: int, answer: Any) -> dict[str, Any]:
        path = f"/api/review/{int(card_id)}"
        return self._checked("POST", path, untrusted.REVIEWED, {"answer": answer})


# ---- this machine ---------------------------------------------------------------------------


class LocalBackend:
    """The courses on this machine, graded by the local sandbox; progress in a JSON file. Every
    action is the learning core's (``codeblanks.learning.Tutor``), as on the server; this only
    finds the lesson and answers with the API's dicts."""

    def __init__(self, runner: Callable[[], Runner] | None = None) -> None:
        from codeblanks.learning import JsonProgress

        self.progress_path = _data_home() / "progress.json"
        self.progress = JsonProgress(self.progress_path)
        self.runner = runner or _shared_sandbox

    @property
    def where(self) -> str:
        return _("this machine")

    @property
    def seed(self) -> str:
        return self.progress.seed

    def _tutor(self) -> Tutor:
        from codeblanks.learning import Tutor

        return Tutor(self.progress, self.runner, i18n.current())

    def _find(self, lesson_id: str) -> Lesson:
        """The lesson as a learner of the current language takes it."""
        from codeblanks.cli.grade import find_lesson
        from codeblanks.content import catalog

        found = find_lesson(lesson_id)  # through the course, so its level has its name too
        return catalog().in_language(i18n.current()).lesson(found.id) or found

    def lessons(self) -> list[dict[str, Any]]:
        from codeblanks.content import catalog
        from codeblanks.content.public import lesson_entry, reading_next

        data = self.progress.read()
        rows = []
        served = catalog().in_language(i18n.current())
        titles = {course.id: course.title for course in served.courses}
        following = reading_next(served.courses)
        for lesson in served.lessons():
            mine = data.get(lesson.uuid, {})
            rows.append(
                {
                    **lesson_entry(lesson),
                    "course_title": titles.get(lesson.course_id, lesson.course_id),
                    "next": following.get(lesson.id),
                    "progress": {
                        "solved": bool(mine.get("solved")),
                        "tried": bool(mine) and not mine.get("solved"),  # graded, answered…
                        "questions_right": sum(
                            1 for ok in mine.get("questions", {}).values() if ok
                        ),
                        "questions": len(lesson.questions),
                    },
                }
            )
        return rows

    def lesson(self, lesson_id: str) -> dict[str, Any]:
        from codeblanks.content import catalog
        from codeblanks.content.public import lesson_public

        lesson = self._find(lesson_id)
        course = catalog().in_language(i18n.current()).course(lesson.course_id)
        return lesson_public(lesson, self.seed, course)

    def grade(self, lesson_id: str, code: str) -> dict[str, Any]:
        from codeblanks.grading.grade import run_sync

        ran = run_sync(self._tutor().run(self._find(lesson_id), code, client=LOCAL))
        if ran.refusal is not None or ran.grade is None:
            _refuse(ran.refusal)
        return ran.grade.to_json()

    def hint(self, lesson_id: str, number: int) -> dict[str, Any]:
        from codeblanks.grading.grade import run_sync

        return run_sync(self._tutor().hint(self._find(lesson_id), number)).to_json()

    def solution(self, lesson_id: str) -> dict[str, Any]:
        from codeblanks.grading.grade import run_sync

        filename, text = run_sync(self._tutor().reveal_solution(self._find(lesson_id)))
        return {"filename": filename, "solution": text}

    def review(self, lesson_id: str) -> list[dict[str, Any]]:
        return self._tutor().review(self._find(lesson_id))

    def answer(self, lesson_id: str, question_id: str, answer: Any) -> dict[str, Any]:
        from codeblanks.grading.grade import run_sync
        from codeblanks.learning.answers import Given, question_get

        lesson = self._find(lesson_id)
        question = question_get(lesson.questions, question_id)
        if question is None:
            raise UsageError(
                _("lesson {lesson} has no question {question}").format(
                    lesson=repr(lesson_id), question=repr(question_id)
                )
            )
        outcome = run_sync(self._tutor().answer(lesson, question, Given(answer), client=LOCAL))
        if outcome.bad:
            raise UsageError(outcome.bad)
        if outcome.refusal is not None:
            _refuse(outcome.refusal)
        return outcome.to_json(question)


LOCAL = "local"  # whom this machine's runs are counted to: its one learner


def _shared_sandbox() -> Runner:
    from codeblanks.sandbox import get_sandbox

    return get_sandbox()


def _refuse(refusal: Refused | None) -> NoReturn:
    """What the server says in refusing, as a ``UsageError`` (as ``fetch`` makes of the
    server's): e.g. the platform could not judge a blank just now; nothing was recorded."""
    raise UsageError(refusal.message if refusal is not None else "")


def backend_for(server: str | None, workspace_server: str | None = None):
    """The backend to use: the server asked for (option, then the lesson folder's, then the
    setting CODEBLANKS_SERVER, then the one logged in to); with none, this machine when its
    sandbox can run, else the default server."""
    creds = read_credentials()
    chosen = (
        server or workspace_server or os.environ.get("CODEBLANKS_SERVER") or creds.get("server")
    )
    if not chosen:
        from codeblanks.sandbox.config import unsafe_no_sandbox
        from codeblanks.sandbox.preflight import isolation_problem

        if isolation_problem() is None or unsafe_no_sandbox():
            return LocalBackend()
        chosen = DEFAULT_SERVER
    token = (
        creds.get("token") if creds.get("server", "").rstrip("/") == chosen.rstrip("/") else None
    )
    return ServerBackend(chosen, token)
