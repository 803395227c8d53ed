"""The ``Progress`` port: what the tutor remembers of one learner, and the stores behind it.

    Progress            the Protocol (below); every method is async, so a store may wait on a
                        database without holding the event loop
    JsonProgress(path)  the terminal's local mode: one JSON file of the learner's (atomic writes)
    NoProgress()        an API caller without a token: remembers nothing
    DjangoProgress      the web's, over the ORM (``codeblanks.web.learner.store``)

A store keeps the counts monotonic itself (hints seen only grow; solved stays solved), so the
tutor never reads before it writes."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from codeblanks.content.model import Lesson, Question
from codeblanks.grading import Grade
from codeblanks.learning.answers import Answer

if TYPE_CHECKING:  # the tutor imports this module
    from codeblanks.learning.tutor import Refused


class Progress(Protocol):
    @property
    def seed(self) -> str:
        """What orders this learner's choice options (``content.public.option_order``)."""
        ...

    @property
    def fair_key(self) -> str | None:
        """Whom the sandbox counts this learner's runs to (None: the caller's address)."""
        ...

    async def code_save(self, lesson: Lesson, code: str) -> Refused | None:
        """Keep ``code`` as the learner's latest program, or refuse to (the store's own limit on
        what it keeps: then the run stops there, nothing written)."""
        ...

    async def attempt_record(self, lesson: Lesson, grade: Grade, code: str) -> str | None:
        """Keep a graded run. Returns the anticipated mistake the previous run of ``lesson``
        made, and remembers this run's (``grade.mistake``, None: none) in its place; a run the
        platform could not do (``Verdict.platform``) leaves it as it was. One call, so a store
        reads and writes it together."""
        ...

    async def hints_seen(self, lesson: Lesson, question_id: str | None = None) -> int:
        """How many of the exercise's hints (or one question's) the learner has seen."""
        ...

    async def hint_reveal(self, lesson: Lesson, count: int, question_id: str | None = None) -> None:
        """The first ``count`` hints (of the exercise, or of one question) have been seen."""
        ...

    async def answer_record(
        self, lesson: Lesson, question: Question, answer: Answer, correct: bool
    ) -> None: ...

    async def solution_reveal(self, lesson: Lesson) -> None: ...


class NoProgress:
    """Remembers nothing: an API caller without a token is judged and kept nowhere."""

    seed = ""  # everyone without a token sees one order
    fair_key = None

    async def code_save(self, lesson: Lesson, code: str) -> Refused | None:
        return None

    async def attempt_record(self, lesson: Lesson, grade: Grade, code: str) -> str | None:
        return None

    async def hints_seen(self, lesson: Lesson, question_id: str | None = None) -> int:
        return 0

    async def hint_reveal(self, lesson: Lesson, count: int, question_id: str | None = None) -> None:
        return None

    async def answer_record(
        self, lesson: Lesson, question: Question, answer: Answer, correct: bool
    ) -> None:
        return None

    async def solution_reveal(self, lesson: Lesson) -> None:
        return None


class JsonProgress:
    """The terminal's progress: ``{lesson uuid: {"solved", "hints", "question_hints",
    "questions": {id: right}, "solution_seen", "mistake"}}`` in one file, replaced whole on each
    write (never half written). The learner's code is their exercise file, so none is kept here.
    The seed lives beside it, made once."""

    fair_key = None  # one learner per machine

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def seed(self) -> str:
        where = self.path.with_name("seed")
        try:
            kept = where.read_text(encoding="utf-8").strip()
        except OSError:
            kept = ""
        if kept:
            return kept
        made = secrets.token_hex(16)
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            where.write_text(made + "\n", encoding="utf-8")
        except OSError:
            return ""  # nowhere to keep it: one fixed order, still not the author's
        return made

    def read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def of(self, lesson: Lesson) -> dict[str, Any]:
        mine = self.read().get(lesson.uuid)
        return mine if isinstance(mine, dict) else {}

    def _write(self, lesson: Lesson, **changes: Any) -> None:
        data = self.read()
        mine = data.get(lesson.uuid)
        mine = mine if isinstance(mine, dict) else {}
        data[lesson.uuid] = {**mine, **changes}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        tmp.replace(self.path)

    async def code_save(self, lesson: Lesson, code: str) -> Refused | None:
        return None  # the exercise file is the code

    async def attempt_record(self, lesson: Lesson, grade: Grade, code: str) -> str | None:
        mine = self.of(lesson)
        previous = mine.get("mistake")
        previous = previous if isinstance(previous, str) else None
        changes: dict[str, Any] = {"solved": bool(mine.get("solved")) or grade.correct}
        if not grade.verdict.platform:
            changes["mistake"] = grade.mistake
        self._write(lesson, **changes)
        return previous

    async def hints_seen(self, lesson: Lesson, question_id: str | None = None) -> int:
        mine = self.of(lesson)
        if question_id is None:
            return _count(mine.get("hints"))
        shown = mine.get("question_hints")
        return _count(shown.get(question_id)) if isinstance(shown, dict) else 0

    async def hint_reveal(self, lesson: Lesson, count: int, question_id: str | None = None) -> None:
        if count <= await self.hints_seen(lesson, question_id):
            return
        if question_id is None:
            self._write(lesson, hints=count)
        else:
            shown = self.of(lesson).get("question_hints")
            shown = shown if isinstance(shown, dict) else {}
            self._write(lesson, question_hints={**shown, question_id: count})

    async def answer_record(
        self, lesson: Lesson, question: Question, answer: Answer, correct: bool
    ) -> None:
        right = self.of(lesson).get("questions")
        right = right if isinstance(right, dict) else {}
        self._write(lesson, questions={**right, question.id: correct})

    async def solution_reveal(self, lesson: Lesson) -> None:
        self._write(lesson, solution_seen=True)


def _count(value: object) -> int:
    return value if type(value) is int and value > 0 else 0
