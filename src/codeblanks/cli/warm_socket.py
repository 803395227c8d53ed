"""A process that stays warm between command-line calls, for one user: its socket and wire.

A cold ``codeblanks grade`` pays for Python's imports, the courses and the sandbox's start on
every call (~1 s). Instead, the first call starts a small server that keeps all of that loaded
and answers later calls over a Unix socket; it exits once idle for ``CODEBLANKS_WARM_IDLE_S``
(default 300 s). Nothing here knows what a request means: the caller gives a ``handle``
function to the server and plain JSON-able requests to ``call``.

Safety: the socket lives in a private folder, ``$XDG_RUNTIME_DIR/codeblanks`` or
``/tmp/codeblanks-<uid>``, which must be a real folder (not a link) owned by this user with mode
0700; both ends check the other's uid (SO_PEERCRED) and hang up on anyone else. Any problem
(an unsafe folder, a server that does not come up, a broken connection) makes ``call`` return
None and the caller does the work itself, as a cold call does.

Wire: a 4-byte big-endian length and a JSON object, one request and one answer per connection.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import struct
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

IDLE_ENV = "CODEBLANKS_WARM_IDLE_S"
DEFAULT_IDLE_S = 300.0
START_WAIT_S = 60.0
MAX_MESSAGE = 64 << 20
_started: list[subprocess.Popen[bytes]] = []  # kept so that no ResourceWarning is raised for them


class UnsafeFolder(Exception):
    """The folder for the socket exists but is not private to this user: ``kind`` is
    "not-folder", "owner" or "mode" (the caller words it), ``mode`` its permission bits."""

    def __init__(self, kind: str, folder: Path, mode: int = 0) -> None:
        super().__init__(f"{folder}: {kind}")
        self.kind, self.folder, self.mode = kind, folder, mode


def idle_seconds() -> float:
    try:
        return max(0.1, float(os.environ.get(IDLE_ENV, "") or DEFAULT_IDLE_S))
    except ValueError:
        return DEFAULT_IDLE_S


def private_dir() -> Path:
    """The user's private folder for the socket, created 0700 if missing; UnsafeFolder if it
    exists and someone else owns it, it is a link, or others may enter it."""
    uid = os.geteuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = Path(runtime) if runtime and os.path.isabs(runtime) else None
    # (a Unix socket's path has at most 107 bytes)
    short = base is not None and len(str(base)) <= 64 and base.is_dir()
    folder = base / "codeblanks" if base is not None and short else Path(f"/tmp/codeblanks-{uid}")
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, 0o700)
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeFolder("not-folder", folder)
    if info.st_uid != uid:
        raise UnsafeFolder("owner", folder)
    if info.st_mode & 0o077:
        raise UnsafeFolder("mode", folder, info.st_mode & 0o777)
    return folder


def _peer_uid(sock: socket.socket) -> int:
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    uid: int = struct.unpack("3i", creds)[1]
    return uid


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message).encode()
    sock.sendall(struct.pack(">I", len(data)) + data)


def _recv(sock: socket.socket) -> dict[str, Any]:
    def exactly(n: int) -> bytes:
        chunks, left = [], n
        while left:
            chunk = sock.recv(min(left, 1 << 20))
            if not chunk:
                raise ConnectionError("the other side hung up")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    (size,) = struct.unpack(">I", exactly(4))
    if size > MAX_MESSAGE:
        raise ConnectionError("message too large")
    message = json.loads(exactly(size))
    if not isinstance(message, dict):
        raise ConnectionError("not a JSON object")
    return message


def _connect(path: Path, timeout: float | None) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(5.0)
    try:
        sock.connect(str(path))
        if _peer_uid(sock) != os.geteuid():  # not ours: never talk to it
            raise ConnectionError("the socket belongs to someone else")
    except OSError:
        sock.close()
        return None
    sock.settimeout(timeout)
    return sock


def call(name: str, request: dict[str, Any], server_argv: list[str]) -> dict[str, Any] | None:
    """Send ``request`` to the warm server ``name`` (a file name for its socket), starting it
    with ``server_argv`` + [socket path] if none answers; its answer, or None when there is no
    safe warm server to be had (the caller then does the work itself). UnsafeFolder when the
    folder for the socket is not private (the caller says so, then does the work)."""
    try:
        path = private_dir() / name
    except OSError:
        return None
    sock = _connect(path, None)
    if sock is None:
        sock = _start(path, server_argv)
        if sock is None:
            return None
    with sock:
        try:
            _send(sock, request)
            return _recv(sock)
        except (OSError, ValueError):
            return None


def _start(path: Path, server_argv: list[str]) -> socket.socket | None:
    """Start a server in its own session (it outlives this process) and wait for its socket."""
    log = path.with_suffix(".log")
    with open(log, "ab") as err:
        proc = subprocess.Popen(
            [*server_argv, str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            cwd="/",
            start_new_session=True,  # a Ctrl+C in this terminal must not stop it mid-run
        )
    _started.append(proc)
    deadline = time.monotonic() + START_WAIT_S
    while time.monotonic() < deadline:
        sock = _connect(path, None)
        if sock is not None:
            return sock
        if proc.poll() is not None:  # it could not start (another one won the race: retry once)
            return _connect(path, None)
        time.sleep(0.01)
    return None


def serve(
    path: str, handle: Callable[[dict[str, Any]], dict[str, Any]], idle_s: float | None = None
) -> None:
    """Answer requests on ``path`` one at a time with ``handle`` until idle for ``idle_s``."""
    idle_s = idle_seconds() if idle_s is None else idle_s
    where = Path(path)
    private_dir()  # the folder is still ours and private (raises otherwise)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(path)
    except OSError:
        if _connect(where, 1.0) is not None:
            return  # another server answers there already
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a stale socket of a server that died
        listener.bind(path)
    os.chmod(path, 0o600)
    mine = os.stat(path).st_ino
    listener.listen(16)
    listener.settimeout(idle_s)
    try:
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                return
            with conn:
                try:
                    if _peer_uid(conn) != os.geteuid():
                        continue
                    conn.settimeout(30.0)
                    request = _recv(conn)
                    conn.settimeout(None)
                    _send(conn, handle(request))
                except (OSError, ValueError):
                    continue
    finally:
        with contextlib.suppress(OSError):
            if os.stat(path).st_ino == mine:  # not a newer server's socket
                os.unlink(path)
        listener.close()
