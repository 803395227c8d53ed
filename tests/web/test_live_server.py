"""The hostile-input findings against the real thing: ``codeblanks serve`` (uvicorn, the real
sandbox, SQLite) in a process of its own, spoken to over a socket as an attacker would."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .ports import free_port

BODY_TIMEOUT = 1.0
RUN_RATE = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("live")
    spool = data / "tmp"
    spool.mkdir()
    port = free_port()
    env = {
        **os.environ,
        "CODEBLANKS_DATA_DIR": str(data),
        "CODEBLANKS_BODY_TIMEOUT": str(BODY_TIMEOUT),
        "CODEBLANKS_RUN_RATE": str(RUN_RATE),
        "CODEBLANKS_DRAIN_SECONDS": "0",  # no balancer to drain for: it stops at once
        "TMPDIR": str(spool),
    }
    for name in (
        "CODEBLANKS_DATABASE_URL",
        "CODEBLANKS_FORWARDED_ALLOW_IPS",
        "DJANGO_SETTINGS_MODULE",
    ):
        env.pop(name, None)
    cli = Path(sys.executable).with_name("codeblanks")
    proc = subprocess.Popen(
        [str(cli), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(proc.stdout.read())
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("codeblanks serve did not start")
    yield port, spool
    proc.terminate()
    proc.wait(timeout=20)


def _exchange(port: int, head: bytes, body: bytes = b"", wait: float = 5.0) -> tuple[bytes, float]:
    """Send ``head`` and ``body``, then read what comes back within ``wait`` seconds."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(head + body)
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer and _complete(answer):
                    break
        except TimeoutError:
            pass
    return answer, time.monotonic() - start


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        return body.endswith(b"0\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return False


def _json(answer: bytes) -> dict:
    head, _, body = answer.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        size, _, rest = body.partition(b"\r\n")
        body = rest[: int(size, 16)]
    return json.loads(body)


def _head(path: str, length: int, extra: str = "") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n{extra}\r\n"
    ).encode()


def test_a_body_announced_as_1_gib_is_refused_unread(server):
    port, spool = server
    answer, _ = _exchange(port, _head("/api/run", 1 << 30), b'{"code": "', wait=60)
    # A 413, not the 408 of a server that waited for the body that never comes.
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    body = _json(answer)
    assert body["error"] == "too-large" and "1,048,576 bytes" in body["message"]
    assert list(spool.iterdir()) == []


def test_a_page_form_announced_as_1_gib_is_a_413_page(server):
    port, _ = server
    head = _head("/lessons/query-key-value/run", 1 << 30).replace(
        b"application/json", b"application/x-www-form-urlencoded"
    )
    answer, _ = _exchange(port, head, b"code=")
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"Too large to send" in answer and b"content-security-policy" in answer.lower()


def test_a_body_that_trickles_is_cut_after_the_timeout(server):
    port, _ = server
    answer, took = _exchange(port, _head("/api/run", 100_000), b'{"code": "', wait=60)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert took >= BODY_TIMEOUT  # it waited the body's time, and no more than a hang's
    assert _json(answer)["error"] == "too-slow"


def test_x_forwarded_for_from_loopback_is_not_trusted_by_default(server):
    port, _ = server
    body = b'{"code": "print(1)"}'
    statuses = []
    for i in range(RUN_RATE + 2):
        head = _head("/api/run", len(body), f"X-Forwarded-For: 10.0.0.{i}\r\n")
        answer, _ = _exchange(port, head, body, wait=60)
        statuses.append(answer[9:12])
    assert statuses[:RUN_RATE] == [b"200"] * RUN_RATE
    assert statuses[RUN_RATE:] == [b"429", b"429"]


def test_a_chunked_body_that_grows_past_the_limit_is_cut(server):
    """No Content-Length to go by: the body is read only up to the limit, then refused."""
    port, _ = server
    head = (
        b"POST /api/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * 65536
    body = (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * 20  # 1.25 MiB, never terminated
    answer, _ = _exchange(port, head, body, wait=60)
    # A 413, not the 408 of a server that waited for the end of the body.
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_django_never_spools_a_body_it_is_given():
    """Django writes a body to a temporary file past FILE_UPLOAD_MAX_MEMORY_SIZE; no body it
    gets is ever that large."""
    from django.conf import settings

    limit = settings.CODEBLANKS.max_body_bytes
    assert limit <= settings.FILE_UPLOAD_MAX_MEMORY_SIZE
    assert limit == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
