"""Learners' names as their LMS gives them: those a launch carries (``take_name``), and a whole
course's, read from the LMS's Names and Role Provisioning Service (NRPS) for a class launched
from it, so the roster names everyone, even one whose launches carry no name. The membership
URL comes from a launch's id_token: it is contacted only on the registration's hosts
(``lti_hosts.service_url_refusal``, checked first and again on every request and redirect).
A failing or malformed answer is kept in words for the teacher and changes no name."""

from __future__ import annotations

import logging

import requests
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from lti_tool.models import LtiLaunch, LtiRegistration, LtiUser
from pylti1p3.exception import LtiException
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector

from codeblanks.web.teaching.lti_hosts import RegistrationSession, service_url_refusal
from codeblanks.web.teaching.models import Classroom, LtiRoster

log = logging.getLogger("codeblanks.lti")
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
NAME_MAX = 150  # Django's first_name and last_name
NAMES = ("given_name", "family_name", "name")
SYNC_EVERY_S = 10 * 60  # an Instructor's launches fetch a class's names at most this often
MAX_PAGES = 50  # an LMS that pages for ever is stopped: the names read so far are not kept
MAX_MEMBERS = 10_000
CHUNK = 500  # subs per query: SQLite limits a query's parameters
# What a failed call to the LMS raises: pylti1p3's refusals, the network's, an access token
# answer without its token (KeyError, TypeError), a body that is not JSON (ValueError).
FAILED = (LtiException, requests.RequestException, KeyError, TypeError, ValueError)


class NamesError(Exception):
    """Why the LMS's names could not be read, in words for the teacher."""


def take_name(user, body: dict) -> None:
    """The account's name as the LMS gives it (a launch's claims, or one NRPS member): the
    ``given_name`` and ``family_name``, else ``name``, else either part alone; no name given
    changes nothing."""
    given, family, full = (str(body.get(k) or "").strip() for k in NAMES)
    if given and family:
        first, last = given[:NAME_MAX], family[:NAME_MAX]
    elif full or given or family:
        first, last = (full or given or family)[:NAME_MAX], ""
    else:
        return
    if (user.first_name, user.last_name) != (first, last):
        user.first_name, user.last_name = first, last
        user.save(update_fields=["first_name", "last_name"])


def remember(launch: LtiLaunch, room: Classroom) -> LtiRoster | None:
    """Keep the membership URL a class launch carries, for later syncs (its host is checked
    when it is fetched, so a refused one shows the teacher why)."""
    url = (launch.get_claim(NRPS) or {}).get("context_memberships_url") or ""
    if not url:
        return None
    if len(url) > (LtiRoster._meta.get_field("url").max_length or 0):
        log.warning("LTI: membership URL too long to keep (%s characters)", len(url))
        return None
    roster, _made = LtiRoster.objects.get_or_create(
        classroom=room, url=url, defaults={"registration": launch.registration}
    )
    return roster


def sync_after_launch(room: Classroom) -> None:
    """An Instructor opened the class: its names are read again unless they were read in
    the last ``SYNC_EVERY_S`` (the cache every node shares counts). Never fails the launch."""
    if not cache.add(f"codeblanks:lti-names:{room.pk}", 1, timeout=SYNC_EVERY_S):
        return
    try:
        sync_class(room)
    except Exception:  # the teacher still gets their class; the class page shows the error
        log.exception("LTI: the names of class %s could not be synced", room.pk)


def sync_class(room: Classroom) -> list[str]:
    """Read the names of each LMS course the class was launched from; what went wrong, in
    words (nothing when every list was read)."""
    cache.set(f"codeblanks:lti-names:{room.pk}", 1, timeout=SYNC_EVERY_S)
    problems = []
    for roster in room.lti_rosters.filter(registration__is_active=True).select_related(
        "registration"
    ):
        try:
            sync(roster)
        except NamesError as exc:
            problems.append(str(exc))
    return problems


def sync(roster: LtiRoster) -> int:
    """Name the accounts of the roster's LMS members; how many were named. ``NamesError`` (the
    reason kept on the row and logged; no name changed) when the list could not be read."""
    try:
        members = fetch(roster.registration, roster.url)
    except NamesError as exc:
        LtiRoster.objects.filter(pk=roster.pk).update(error=str(exc)[:300])
        log.warning("LTI names from %s not read: %s", roster.url, exc)
        raise
    named = store(roster.registration, members)
    LtiRoster.objects.filter(pk=roster.pk).update(synced_at=timezone.now(), error="")
    return named


def fetch(registration: LtiRegistration, url: str) -> list[dict]:
    """Every member the LMS lists at ``url``, page after page (pylti1p3's NRPS call, with an
    access token from the registration's token URL), each checked (``_members``)."""
    if why := service_url_refusal(registration, url):
        raise NamesError(_("The LMS's list of names was not read: %(why)s") % {"why": why})
    connector = ServiceConnector(registration.to_registration(), RegistrationSession(registration))
    service = NamesRolesProvisioningService(connector, {"context_memberships_url": url})
    members: list[dict] = []
    page: str | None = url
    for _page in range(MAX_PAGES):
        try:
            answer = service.get_nrps_data(page)
        except FAILED as exc:
            message = _("The LMS did not give its list of names: %(why)s")
            raise NamesError(message % {"why": str(exc)[:200]}) from None
        members += _members(answer.get("body"))
        if len(members) > MAX_MEMBERS:
            raise NamesError(_("The LMS's list of names is too long to read."))
        page = answer.get("next_page_url")
        if not page:
            return members
    raise NamesError(_("The LMS's list of names is too long to read."))


def _members(body) -> list[dict]:
    """One page's members, or ``NamesError`` when it is not the shape NRPS gives: an object
    whose ``members`` is a list of objects, each with a ``user_id`` and names as strings."""
    found = body.get("members") if isinstance(body, dict) else None
    if not isinstance(found, list):
        raise NamesError(_("The LMS's answer is not a list of members."))
    for member in found:
        user_id = member.get("user_id") if isinstance(member, dict) else None
        if not isinstance(user_id, str) or not user_id:
            raise NamesError(_("A member in the LMS's answer has no user_id."))
        if any(member.get(k) is not None and not isinstance(member[k], str) for k in NAMES):
            raise NamesError(_("A member's name in the LMS's answer is not text."))
    return found


@transaction.atomic
def store(registration: LtiRegistration, members: list[dict]) -> int:
    """Name the account of each member who has launched CodeBlanks from this LMS (found by
    their ``sub``, the member's ``user_id``); a member without a name changes nothing, and one
    who never launched is not kept."""
    by_sub = {m["user_id"]: m for m in members if any(m.get(k) for k in NAMES)}
    subs, named = list(by_sub), 0
    for start in range(0, len(subs), CHUNK):
        users = LtiUser.objects.filter(
            registration=registration, sub__in=subs[start : start + CHUNK], auth_user__isnull=False
        ).select_related("auth_user")
        for lti_user in users:
            take_name(lti_user.auth_user, by_sub[lti_user.sub])
            named += 1
    return named
