"""Writes: saving code, running and grading it, answering questions, revealing solutions, and
moving an anonymous visitor's progress onto their account. Keyword-only, named
``<thing>_<verb>``. Async services (the ones that wait on the sandbox) do their database work
through ``sync_to_async`` so a long run never holds a thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from codeblanks import i18n
from codeblanks.content.model import BlankQuestion, Lesson, Question
from codeblanks.grading import Grade, acheck_blank, agrade
from codeblanks.grading.answers import judge_local
from codeblanks.grading.cases import programs_for, programs_for_blank
from codeblanks.sandbox import RunResult, get_sandbox
from codeblanks.web import quotas
from codeblanks.web.learners import Learner
from codeblanks.web.models import Attempt, LessonProgress, QuestionAnswer


def _progress_for_update(learner: Learner, lesson: Lesson) -> LessonProgress:
    row, _ = LessonProgress.objects.select_for_update().get_or_create(
        lesson_uuid=lesson.uuid, **learner.fields
    )
    return row


# ---- code ------------------------------------------------------------------------------------


@transaction.atomic
def code_save(*, learner: Learner, lesson: Lesson, code: str) -> None:
    """Keep ``code`` as the learner's latest program for this lesson."""
    row = _progress_for_update(learner, lesson)
    row.code, row.has_code, row.code_saved_at = code, True, timezone.now()
    row.save(update_fields=["code", "has_code", "code_saved_at", "updated_at"])


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
def attempt_record(*, learner: Learner, lesson: Lesson, grade: Grade, code: str) -> Attempt:
    """One row per graded run; the first correct one marks the exercise solved."""
    attempt = Attempt.objects.create(
        lesson_uuid=lesson.uuid,
        verdict=grade.verdict,
        case=(grade.case or "")[:200],
        duration_ms=grade.duration_ms,
        code_bytes=len(code.encode("utf-8", errors="replace")),
        **learner.fields,
    )
    if grade.correct:
        row = _progress_for_update(learner, lesson)
        if row.solved_at is None:
            row.solved_at = attempt.created_at
            row.save(update_fields=["solved_at", "updated_at"])
    return attempt


async def _graded(lesson: Lesson, code: str, client: str) -> Grade:
    """The grade in the request's language: the feedback is built (in a worker thread, which the
    context variable follows: ``asyncio.to_thread``) in the language Django chose for the
    request, against the lesson as that learner takes it."""
    language = get_language()
    with i18n.language(language):
        return await agrade(lesson.in_language(i18n.normalize(language)), code, client=client)


async def _blank_checked(lesson: Lesson, question: BlankQuestion, answer, client: str):
    """A blank answer's verdict, its words in the request's language."""
    with i18n.language(get_language()):
        return await acheck_blank(lesson, question, answer, client=client)


def _fair_key(learner: Learner) -> str:
    """Whom the sandbox counts a learner's runs to when it shares itself between learners."""
    return f"user:{learner.user_id}" if learner.user_id is not None else f"anon:{learner.anon_key}"


@dataclass(frozen=True)
class RunOutcome:
    grade: Grade | None = None
    refusal: quotas.Refusal | None = None


def _code_refusal(code: str) -> quotas.Refusal | None:
    """What is wrong with a program before anything is done with it: its size, or a character
    that cannot be kept."""
    return quotas.size_refusal(code) or quotas.character_refusal(code)


def _room_refusal(learner: Learner, lesson: Lesson, code: str) -> quotas.Refusal | None:
    """A refusal when keeping ``code`` would take the learner's saved code, all lessons
    together, over CODEBLANKS_LEARNER_CODE_BYTES (the saved code it replaces not counted)."""
    limit = settings.CODEBLANKS.learner_code_bytes
    others = LessonProgress.objects.filter(**learner.owner).exclude(lesson_uuid=lesson.uuid)
    used = sum(len(c.encode("utf-8")) for c in others.values_list("code", flat=True).iterator())
    size = len(code.encode("utf-8"))
    if used + size <= limit:
        return None
    return quotas.Refusal(
        413,
        "too-much-code",
        _(
            "Your saved programs in other lessons take %(used)s bytes and this one %(size)s; "
            "we keep at most %(limit)s bytes of code for one learner. Press “Reset to starter” "
            "in lessons you have finished, then run again."
        )
        % {
            "used": number_format(used, force_grouping=True),
            "size": number_format(size, force_grouping=True),
            "limit": number_format(limit, force_grouping=True),
        },
    )


async def lesson_run(*, learner: Learner, lesson: Lesson, code: str, client: str) -> RunOutcome:
    """A learner pressed Run: unless the code is too large or the client ran too often (then
    nothing is written: a refused run stores nothing), save the code, grade it, and record the
    attempt."""
    if refusal := _code_refusal(code):
        return RunOutcome(refusal=refusal)
    async with quotas.metered(client, programs_for(lesson, code)) as refusal:
        refusal = refusal or await sync_to_async(_room_refusal)(learner, lesson, code)
        if refusal:
            return RunOutcome(refusal=refusal)
        await sync_to_async(code_save)(learner=learner, lesson=lesson, code=code)
        grade = await _graded(lesson, code, _fair_key(learner))
    await sync_to_async(attempt_record)(learner=learner, lesson=lesson, grade=grade, code=code)
    return RunOutcome(grade=grade)


# ---- the API (no learner, no database) -------------------------------------------------------


@dataclass(frozen=True)
class ApiOutcome:
    result: RunResult | Grade | None = None
    refusal: quotas.Refusal | None = None


async def api_run(*, code: str, client: str) -> ApiOutcome:
    if refusal := _code_refusal(code):
        return ApiOutcome(refusal=refusal)
    async with quotas.metered(client) as refusal:
        if refusal:
            return ApiOutcome(refusal=refusal)
        return ApiOutcome(result=await get_sandbox().arun(code, client=client))


async def api_grade(*, lesson: Lesson, code: str, client: str) -> ApiOutcome:
    if refusal := _code_refusal(code):
        return ApiOutcome(refusal=refusal)
    async with quotas.metered(client, programs_for(lesson, code)) as refusal:
        if refusal:
            return ApiOutcome(refusal=refusal)
        return ApiOutcome(result=await _graded(lesson, code, client))


# ---- questions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnswerOutcome:
    correct: bool = False
    message: str = ""  # the grader's words on a blank answer (e.g. what it evaluated to)
    per_term: tuple[bool, ...] = ()  # matching: which terms are right
    refusal: quotas.Refusal | None = None


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


async def question_answer(
    *, learner: Learner | None, lesson: Lesson, question: Question, answer: object, client: str
) -> AnswerOutcome:
    """Judge an answer and keep it for the learner (``None``: an API caller without a token,
    judged and kept nowhere). Blanks run in the sandbox, so they count against the run rate."""
    if isinstance(question, BlankQuestion):
        async with quotas.metered(client, programs_for_blank(question)) as refusal:
            if refusal:
                return AnswerOutcome(refusal=refusal)
            fair = _fair_key(learner) if learner else client
            verdict = await _blank_checked(lesson, question, answer, fair)
        if getattr(verdict, "verdict", "") in ("busy", "sandbox-error"):
            # The platform could not judge it: nothing to record, the learner just retries.
            return AnswerOutcome(refusal=quotas.Refusal(503, verdict.verdict, verdict.message))
        outcome = AnswerOutcome(bool(verdict.correct), getattr(verdict, "message", "") or "")
    else:
        correct, per_term = judge_local(question, answer)
        outcome = AnswerOutcome(correct, "", tuple(per_term))
    if learner is not None:
        await sync_to_async(answer_record)(
            learner=learner,
            lesson=lesson,
            question=question,
            answer=answer,
            correct=outcome.correct,
        )
    return outcome


# ---- anonymous learners that will not come back ---------------------------------------------


def learners_expire(*, idle_days: int, forgotten_days: int, batch: int = 1000) -> int:
    """Delete anonymous learners that cannot or will not come back, with their rows: those
    with no progress (nothing solved, no answer, no hint or solution seen) and nothing written
    for ``idle_days``, and any whose session is long gone (``forgotten_days``: the session's
    age; their key lived only there). At most ``batch`` learners per call; returns how many
    went (call again while it returns ``batch``)."""
    now = timezone.now()
    anon = LessonProgress.objects.filter(user__isnull=True)
    progressed = anon.filter(
        Q(solved_at__isnull=False)
        | Q(revealed_at__isnull=False)
        | Q(hints_revealed__gt=0)
        | ~Q(question_hints={})
        | Q(answers__isnull=False)
    ).values("anon_key")
    recent = anon.filter(updated_at__gte=now - timedelta(days=idle_days)).values("anon_key")
    remembered = anon.filter(updated_at__gte=now - timedelta(days=forgotten_days))
    idle = anon.exclude(anon_key__in=progressed).exclude(anon_key__in=recent)
    forgotten = anon.exclude(anon_key__in=remembered.values("anon_key"))
    keys = list((idle | forgotten).values_list("anon_key", flat=True).distinct()[:batch])
    with transaction.atomic():
        LessonProgress.objects.filter(user__isnull=True, anon_key__in=keys).delete()
        Attempt.objects.filter(user__isnull=True, anon_key__in=keys).delete()
    return len(keys)


EXPIRE_EVERY_S = 3600


def learners_expire_sometimes() -> None:
    """One batch of ``learners_expire`` at most once an hour (across the nodes that share the
    cache), so a site whose operator never runs ``expire_learners`` still sheds them. Called
    when an anonymous learner starts."""
    try:
        due = cache.add("codeblanks:learners-expired", 1, timeout=EXPIRE_EVERY_S)
    except Exception:  # the shared cache is away: another time
        return
    if due:
        learners_expire(**expiry_ages())


def expiry_ages() -> dict:
    """``learners_expire``'s ages as configured: CODEBLANKS_IDLE_LEARNER_DAYS, and the session's
    lifetime (SESSION_COOKIE_AGE)."""
    return {
        "idle_days": settings.CODEBLANKS.idle_learner_days,
        "forgotten_days": max(1, settings.SESSION_COOKIE_AGE // 86400),
    }


# ---- accounts --------------------------------------------------------------------------------


def _earliest(a, b):
    return min(x for x in (a, b) if x is not None) if (a or b) else None


@transaction.atomic
def learner_claim(*, user_id: int, anon_key: str) -> int:
    """Move an anonymous visitor's progress, answers and attempts onto a user (on sign-up or
    log-in). Where both have worked on a lesson the results are merged: solved or revealed if
    either was, the more recently saved code, the later answer to each question. Returns the
    number of lessons moved or merged."""
    if not anon_key:
        return 0
    moved = 0
    anon_rows = LessonProgress.objects.select_for_update().filter(
        user__isnull=True, anon_key=anon_key
    )
    for anon in anon_rows:
        mine = (
            LessonProgress.objects.select_for_update()
            .filter(user_id=user_id, lesson_uuid=anon.lesson_uuid)
            .first()
        )
        moved += 1
        if mine is None:
            anon.user_id, anon.anon_key = user_id, ""
            anon.save()
            continue
        if anon.has_code and (
            not mine.has_code
            or (anon.code_saved_at or 0)
            and (mine.code_saved_at is None or anon.code_saved_at > mine.code_saved_at)
        ):
            mine.code, mine.has_code, mine.code_saved_at = anon.code, True, anon.code_saved_at
        mine.solved_at = _earliest(mine.solved_at, anon.solved_at)
        mine.revealed_at = _earliest(mine.revealed_at, anon.revealed_at)
        mine.hints_revealed = max(mine.hints_revealed, anon.hints_revealed)
        mine.question_hints = {
            qid: max(int(mine.question_hints.get(qid, 0)), int(anon.question_hints.get(qid, 0)))
            for qid in {**mine.question_hints, **anon.question_hints}
        }
        mine.save()
        theirs = {a.question_id: a for a in mine.answers.all()}
        for a in anon.answers.all():
            have = theirs.get(a.question_id)
            if have is None:
                a.progress = mine
                a.save()
            elif a.answered_at > have.answered_at:
                have.answer, have.correct, have.answered_at = a.answer, a.correct, a.answered_at
                have.tries += a.tries
                have.save()
        anon.delete()
    Attempt.objects.filter(user__isnull=True, anon_key=anon_key).update(
        user_id=user_id, anon_key=""
    )
    return moved
