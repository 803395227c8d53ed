"""Anonymous learners who will not come back, deleted with their rows: in batches by the
``expire_learners`` command, and once an hour at most when a new anonymous learner starts
(``learners.learner_started``), so a site whose operator never runs the command still sheds
them."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from codeblanks.web.models import Attempt, LessonProgress


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
