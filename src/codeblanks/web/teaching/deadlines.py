"""Due times and lateness. A teacher types a due time in the class's time zone (a school's
deadline is "Friday 17:00 here", whatever the server's zone); it is stored in UTC and shown back
in that zone, in ISO order. A learner's extension replaces the lesson's due time for them. The
class's late policy says what work after it is worth: all of it (accept), a percentage less per
day or part of a day late (penalty), or nothing (close)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.utils.translation import gettext as _

from codeblanks.web.teaching.models import Classroom

END_OF_DAY = time(23, 59)  # a due date without a time: the end of that day
POLICIES = ("accept", "penalty", "close")


class DueError(ValueError):
    """A due time or a time zone that does not parse, in words."""


def zone_of(name: str) -> ZoneInfo:
    """The IANA zone ``name`` ("" is the site's), or ``DueError``."""
    try:
        return ZoneInfo(name or settings.TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        raise DueError(
            _("%(zone)s is not a time zone (say Europe/Istanbul or America/New_York).")
            % {"zone": repr(name)}
        ) from None


def room_zone(room: Classroom) -> ZoneInfo:
    try:
        return zone_of(room.time_zone)
    except DueError:  # a name the zone database no longer has: the site's
        return ZoneInfo(settings.TIME_ZONE)


def parse_due(text: str, zone: ZoneInfo) -> datetime:
    """``2030-01-31`` (the end of that day), ``2030-01-31 17:00`` or ``2030-01-31T17:00`` in
    ``zone``, or a time with its offset; the aware time, or ``DueError``."""
    text = text.strip()
    try:
        if len(text) == 10:
            found = datetime.combine(date.fromisoformat(text), END_OF_DAY, zone)
        else:
            found = datetime.fromisoformat(text)
            found = found if found.tzinfo else found.replace(tzinfo=zone)
        found.astimezone(UTC)  # year 9999 in a zone west of UTC is past what a database keeps
    except (ValueError, OverflowError):
        message = _("%(text)s is not a due time (YYYY-MM-DD HH:MM, or YYYY-MM-DD).")
        raise DueError(message % {"text": repr(text[:40])}) from None
    return found


def shown(t: datetime | None, zone: ZoneInfo) -> str:
    """``2030-01-31 17:00`` in the zone, "" for none: what the pages and the CSV show."""
    return t.astimezone(zone).strftime("%Y-%m-%d %H:%M") if t else ""


def iso(t: datetime | None, zone: ZoneInfo) -> str | None:
    """ISO 8601 with the zone's offset (the API), None for none."""
    return t.astimezone(zone).isoformat() if t else None


@dataclass(frozen=True)
class Policy:
    """What work after the due time is worth; the one ``scores.lesson_score`` applies."""

    kind: str = "accept"
    penalty: int = 0  # percent per day late, for "penalty"

    def worth(self, at: datetime | None, due: datetime | None) -> float:
        """The share (0..1) of a point earned at ``at`` that counts."""
        if at is None or due is None or at <= due or self.kind == "accept":
            return 1.0
        if self.kind == "close":
            return 0.0
        days = math.ceil((at - due) / timedelta(days=1))
        return max(0.0, 1.0 - days * self.penalty / 100)


def room_policy(room: Classroom) -> Policy:
    return Policy(room.late_policy, room.late_penalty)
