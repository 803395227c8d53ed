"""An anonymous visitor's work moved onto their account when they sign up or log in, merged
with what the account already holds."""

from __future__ import annotations

from django.db import transaction

from codeblanks.web.models import Attempt, LessonProgress


def _earliest(a, b):
    return min(x for x in (a, b) if x is not None) if (a or b) else None


@transaction.atomic
def learner_claim(*, user_id: int, anon_key: str) -> int:
    """Move an anonymous visitor's progress, answers and attempts onto a user (on sign-up or
    log-in). Where both have worked on a lesson the results are merged: solved or revealed if
    either was, the more recently saved code, the runs added up (the later run's mistake kept),
    the later answer to each question. Returns the number of lessons moved or merged."""
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
        mine.reviewed_at = _earliest(mine.reviewed_at, anon.reviewed_at)
        mine.hints_revealed = max(mine.hints_revealed, anon.hints_revealed)
        mine.runs += anon.runs
        if anon.last_run_at and (mine.last_run_at is None or anon.last_run_at > mine.last_run_at):
            mine.last_run_at, mine.last_mistake = anon.last_run_at, anon.last_mistake
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
