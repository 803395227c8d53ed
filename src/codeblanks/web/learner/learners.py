"""Who is learning: a signed-in user, or an anonymous visitor known by a random key kept in
their session. Views turn a request into a ``Learner`` here; the store and the selectors take
one."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest

from codeblanks.web.door.addresses import client_address
from codeblanks.web.learner import expiry, quotas

SESSION_KEY = "codeblanks_learner"
NEW_LEARNER_WINDOW_S = 3600


@dataclass(frozen=True)
class Learner:
    user_id: int | None = None
    anon_key: str = ""

    def __post_init__(self) -> None:
        if (self.user_id is None) == (not self.anon_key):
            raise ValueError("a learner is either a user or an anonymous key, exactly one")

    @property
    def owner(self) -> dict:
        """Keyword arguments that select this learner's rows."""
        if self.user_id is not None:
            return {"user_id": self.user_id}
        return {"user__isnull": True, "anon_key": self.anon_key}

    @property
    def owner_slots(self) -> tuple[str, dict[str, object]]:
        """``owner`` for a compiled statement (``statements.py``): the filter's shape (by
        account or by anonymous key; ``statements.owner_filter`` builds it) and the values of
        its slots."""
        if self.user_id is not None:
            return "user", {"user": self.user_id}
        return "anon", {"anon": self.anon_key}

    @property
    def seed(self) -> str:
        """What shuffles this learner's choice options (``content.public.option_order``): the
        same learner, the same order, on every page and through the API."""
        return f"user:{self.user_id}" if self.user_id is not None else f"anon:{self.anon_key}"

    @property
    def fields(self) -> dict:
        """Keyword arguments that make a new row belong to this learner."""
        if self.user_id is not None:
            return {"user_id": self.user_id, "anon_key": ""}
        return {"user_id": None, "anon_key": self.anon_key}


class TooManyLearners(Exception):
    """This address started more anonymous learners this hour than CODEBLANKS_NEW_LEARNERS_PER_HOUR
    allows (a client that drops its cookie is a new learner on every request)."""


def learner_from_request(request: HttpRequest) -> Learner | None:
    """The request's learner; ``None`` for an anonymous visitor without a key yet (they have
    no rows until their first write: ``learner_started``)."""
    user = request.user
    if user.is_authenticated:
        return Learner(user_id=user.pk)
    key = request.session.get(SESSION_KEY)
    return Learner(anon_key=key) if key else None


def learner_started(request: HttpRequest) -> Learner:
    """The request's learner, started now if the visitor had no key (on their first write;
    ``TooManyLearners`` when the address has started its share this hour)."""
    if (learner := learner_from_request(request)) is not None:
        return learner
    _count_new_learner(request)
    key = secrets.token_hex(16)
    request.session[SESSION_KEY] = key
    return Learner(anon_key=key)


def _count_new_learner(request: HttpRequest) -> None:
    """Count the address's new learner (``TooManyLearners`` past its share), and now and then
    clear out the anonymous learners who will not come back."""
    limit = settings.CODEBLANKS.new_learners_per_hour
    if limit > 0:
        where = client_address(request)
        count = quotas.window_count(f"learners:{where}", NEW_LEARNER_WINDOW_S)
        if count is not None and count > limit:
            raise TooManyLearners()
    expiry.learners_expire_sometimes()


def anon_key_from_session(request: HttpRequest) -> str:
    return request.session.get(SESSION_KEY, "")
