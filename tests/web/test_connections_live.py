"""Connections and head deadlines against the real thing: ``codeblanks serve`` (uvicorn) in a
process of its own, held up over raw sockets as an attacker would. Connections that never
finish a request head are closed after ``CODEBLANKS_HEAD_TIMEOUT``; one address holds at most
``CODEBLANKS_CONNECTIONS_PER_ADDRESS``; a client from elsewhere is served meanwhile; a head
over 16 KiB is refused and odd heads are answered, never with a 500. The waits
are deadlines for the server to act, never measurements of how fast it does."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .ports import free_port

DEADLINE = 60.0  # seconds the server is given to do what it must; it needs a fraction of that
HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
ELSEWHERE = "127.0.0.2"  # the whole of 127/8 is this machine: another client address


@contextlib.contextmanager
def serving(tmp: Path, **env_vars: str):
    """One web process: the per-address cap is each process's own (web/door/workers.py), and
    with two the kernel may hand the nine connections of the cap test four to one, five to the
    other, so that neither is over its cap."""
    port = free_port()
    env = {
        **os.environ,
        "CODEBLANKS_DATA_DIR": str(tmp),
        "CODEBLANKS_WEB_WORKERS": "1",
        "CODEBLANKS_DRAIN_SECONDS": "0",  # no balancer to drain for: it stops at once
        **env_vars,
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
    try:
        deadline = time.monotonic() + DEADLINE
        while _healthz(port) != 200:
            if proc.poll() is not None:
                pytest.fail(proc.stdout.read())
            if time.monotonic() > deadline:
                pytest.fail("codeblanks serve did not start")
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _healthz(port: int, source: str = "127.0.0.1") -> int | None:
    """The status of GET /healthz from ``source``, or None when no answer came."""
    try:
        with socket.create_connection(("127.0.0.1", port), 10, (source, 0)) as s:
            s.sendall(HEALTHZ)
            answer = _until_closed(s)
    except OSError:
        return None
    return int(answer[9:12]) if answer.startswith(b"HTTP/1.1 ") else None


def _until_closed(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (within DEADLINE)."""
    s.settimeout(DEADLINE)
    answer = b""
    while chunk := s.recv(65536):
        answer += chunk
    return answer


def _buffered_mib() -> int:
    """The most the kernel holds of one connection's bytes on its way, in MiB: the sender's
    largest TCP buffer and the receiver's (net.ipv4.tcp_wmem and tcp_rmem, their maxima)."""
    most = sum(
        int(Path(f"/proc/sys/net/ipv4/{n}").read_text().split()[2])
        for n in ("tcp_rmem", "tcp_wmem")
    )
    return -(-most // (1 << 20))


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=DEADLINE)


# The tests that need the same settings share a server (each start costs seconds of CPU); each
# leaves it with every connection of its own closed and /healthz answering.
@pytest.fixture(scope="module")
def head_deadline(tmp_path_factory):
    """Heads must arrive within a second; no cap per address."""
    with serving(
        tmp_path_factory.mktemp("head-deadline"),
        CODEBLANKS_HEAD_TIMEOUT="1",
        CODEBLANKS_CONNECTIONS_PER_ADDRESS="0",
    ) as port:
        yield port


@pytest.fixture(scope="module")
def uncapped(tmp_path_factory):
    """The default head deadline; no cap per address."""
    with serving(
        tmp_path_factory.mktemp("uncapped"), CODEBLANKS_CONNECTIONS_PER_ADDRESS="0"
    ) as port:
        yield port


def test_unfinished_heads_and_silent_connections_are_closed(head_deadline):
    port = head_deadline
    half = [_connect(port) for _ in range(40)]
    for s in half:
        s.sendall(HALF_HEAD)
    silent = [_connect(port) for _ in range(40)]
    assert _healthz(port, ELSEWHERE) == 200  # a fresh client is served meanwhile
    for s in half:
        answer = _until_closed(s)  # before the fix: no answer, ever (TimeoutError)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
        assert b"did not arrive in time" in answer
    for s in silent:
        assert _until_closed(s) == b""  # closed without a word: nothing was asked
    for s in half + silent:
        s.close()
    assert _healthz(port) == 200


def test_after_an_answer_the_next_head_gets_a_deadline_too(head_deadline):
    """uvicorn's keep-alive timer stops at the first byte of the next request: a head begun
    after an answer and never finished held the connection for ever."""
    with _connect(head_deadline) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        first = b""
        while not first.endswith(b"}"):  # the health answer is one JSON object
            first += s.recv(65536)
        assert first.startswith(b"HTTP/1.1 200"), first[:100]
        s.sendall(HALF_HEAD)
        answer = _until_closed(s)  # before the fix: TimeoutError
    assert answer.startswith(b"HTTP/1.1 408"), answer[:100]


def test_one_address_holds_at_most_its_share_of_connections(tmp_path):
    cap = 8
    with serving(
        tmp_path,
        CODEBLANKS_HEAD_TIMEOUT="600",  # nothing is closed for being slow during this test
        CODEBLANKS_CONNECTIONS_PER_ADDRESS=str(cap),
    ) as port:
        held = [_connect(port) for _ in range(cap + 1)]
        ready, _, _ = select.select(held, [], [], DEADLINE)
        assert len(ready) == 1, "exactly one connection over the cap is answered at once"
        (refused,) = ready
        answer = _until_closed(refused)
        assert answer.startswith(b"HTTP/1.1 503") and b"Too many connections" in answer
        assert _healthz(port, ELSEWHERE) == 200  # the cap is per address
        for s in held:
            s.close()
        deadline = time.monotonic() + DEADLINE  # the server notices the closes soon after
        while _healthz(port) != 200:
            assert time.monotonic() < deadline, "the address was never let in again"
            time.sleep(0.1)


# Malformed or unusual heads, each closed by the server after its answer: the parser's or the
# site's 4xx, or an answer, never a 500 and never a wait.
ODD_HEADS = {
    "a path not in ASCII": b"GET /\xc3\xa9 HTTP/1.1\r\nHost: localhost\r\n",
    "a query not in ASCII": b"GET /?q=\xc3\xa9 HTTP/1.1\r\nHost: localhost\r\n",
    "a field without a colon": b"GET / HTTP/1.1\r\nHost: localhost\r\nOdd\r\n",
    "a NUL in a field": b"GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\x00b\r\n",
    "a space before the colon": b"GET / HTTP/1.1\r\nHost : localhost\r\n",
    "bare line feeds": b"GET /healthz HTTP/1.1\nHost: localhost\n",
    "a length and chunks": b"POST /api/run HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
    b"Transfer-Encoding: chunked\r\n",
    "two lengths": b"POST /api/run HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\n"
    b"Content-Length: 2\r\n",
    "a length in words": b"POST /api/run HTTP/1.1\r\nHost: localhost\r\nContent-Length: ab\r\n",
    "HTTP/9.9": b"GET / HTTP/9.9\r\nHost: localhost\r\n",
    "CONNECT": b"CONNECT localhost:443 HTTP/1.1\r\nHost: localhost\r\n",
    "an upgrade to HTTP/2": b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: h2c\r\n"
    b"Connection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n",
    "bytes not in UTF-8 in a field": b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-N: \xff\r\n",
    "HTTP/1.0 without a host": b"GET /healthz HTTP/1.0\r\n",
    "1,500 fields": b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n"
    + b"".join(b"X-%d: y\r\n" % i for i in range(1500)),
}


def test_odd_heads_a_long_one_and_a_pipelined_pair(uncapped):
    port = uncapped
    with _connect(port) as s:  # a field of 16 KiB, in pieces, its end never sent
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Long: ")
        for _ in range(16):  # (no more: bytes sent after the refusal would reset it)
            s.sendall(b"x" * 1024)
        answer = _until_closed(s)
    assert answer.startswith(b"HTTP/1.1 431"), answer[:100]
    assert b"longer than 16 KiB" in answer
    long_head = HEALTHZ.replace(b"\r\n\r\n", b"\r\nX-Long: " + b"x" * 17000 + b"\r\n\r\n")
    with _connect(port) as s:  # whole, in one piece
        s.sendall(long_head)
        assert _until_closed(s).startswith(b"HTTP/1.1 431")
    with _connect(port) as s:  # two requests in one piece: both answered, in order
        s.sendall(HEALTHZ.replace(b"Connection: close\r\n", b"") + HEALTHZ)
        answer = _until_closed(s)
    assert answer.count(b"HTTP/1.1 200") == 2, answer[:300]
    for what, head in ODD_HEADS.items():
        with _connect(port) as s:
            s.sendall(head + b"Connection: close\r\n\r\n")
            answer = _until_closed(s)  # within DEADLINE, or TimeoutError
        status = int(answer[9:12]) if answer.startswith(b"HTTP/1.1 ") else None
        assert status is not None and status < 500, (what, answer[:200])
    assert _healthz(port) == 200


def test_a_pipelined_head_is_not_read_while_the_request_before_it_runs(uncapped):
    """A head sent after a request that is still being answered waits in the kernel's buffers,
    not in the parser's: the bytes the connection takes stop at those buffers, where before it
    took all it could read while the request ran (55-58 MiB here, in one field without bound).
    (Once the request is answered, the rest of the head is counted and refused past 16 KiB.)"""
    run = json.dumps({"code": "import time\ntime.sleep(3)\nprint('done')"}).encode()
    slow = (
        b"POST /api/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(run), run)
    )
    piece, bound = b"x" * (1 << 20), _buffered_mib() + 1  # (+1: what the parser read at once)
    most = 4 * bound
    port = uncapped
    with _connect(port) as s:
        s.sendall(slow + b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Long: ")
        s.settimeout(1.0)  # a send that cannot go on for a second: the buffers are full
        taken = 0
        with contextlib.suppress(TimeoutError, ConnectionError):
            while taken < most:
                s.sendall(piece)
                taken += 1
        answer = b""
        with contextlib.suppress(ConnectionError):  # closed with bytes of ours unread
            answer = _until_closed(s)
    assert taken <= bound, f"the server took {taken} MiB of one head"
    # (what comes back first is the run's answer, unless the close with our megabytes
    # unread reset the connection and the kernel dropped it)
    assert not answer or answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert _healthz(port) == 200
