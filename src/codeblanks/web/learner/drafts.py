"""Drafts: what a signed-in learner typed in a lesson's editor and has not run, kept on the
server so a reload, a closed tab or another device does not lose it. The browser
keeps it in localStorage at once and sends it here within seconds (``static/codeblanks/
drafts.js``); the API's ``PUT /api/lessons/<id>/draft`` does the same with a token.

A draft is never graded and never replaces the code a Run saved: it is shown only while it is
newer than that code (a Run or "Reset to starter" makes it stale without touching it). Drafts
count against their own room of ``CODEBLANKS_LEARNER_CODE_BYTES``, all lessons together, and
one is at most ``CODEBLANKS_MAX_CODE_BYTES``, as a program is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from codeblanks.content.model import Lesson
from codeblanks.web.learner import quotas, statements
from codeblanks.web.learner.learners import Learner
from codeblanks.web.models import Draft


@dataclass(frozen=True)
class Shown:
    """What the editor starts with for a learner: the text, whether it is a draft, and when it
    was saved (None: the starter, never saved)."""

    code: str
    draft: bool
    saved_at: datetime | None


def _run_code(learner: Learner, lesson: Lesson) -> tuple[str | None, datetime | None]:
    """The code the learner's last Run kept (None: the starter) and when. Both reads here are
    compiled statements, as every lesson page makes them (docs/performance.md, "Compiled
    statements")."""
    shape, key = learner.owner_slots
    rows = statements.run_code_row(shape, values={"lesson": lesson.uuid, **key})
    if not rows:  # at most one: a learner has one row a lesson
        return None, None
    code, has_code, at = rows[0]
    return (code if has_code else None), at


def _newer_draft(learner: Learner, lesson: Lesson, ran_at: datetime | None) -> Shown | None:
    if learner.user_id is None:
        return None
    rows = statements.draft_row(values={"user": learner.user_id, "lesson": lesson.uuid})
    if not rows:  # at most one: a draft is unique by learner and lesson
        return None
    code, saved_at = rows[0]
    return Shown(code, True, saved_at) if ran_at is None or saved_at > ran_at else None


def draft_get(learner: Learner | None, lesson: Lesson) -> Shown | None:
    """The learner's draft of this lesson while it is newer than their run code, else None."""
    if learner is None or learner.user_id is None:
        return None
    return _newer_draft(learner, lesson, _run_code(learner, lesson)[1])


def shown(learner: Learner | None, lesson: Lesson) -> Shown:
    """What the editor shows: the draft when it is newer than the run code, else the run code,
    else the starter."""
    if learner is None:
        return Shown(lesson.exercise.starter, False, None)
    code, ran_at = _run_code(learner, lesson)
    draft = _newer_draft(learner, lesson, ran_at)
    if draft is not None:
        return draft
    return Shown(lesson.exercise.starter if code is None else code, False, ran_at)


def _too_large(code: str) -> quotas.Refusal | None:
    limit = settings.CODEBLANKS.max_code_bytes
    size = len(code.encode("utf-8", errors="surrogatepass"))
    if size <= limit:
        return None
    message = _("This draft is %(size)s bytes; at most %(limit)s bytes are kept. Shorten it.")
    sizes = {"size": number_format(size, force_grouping=True),
             "limit": number_format(limit, force_grouping=True)}  # fmt: skip
    return quotas.Refusal(413, "too-large", message % sizes)


def _room_refusal(user_id: int, lesson: Lesson, code: str) -> quotas.Refusal | None:
    """Drafts in every other lesson plus this one may not pass the learner's room for code
    (``quotas.room_refusal``)."""
    others = Draft.objects.filter(user_id=user_id).exclude(lesson_uuid=lesson.uuid)
    used = sum(len(text.encode("utf-8")) for text in others.values_list("code", flat=True))
    words = _(
        "Your drafts in other lessons take %(used)s bytes; we keep at most %(limit)s bytes of "
        "drafts for one learner. Run or reset the lessons you have finished."
    )
    return quotas.room_refusal(used, code, words)


def draft_save(*, learner: Learner, lesson: Lesson, code: str) -> quotas.Refusal | datetime:
    """Keep ``code`` as the learner's draft of the lesson and return when, or the refusal (too
    large, a character no text can hold, no room left; nothing kept). A draft equal to the run
    code is no draft: it is dropped."""
    if learner.user_id is None:
        raise ValueError("drafts are kept on the server for signed-in learners only")
    if (refusal := quotas.character_refusal(code) or _too_large(code)) is not None:
        return refusal
    now = timezone.now()
    with transaction.atomic():
        run_code, _at = _run_code(learner, lesson)
        if code == (run_code if run_code is not None else lesson.exercise.starter):
            Draft.objects.filter(user_id=learner.user_id, lesson_uuid=lesson.uuid).delete()
            return now
        if (refusal := _room_refusal(learner.user_id, lesson, code)) is not None:
            return refusal
        Draft.objects.update_or_create(
            user_id=learner.user_id,
            lesson_uuid=lesson.uuid,
            defaults={"code": code, "saved_at": now},
        )
    return now
