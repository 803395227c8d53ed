"""Who is learning: a signed-in user, or an anonymous visitor known by a random key kept in
their session. Views turn a request into a ``Learner`` here; services and selectors take one."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.http import HttpRequest

SESSION_KEY = "codeblanks_learner"


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


def learner_from_request(request: HttpRequest, *, create: bool = False) -> Learner | None:
    """The request's learner. An anonymous visitor without a key gets one only when ``create``
    (on their first write); until then they have no rows and this returns ``None``."""
    user = request.user
    if user.is_authenticated:
        return Learner(user_id=user.pk)
    key = request.session.get(SESSION_KEY)
    if not key and create:
        key = secrets.token_hex(16)
        request.session[SESSION_KEY] = key
    return Learner(anon_key=key) if key else None


def anon_key_from_session(request: HttpRequest) -> str:
    return request.session.get(SESSION_KEY, "")
