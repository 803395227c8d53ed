"""Writes: saving code, recording attempts, answers and reveals (keyword-only, named
``<thing>_<verb>``); ``DjangoProgress``, the ``learning.Progress`` store over them; ``tutor_for``,
the learning core a view calls; and the web's limit on a blank answer as the tutor's hook (a
run's are ``quotas.run_limits``, but for the room its saved code may take, checked here).
Running, judging and wording live in ``codeblanks.learning``; moving a visitor's work onto their
account in ``claims``, forgetting idle visitors in ``expiry``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from codeblanks import inline
from codeblanks.content.model import Lesson, Question
from codeblanks.grading import Grade
from codeblanks.learning import NoProgress, Tutor
from codeblanks.learning.tutor import Quota
from codeblanks.sandbox import RunResult, get_sandbox
from codeblanks.sandbox.result import RunRequest
from codeblanks.web.door import gate
from codeblanks.web.learner import quotas, statements
from codeblanks.web.learner.learners import Learner
from codeblanks.web.learner.progress import progress_get
from codeblanks.web.models import LessonProgress, QuestionAnswer

# What other apps keep on an attempt row beside the run, each worked out from the grade and the
# program: the teaching app's item analysis, plugged in by ``web/apps.py``. The store calls them
# and imports none of them, so the learner's write path never loads the teacher's app.
attempt_notes: list[Callable[[Grade, str], dict]] = []


def _progress_for_update(learner: Learner, lesson: Lesson) -> LessonProgress:
    row, _ = LessonProgress.objects.select_for_update().get_or_create(
        lesson_uuid=lesson.uuid, **learner.fields
    )
    return row


# ---- code ------------------------------------------------------------------------------------


def code_save(*, learner: Learner, lesson: Lesson, code: str) -> quotas.Refusal | None:
    """Keep ``code`` as the learner's latest program for this lesson, unless it would take
    their saved code over its room (``_room_refusal``: then nothing is kept, and nothing run).
    One UPDATE on every Run after the first (no row read first; ``statements.code_update``),
    the row made when there is none yet."""
    if (refusal := _room_refusal(learner, lesson, code)) is not None:
        return refusal
    now = timezone.now()
    shape, key = learner.owner_slots
    saved = {"code": code, "has": True, "at": now, "lesson": lesson.uuid, **key}
    if statements.code_update(shape, values=saved):
        return None
    with transaction.atomic():
        row = _progress_for_update(learner, lesson)
        row.code, row.has_code, row.code_saved_at = code, True, now
        row.save(update_fields=["code", "has_code", "code_saved_at", "updated_at"])
    return None


@transaction.atomic
def code_reset(*, learner: Learner, lesson: Lesson) -> None:
    """Forget the learner's code: the lesson shows its starter again."""
    row = _progress_for_update(learner, lesson)
    row.code, row.has_code, row.code_saved_at = "", False, timezone.now()
    row.save(update_fields=["code", "has_code", "code_saved_at", "updated_at"])


@transaction.atomic
def solution_reveal(*, learner: Learner, lesson: Lesson) -> None:
    """Record that the learner looked at the sample solution (the first time counts)."""
    row = _progress_for_update(learner, lesson)
    if row.revealed_at is None:
        row.revealed_at = timezone.now()
        row.save(update_fields=["revealed_at", "updated_at"])


@transaction.atomic
def review_record(*, learner: Learner, lesson: Lesson) -> None:
    """Record that the learner opened the lesson's answers (the first time counts): a question
    answered after it earns no points (``teaching/scores.py``)."""
    row = _progress_for_update(learner, lesson)
    if row.reviewed_at is None:
        row.reviewed_at = timezone.now()
        row.save(update_fields=["reviewed_at", "updated_at"])


@transaction.atomic
def hint_reveal(*, learner: Learner, lesson: Lesson, count: int) -> None:
    """Record that the learner has seen the first ``count`` hints (never fewer than before)."""
    row = _progress_for_update(learner, lesson)
    if count > row.hints_revealed:
        row.hints_revealed = count
        row.save(update_fields=["hints_revealed", "updated_at"])


@transaction.atomic
def question_hint_reveal(*, learner: Learner, lesson: Lesson, question_id: str, count: int) -> None:
    """Record that the learner has seen the first ``count`` hints of one question."""
    row = _progress_for_update(learner, lesson)
    if count > int(row.question_hints.get(question_id, 0)):
        row.question_hints = {**row.question_hints, question_id: count}
        row.save(update_fields=["question_hints", "updated_at"])


@transaction.atomic
def attempt_record(*, learner: Learner, lesson: Lesson, grade: Grade, code: str) -> str | None:
    """One row per graded run, counted on the learner's progress row (the first correct run
    marks the exercise solved). Returns the anticipated mistake the previous run of the lesson
    made, and keeps this run's in its place; a run the platform could not do leaves it as it
    was. One transaction: the row read and locked, the attempt inserted, the row updated (the
    read, the insert and the update compiled once, ``statements``; a solve saved through the
    model, for its signal)."""
    shape, key = learner.owner_slots
    found = statements.run_row(shape, values={"lesson": lesson.uuid, **key})
    if found:
        row_id, runs, solved_at, mistake = found[0]
    else:  # the first run in this lesson that left no code saved (a refusal saves none)
        row = _progress_for_update(learner, lesson)
        row_id, runs, solved_at, mistake = row.id, row.runs, row.solved_at, row.last_mistake
    now = timezone.now()
    statements.attempt_insert(
        {
            "lesson_uuid": lesson.uuid,
            "verdict": grade.verdict.value,
            "case": (grade.case or "")[:200],
            "duration_ms": grade.duration_ms,
            "code_bytes": len(code.encode("utf-8", errors="replace")),
            **{k: v for note in attempt_notes for k, v in note(grade, code).items()},
            **learner.fields,
            "created_at": now,
        },
    )
    previous = mistake or None
    if not grade.verdict.platform:
        mistake = (grade.mistake or "")[:200]
    if grade.correct and solved_at is None:
        # The solve: saved through the model, whose post_save tells the LMS (teaching/signals.py).
        row = LessonProgress.objects.get(id=row_id)
        row.runs, row.last_run_at, row.solved_at = runs + 1, now, now
        row.last_mistake = mistake
        row.save(update_fields=["runs", "last_run_at", "solved_at", "last_mistake", "updated_at"])
        return previous
    counted = {"id": row_id, "runs": runs + 1, "at": now, "mistake": mistake, "now": now}
    statements.run_row_update(values=counted)
    return previous


def _fair_key(learner: Learner) -> str:
    """Whom the sandbox counts a learner's runs to when it shares itself between learners."""
    return f"user:{learner.user_id}" if learner.user_id is not None else f"anon:{learner.anon_key}"


def _room_refusal(learner: Learner, lesson: Lesson, code: str) -> quotas.Refusal | None:
    """A refusal when keeping ``code`` would take the learner's saved code, all lessons
    together, over their room (``quotas.room_refusal``; the saved code it replaces not
    counted)."""
    shape, key = learner.owner_slots
    sizes = statements.code_sizes(shape, values={"lesson": lesson.uuid, **key})
    used = sum(size or 0 for (size,) in sizes)
    words = _(
        "Your saved programs in other lessons take %(used)s bytes and this one %(size)s; "
        "we keep at most %(limit)s bytes of code for one learner. Press “Reset to starter” "
        "in lessons you have finished, then run again."
    )
    return quotas.room_refusal(used, code, words)


# ---- the learner's store, and the tutor over it (codeblanks.learning) --------------------------


async def _db(func, /, *args, **kwargs):
    """``func(*args, **kwargs)`` with the request's database: on the loop, in the request's own
    thread (asgiref's thread-sensitive hop); in place when the tutor is driven there
    (``codeblanks.inline``), which is that thread."""
    return await inline.hop(sync_to_async, func, *args, **kwargs)


class DjangoProgress:
    """The ``learning.Progress`` port over the ORM services above (each call, on the loop, one
    hop to the request's thread, so a request never holds the event loop on the database;
    ``_db``). The last run's mistake is kept on the learner's progress row (any node, the page
    and the API alike)."""

    def __init__(self, learner: Learner) -> None:
        self.learner = learner

    @property
    def seed(self) -> str:
        return self.learner.seed

    @property
    def fair_key(self) -> str:
        return _fair_key(self.learner)

    async def code_save(self, lesson: Lesson, code: str) -> quotas.Refusal | None:
        return await _db(code_save, learner=self.learner, lesson=lesson, code=code)

    async def attempt_record(self, lesson: Lesson, grade: Grade, code: str) -> str | None:
        return await _db(
            attempt_record, learner=self.learner, lesson=lesson, grade=grade, code=code
        )

    async def hints_seen(self, lesson: Lesson, question_id: str | None = None) -> int:
        progress = await _db(progress_get, self.learner, lesson)
        if question_id is None:
            return progress.hints
        return int(progress.question_hints.get(question_id, 0))

    async def hint_reveal(self, lesson: Lesson, count: int, question_id: str | None = None) -> None:
        if question_id is None:
            await _db(hint_reveal, learner=self.learner, lesson=lesson, count=count)
        else:
            await _db(
                question_hint_reveal,
                learner=self.learner,
                lesson=lesson,
                question_id=question_id,
                count=count,
            )

    async def answer_record(self, lesson: Lesson, question: Question, answer, correct: bool):
        await _db(
            answer_record,
            learner=self.learner,
            lesson=lesson,
            question=question,
            answer=answer,
            correct=correct,
        )

    async def solution_reveal(self, lesson: Lesson) -> None:
        await _db(solution_reveal, learner=self.learner, lesson=lesson)


def tutor_for(learner: Learner | None) -> Tutor:
    """The tutor for this request: the learner's store (none: an API caller without a token),
    the process's sandbox, the language Django chose for the request."""
    progress = DjangoProgress(learner) if learner is not None else NoProgress()
    return Tutor(progress, lambda: gate.Lending(get_sandbox()), get_language())


def answer_quota(client: str) -> Quota:
    """The web's limit on a blank answer: it runs in the sandbox, so it is metered like a run."""

    @contextlib.asynccontextmanager
    async def quota(text: str, programs: int) -> AsyncIterator[quotas.Refusal | None]:
        async with quotas.metered(client, programs) as refusal:
            yield refusal

    return quota


@transaction.atomic
def answer_record(*, learner: Learner, lesson: Lesson, question: Question, answer, correct: bool):
    row = _progress_for_update(learner, lesson)
    saved, created = QuestionAnswer.objects.select_for_update().get_or_create(
        progress=row,
        question_id=question.id,
        defaults={"answer": answer, "correct": correct, "tries": 1, "answered_at": timezone.now()},
    )
    if not created:
        saved.answer, saved.correct = answer, correct
        saved.tries += 1
        saved.answered_at = timezone.now()
        saved.save()
    row.save(update_fields=["updated_at"])


# ---- the API's bare run (no lesson, no learner, no database) ---------------------------------


@dataclass(frozen=True)
class ApiOutcome:
    result: RunResult | None = None
    refusal: quotas.Refusal | None = None


async def api_run(*, code: str, client: str) -> ApiOutcome:
    async with quotas.run_limits(client)(code, 1) as refusal:
        if refusal:
            return ApiOutcome(refusal=refusal)
        runs = await get_sandbox().arun_cases(RunRequest((code,), client=client))
    return ApiOutcome(result=runs[0])
