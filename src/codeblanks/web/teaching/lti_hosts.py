"""Which hosts the tool contacts for an LMS, and the sessions it contacts them with: a score or
roster URL comes from a launch's id_token, so only the hosts the operator named for the LMS's
registration are reached (docs/deploy.md, "Security"). One check for every service: the
scores (``lti.send``) and the names (``lti_names``)."""

from __future__ import annotations

import ipaddress
import logging
import socket
from urllib.parse import urlsplit

import requests
from lti_tool.models import LtiRegistration

from codeblanks.web.door import gate
from codeblanks.web.teaching.models import LtiHosts

log = logging.getLogger("codeblanks.lti")
TIMEOUT_S = 10  # every call to the LMS: its JWKS, its token endpoint, its scores, its roster


class TimedSession(requests.Session):
    """pylti1p3 calls the LMS with no time limit; a platform that never answers must not
    hold a request (or a learner's run) for ever, nor, while it is waited for, the site's
    permit (door/gate.py)."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", TIMEOUT_S)
        with gate.outside():
            return super().request(*args, **kwargs)


class RefusedHost(requests.RequestException):
    """A service URL (a line item, its scores, a membership list) on a host the LMS's
    registration does not name: never contacted."""


class RegistrationSession(TimedSession):
    """The session for an LMS's services: every request, redirects included (``send`` sees
    each), goes only to a host the registration names (``service_url_refusal``)."""

    def __init__(self, registration: LtiRegistration):
        super().__init__()
        self.registration = registration

    def send(self, request, **kwargs):
        if why := service_url_refusal(self.registration, request.url or ""):
            log.warning("LTI: not contacting %s: %s", request.url, why)
            raise RefusedHost(why)
        return super().send(request, **kwargs)


def _origin(url: str) -> tuple[str, int] | None:
    """(host, port) of an http(s) URL, the port filled in from the scheme; None otherwise."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def _allowed_origins(registration: LtiRegistration) -> tuple[set, set]:
    """The (host, port) pairs an LMS's services may be on: those of the registration's own URLs
    (issuer, login, token, keyset), and those the operator allowed for it (``LtiHosts``)."""
    own = {
        origin
        for url in (registration.issuer, registration.auth_url, registration.token_url,
                    registration.keyset_url)
        if (origin := _origin(url))
    }  # fmt: skip
    extra = LtiHosts.objects.filter(registration=registration).first()
    return own, set(extra.origins()) if extra else set()


def _inner_address(host: str) -> str | None:
    """One of the host's addresses that is not on the public internet (loopback, private,
    link-local, ...), or None: a name that resolves there reaches this server's neighbours."""
    try:
        found = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except (OSError, UnicodeError):
        return None  # not resolvable: the request fails on its own, contacting no one
    for address in found:
        if not ipaddress.ip_address(address.split("%")[0]).is_global:
            return address
    return None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def service_url_refusal(registration: LtiRegistration, url: str) -> str | None:
    """Why the tool must not contact ``url`` for this LMS, or None. A score or roster URL comes
    from the launch's id_token, so whoever holds the LMS's key chooses it: only the hosts the
    operator named for the registration are contacted, and a name of theirs that resolves to
    an inner address only when the operator listed it explicitly (an address typed in the
    registration, say 127.0.0.1 for an LMS on this machine, is explicit too)."""
    origin = _origin(url)
    if origin is None:
        return "not an http(s) URL"
    own, extra = _allowed_origins(registration)
    if origin not in own and origin not in extra:
        return f"{origin[0]}:{origin[1]} is not a host of the registration {registration.name!r}"
    host = origin[0]
    if origin in extra or _is_ip(host):
        return None
    if inner := _inner_address(host):
        return f"{host} resolves to the inner address {inner}; list the host for the registration"
    return None
