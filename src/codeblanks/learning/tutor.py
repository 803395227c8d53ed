"""The ``Tutor``: what a learner does with a lesson, written once for every door (the lesson
page, the JSON API, ``codeblanks learn``). A door parses its input, makes one call here and
renders what comes back; the tutor runs, judges, remembers (through its ``Progress``), escalates
a repeated mistake to its explanation and words everything in its language.

The behaviour every door shares (docs/architecture.md, "One learning core"):
- a run the platform could not do (``busy``, ``sandbox-error``) is shown as such and remembered
  as neither a mistake nor a solution;
- a blank answer the platform could not judge is a refusal (503 on the web), never recorded;
- a blank answer is at most ``answers.MAX_BLANK_CHARS`` characters, everywhere;
- hint N past the last gives no text and records nothing (``Hint.text`` None), never an error;
- the same anticipated mistake twice running shows its explanation in place of its nudge."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from codeblanks import i18n
from codeblanks.content.model import BlankQuestion, Lesson, MatchQuestion, Question
from codeblanks.content.public import question_review
from codeblanks.grading import Grade, acheck_blank, agrade
from codeblanks.grading.cases import programs_for, programs_for_blank
from codeblanks.grading.reference import limits_for
from codeblanks.learning import answers
from codeblanks.learning.present import RunView, present
from codeblanks.learning.progress import Progress
from codeblanks.sandbox.result import Runner


class Refused(Protocol):
    """Why an action was not done: a status (HTTP's numbers; the terminal only says the words),
    a machine-readable ``error`` and the ``message`` for people."""

    @property
    def status(self) -> int: ...

    @property
    def error(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def retry_after(self) -> int | None: ...  # seconds (a 429's Retry-After), None: not said


@dataclass(frozen=True)
class Refusal:
    status: int
    error: str
    message: str
    retry_after: int | None = None


# A door's limits, around what runs: entered with what is about to run (the code, or a blank's
# answer) and how many programs it may start, it yields a refusal (the action stops before
# anything is run or written) or None, and on leaving may charge what the runs used.
Quota = Callable[[str, int], AbstractAsyncContextManager[Refused | None]]


@dataclass(frozen=True)
class RunOutcome:
    grade: Grade | None = None  # None: refused
    view: RunView | None = None  # the grade in words, in the tutor's language
    refusal: Refused | None = None


@dataclass(frozen=True)
class AnswerOutcome:
    answer: answers.Answer | None = None  # as stored; None: not judged
    correct: bool = False
    message: str = ""  # the grader's words on a blank answer (e.g. what it evaluated to)
    words: str = ""  # what to say: ``message``, else "Right." / "Not quite."
    explanation: str = ""
    error: str = ""  # the error a blank answer caused
    per_term: tuple[bool, ...] = ()  # matching: which terms are right
    bad: str = ""  # the input held no usable answer: what to send instead
    refusal: Refused | None = None  # a quota, or the platform could not judge it

    def to_json(self, question: Question) -> dict[str, Any]:
        """The JSON API's (and the terminal's) body for a judged answer."""
        body: dict[str, Any] = {
            "correct": self.correct,
            "message": self.words,
            "explanation": self.explanation,
        }
        if self.error:
            body["error"] = self.error
        if isinstance(question, MatchQuestion):
            body["per_term"] = list(self.per_term)
        return body


@dataclass(frozen=True)
class Hint:
    number: int  # the hint asked for, from 1
    of: int  # how many there are
    text: str | None  # None: there is no such hint (past the last), nothing recorded
    seen: int  # how many the learner has now seen

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "of": self.of, "text": self.text}


@contextlib.asynccontextmanager
async def _no_quota(text: str, programs: int) -> AsyncIterator[Refused | None]:
    yield None


def _escalated(grade: Grade, previous: str | None) -> Grade:
    """A nudge first; its explanation at once when the previous run of the lesson made the same
    mistake (``previous``). A run the platform could not do is left as it is."""
    if grade.verdict.platform:
        return grade
    if grade.more and grade.mistake is not None and grade.mistake == previous:
        return dataclasses.replace(grade, feedback=(grade.more, *grade.feedback[1:]), more="")
    return grade


class Tutor:
    """One learner (``progress``), a runner (called when something must run: the sandbox starts
    on first use), a language (normalised; the feedback and the words are in it)."""

    def __init__(self, progress: Progress, runner: Callable[[], Runner], language: str) -> None:
        self.progress = progress
        self.runner = runner
        self.language = i18n.normalize(language)

    def _client(self, client: str) -> str:
        return self.progress.fair_key or client

    async def run(
        self, lesson: Lesson, code: str, client: str, quota: Quota = _no_quota
    ) -> RunOutcome:
        """Run and grade ``code``: unless ``quota`` or the store refuses (then nothing is
        written), save the code, grade it, record the attempt and escalate a repeated mistake."""
        lesson = lesson.in_language(self.language)
        async with quota(code, programs_for(lesson, code)) as refusal:
            if refusal is None:
                refusal = await self.progress.code_save(lesson, code)
            if refusal is not None:
                return RunOutcome(refusal=refusal)
            with i18n.language(self.language):
                grade = await agrade(lesson, code, self.runner(), client=self._client(client))
        previous = await self.progress.attempt_record(lesson, grade, code)
        grade = _escalated(grade, previous)
        with i18n.language(self.language):
            view = present(grade, limits_for(lesson), output_graded=lesson.exercise.output_graded)
        return RunOutcome(grade=grade, view=view)

    async def answer(
        self,
        lesson: Lesson,
        question: Question,
        raw: answers.Form | answers.Given,
        client: str,
        quota: Quota = _no_quota,
        keep: bool = True,
    ) -> AnswerOutcome:
        """Read, bound and judge an answer, and keep it (``keep=False``: a review's answer,
        which changes the card, never the lesson's answer). A blank runs in the sandbox: it
        asks ``quota`` first, and an answer the platform could not judge is refused, not kept."""
        lesson = lesson.in_language(self.language)
        with i18n.language(self.language):
            try:
                given = answers.parse(question, raw, self.progress.seed)
            except answers.BadAnswer as bad:
                return AnswerOutcome(bad=str(bad))
        if isinstance(question, BlankQuestion):
            text = str(given)
            async with quota(text, programs_for_blank(question)) as refusal:
                if refusal is not None:
                    return AnswerOutcome(refusal=refusal)
                with i18n.language(self.language):
                    verdict = await acheck_blank(
                        lesson, question, text, self.runner(), client=self._client(client)
                    )
            if verdict.verdict.platform:
                return AnswerOutcome(refusal=Refusal(503, verdict.verdict.value, verdict.message))
            outcome = AnswerOutcome(given, verdict.correct, verdict.message, error=verdict.error)
        else:
            correct, per_term = answers.judge_local(question, given)
            outcome = AnswerOutcome(given, correct, per_term=tuple(per_term))
        if keep:
            await self.progress.answer_record(lesson, question, given, outcome.correct)
        with i18n.language(self.language):
            words = outcome.message or answers.right_or_not(outcome.correct)
        return dataclasses.replace(outcome, words=words, explanation=question.explanation)

    async def hint(self, lesson: Lesson, number: int, question: Question | None = None) -> Hint:
        """Hint ``number`` (from 1) of the exercise, or of ``question``; past the last: no text,
        nothing recorded."""
        if number < 1:
            raise ValueError(f"hints are numbered from 1, not {number}")
        lesson = lesson.in_language(self.language)
        if question is not None:
            question = answers.question_get(lesson.questions, question.id) or question
        hints = question.hints if question is not None else lesson.exercise.hints
        qid = question.id if question is not None else None
        before = await self.progress.hints_seen(lesson, qid)
        if number > len(hints):
            return Hint(number, len(hints), None, before)
        await self.progress.hint_reveal(lesson, number, qid)
        return Hint(number, len(hints), hints[number - 1], max(before, number))

    async def next_hint(self, lesson: Lesson, question: Question | None = None) -> Hint:
        """The hint after the last one seen (past the last: see ``hint``)."""
        seen = await self.progress.hints_seen(lesson, question.id if question else None)
        return await self.hint(lesson, seen + 1, question)

    async def reveal_solution(self, lesson: Lesson) -> tuple[str, str]:
        """The sample solution's file name and text, recorded as seen."""
        lesson = lesson.in_language(self.language)
        await self.progress.solution_reveal(lesson)
        return lesson.exercise.filename, lesson.exercise.solution

    def review(self, lesson: Lesson) -> list[dict[str, Any]]:
        """Every question with its answer and explanation (in this learner's order)."""
        seed = self.progress.seed
        return [question_review(q, seed) for q in lesson.in_language(self.language).questions]
