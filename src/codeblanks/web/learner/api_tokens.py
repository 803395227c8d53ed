"""Personal API tokens: made and revoked by a signed-in learner on the progress page, presented
by ``codeblanks learn`` as ``Authorization: Bearer cbt_…``. A token is 32 random bytes; the
database keeps only its SHA-256 (a leaked table gives no working token) and its first
characters. A token acts for its user on their own progress, never on anyone else's, and has no
rights on the site's pages (it is read only by the API)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext

from codeblanks.web.learner.learners import Learner
from codeblanks.web.models import PersonalToken

PREFIX = "cbt_"
MAX_TOKENS = 20  # per user: enough for every machine a learner has
TOUCH_EVERY = timedelta(minutes=5)  # last_used_at is written at most this often


def _digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def token_create(*, user_id: int, name: str) -> tuple[PersonalToken, str] | None:
    """A new token and its text (shown once); None when the user already has ``MAX_TOKENS``."""
    if PersonalToken.objects.filter(user_id=user_id, revoked_at__isnull=True).count() >= MAX_TOKENS:
        return None
    raw = PREFIX + secrets.token_urlsafe(32)
    token = PersonalToken.objects.create(
        user_id=user_id,
        name=(name.strip() or "terminal")[:100],
        digest=_digest(raw),
        prefix=raw[: len(PREFIX) + 4],
    )
    return token, raw


def token_revoke(*, user_id: int, token_id: int) -> bool:
    """Revoke one of the user's own tokens; False if they have no such live token."""
    done = PersonalToken.objects.filter(
        pk=token_id, user_id=user_id, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    return done == 1


def token_list(*, user_id: int) -> list[PersonalToken]:
    return list(PersonalToken.objects.filter(user_id=user_id))


@dataclass(frozen=True)
class Bearer:
    """What an ``Authorization`` header said: no token, a learner, or a refusal in words."""

    learner: Learner | None = None
    username: str = ""
    refusal: str = ""


def bearer_learner(header: str) -> Bearer:
    """The learner a ``Bearer`` header names. A malformed, unknown or revoked token is a
    refusal (never silently anonymous: the learner must know their progress is not kept)."""
    if not header:
        return Bearer()
    scheme, _, raw = header.partition(" ")
    raw = raw.strip()
    if scheme.lower() != "bearer" or not raw.startswith(PREFIX) or len(raw) > 100:
        return Bearer(refusal=gettext("The Authorization header must be 'Bearer cbt_…' (a token)."))
    token = PersonalToken.objects.select_related("user").filter(digest=_digest(raw)).first()
    if token is None:
        return Bearer(refusal=gettext("This token is unknown."))
    if token.revoked_at is not None:
        return Bearer(refusal=gettext("This token was revoked."))
    if not token.user.is_active:
        return Bearer(refusal=gettext("This account is disabled."))
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
        PersonalToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return Bearer(learner=Learner(user_id=token.user_id), username=token.user.get_username())
