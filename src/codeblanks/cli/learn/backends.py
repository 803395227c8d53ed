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
from pathlib import Path
from typing import Any

from codeblanks import i18n
from codeblanks.cli.console import UsageError
from codeblanks.cli.learn import untrusted
from codeblanks.cli.learn.fetch import check_server, request_json
from codeblanks.i18n import gettext as _

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


# ---- this machine ---------------------------------------------------------------------------


class LocalBackend:
    """The courses on this machine, graded by the local sandbox; progress in a JSON file."""

    def __init__(self) -> None:
        self.progress_path = _data_home() / "progress.json"

    @property
    def where(self) -> str:
        return _("this machine")

    def _find(self, lesson_id: str):
        """The lesson as a learner of the current language takes it."""
        from codeblanks.cli.grade import find_lesson
        from codeblanks.content import catalog

        found = find_lesson(lesson_id)  # through the course, so its level has its name too
        return catalog().in_language(i18n.current()).lesson(found.id) or found

    @property
    def seed(self) -> str:
        """What orders this machine's choice options (``content.public.option_order``): made
        once, kept next to the progress, so every quiz here shows them in the same order."""
        path = self.progress_path.with_name("seed")
        try:
            kept = path.read_text(encoding="utf-8").strip()
        except OSError:
            kept = ""
        if kept:
            return kept
        import secrets

        made = secrets.token_hex(16)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(made + "\n", encoding="utf-8")
        except OSError:
            return ""  # nowhere to keep it: one fixed order, still not the author's
        return made

    def _progress(self) -> dict[str, Any]:
        try:
            data = json.loads(self.progress_path.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def _record(self, lesson, **changes) -> dict[str, Any]:
        data = self._progress()
        mine = data.setdefault(lesson.uuid, {})
        for key, value in changes.items():
            if key == "question":
                mine.setdefault("questions", {}).update(value)
            elif key == "solved":
                mine["solved"] = mine.get("solved", False) or value
            elif key == "hints":
                mine["hints"] = max(mine.get("hints", 0), value)
            else:
                mine[key] = value
        self.progress_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.progress_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        tmp.replace(self.progress_path)  # never a half-written file
        return mine

    def lessons(self) -> list[dict[str, Any]]:
        from codeblanks.content import catalog
        from codeblanks.content.public import lesson_entry

        data = self._progress()
        rows = []
        served = catalog().in_language(i18n.current())
        titles = {course.id: course.title for course in served.courses}
        for lesson in served.lessons():
            mine = data.get(lesson.uuid, {})
            rows.append(
                {
                    **lesson_entry(lesson),
                    "course_title": titles.get(lesson.course_id, lesson.course_id),
                    "progress": {
                        "solved": bool(mine.get("solved")),
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
        return lesson_public(lesson, self.seed, course.title if course else "")

    def grade(self, lesson_id: str, code: str) -> dict[str, Any]:
        from codeblanks.grading import grade

        lesson = self._find(lesson_id)
        result = grade(lesson, code)
        self._record(lesson, solved=result.correct)
        return result.to_json()

    def hint(self, lesson_id: str, number: int) -> dict[str, Any]:
        lesson = self._find(lesson_id)
        hints = lesson.exercise.hints
        if not 1 <= number <= len(hints):
            return {"number": number, "of": len(hints), "text": None}
        self._record(lesson, hints=number)
        return {"number": number, "of": len(hints), "text": hints[number - 1]}

    def solution(self, lesson_id: str) -> dict[str, Any]:
        lesson = self._find(lesson_id)
        self._record(lesson, solution_seen=True)
        return {"filename": lesson.exercise.filename, "solution": lesson.exercise.solution}

    def review(self, lesson_id: str) -> list[dict[str, Any]]:
        from codeblanks.content.public import question_review

        seed = self.seed
        return [question_review(q, seed) for q in self._find(lesson_id).questions]

    def answer(self, lesson_id: str, question_id: str, answer: Any) -> dict[str, Any]:
        from codeblanks.content.model import BlankQuestion, ChoiceQuestion, MatchQuestion
        from codeblanks.content.public import choice_pick, match_picks
        from codeblanks.grading import check_blank
        from codeblanks.grading.answers import judge_local

        lesson = self._find(lesson_id)
        question = next((q for q in lesson.questions if q.id == question_id), None)
        if question is None:
            raise UsageError(
                _("lesson {lesson} has no question {question}").format(
                    lesson=repr(lesson_id), question=repr(question_id)
                )
            )
        if isinstance(question, BlankQuestion):
            verdict = check_blank(lesson, question, str(answer))
            result = verdict.to_json()
        else:
            if isinstance(question, MatchQuestion):
                answer = match_picks(question, list(answer))
            elif isinstance(question, ChoiceQuestion):
                answer = choice_pick(question, self.seed, int(answer))
            correct, _terms = judge_local(question, answer)
            result = {
                "correct": correct,
                "message": _("Right.") if correct else _("Not quite."),
                "explanation": question.explanation,
            }
        self._record(lesson, question={question.id: bool(result["correct"])})
        return result


def backend_for(server: str | None, workspace_server: str | None = None):
    """The backend to use: the server asked for (option, then the lesson folder's, then the
    setting CODEBLANKS_SERVER, then the one logged in to); with none, this machine when its
    sandbox can run, else the default server."""
    creds = read_credentials()
    chosen = (
        server or workspace_server or os.environ.get("CODEBLANKS_SERVER") or creds.get("server")
    )
    if not chosen:
        from codeblanks.sandbox.preflight import isolation_problem

        if isolation_problem() is None or os.environ.get("CODEBLANKS_UNSAFE_NO_SANDBOX") == "1":
            return LocalBackend()
        chosen = DEFAULT_SERVER
    token = (
        creds.get("token") if creds.get("server", "").rstrip("/") == chosen.rstrip("/") else None
    )
    return ServerBackend(chosen, token)
