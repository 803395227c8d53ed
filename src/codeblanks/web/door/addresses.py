"""Who is asking: the client's address, read from the request, for every limit kept per address
(runs, new learners, password resets, class joins)."""

from __future__ import annotations

from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's IP address, as the server saw it (behind a trusted proxy, uvicorn already
    put the forwarded address here; see CODEBLANKS_FORWARDED_ALLOW_IPS)."""
    return request.META.get("REMOTE_ADDR") or "unknown"
