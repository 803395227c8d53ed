"""One HTTP request through an ASGI application in this process, as a server would make it: what
the tests and ``benchmarks/grading.py`` call instead of each building its own scope.

No socket and no server: what it measures is the application alone. ``benchmarks/api_run.py``
goes through a real socket on purpose (a real client's cost includes it) and does not use this."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Header = tuple[bytes, bytes]


@dataclass(frozen=True)
class Exchange:
    """What the application sent back: the status, the headers, the body, every message in
    order, and when the last byte was handed over (``time.perf_counter()``), which is when a
    client has the answer."""

    status: int
    headers: list[Header]
    body: bytes
    messages: list[dict[str, Any]]
    sent_at: float


async def asgi_request(
    app: Any,
    method: str,
    path: str,
    headers: Iterable[Header] = (),
    body: bytes = b"",
    *,
    host: str = "localhost",
    client: str = "127.0.0.1",
    scheme: str = "http",
    query: bytes = b"",
) -> Exchange:
    """Call ``app`` once: the body in one message, then, like a server, the client stays until
    the response is complete and only then disconnects."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": scheme,
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [(b"host", host.encode()), *headers],
        "client": (client, 40000),
        "server": ("127.0.0.1", 8000),
    }
    messages: list[dict[str, Any]] = []
    answered, asked, sent_at = asyncio.Event(), False, 0.0

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": body, "more_body": False}
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal sent_at
        messages.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            sent_at = time.perf_counter()
            answered.set()

    await app(scope, receive, send)
    start = messages[0]
    content = b"".join(m.get("body", b"") for m in messages[1:])
    return Exchange(start["status"], list(start.get("headers", [])), content, messages, sent_at)
