"""Framing shared by the trusted side and the code inside the sandbox.

This file is imported both as ``codeblanks.sandbox.inside.wire`` on the trusted side (the
sandbox's supervisor, spare_pool, zygote_process and execute; grading's blanks and rules, for
``PRIVATE_END``) and as plain ``wire`` inside the sandbox root (zygote, runner), so it uses the
standard library only. The full protocol is
written at the top of ``zygote.py``; this module holds its constants and byte layouts.
"""

from __future__ import annotations

import array
import json
import os
import socket
import struct

TYPE_CHECKING = False  # what mypy reads as True: typing is never imported in the sandbox
if TYPE_CHECKING:
    from typing import Any

# Control channel (supervisor <-> zygote), one SOCK_SEQPACKET datagram per message.
READY = b"READY"  # zygote -> supervisor, then a JSON object describing the zygote
SPAWN = b"SPAWN"  # supervisor -> zygote: "SPAWN <child id> <uid> <warm>" + 4 fds (SCM_RIGHTS)
EXIT = b"EXIT"  # zygote -> supervisor: "EXIT <child id> <wait status> <cpu ms>"

# Child channel (a SOCK_STREAM socketpair between the supervisor and one child).
HELLO = b"H"  # child -> supervisor, one byte + its own pidfd (SCM_RIGHTS): "waiting for code"
DONE = b"D"  # child -> supervisor, b"D" + u32 length + JSON header + value blobs: "a case ended"
NEXT = b"N"  # supervisor -> child, one byte: "I have read that case's output: run the next"

FD_COUNT = 4  # code (read end), stdout (write end), stderr (write end), child socket
MAX_CODE_BYTES = 1 << 20  # a learner's program is text; a megabyte is already absurd
MAX_CASES = 16  # programs (cases) one child runs, one after another
MAX_REQUEST_BYTES = 4 << 20  # all of a child's programs together (the supervisor splits more)
MAX_VALUES_BYTES = 4 << 20  # total size of captured variables sent back
# A case's standard input: the lines a lesson gives its program to read (``input()``); text,
# like the program, and far smaller (content.E115 refuses a lesson's over this).
MAX_STDIN_BYTES = 64 << 10
# A program may begin with a private setup, ended by this character (never in Python source): the
# runner runs that part first from compiled code, keeping no text of it where the program after
# it can reach (no linecache entry, no frame's local, not the program's own text). A blank's
# answer runs this way after the lesson's solution, which the learner must not be able to read.
PRIVATE_END = "\x00"


def send_fds(sock: socket.socket, message: bytes, fds: list[int]) -> None:
    """Send ``message`` with ``fds`` attached (SCM_RIGHTS)."""
    sock.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])


def recv_fds(sock: socket.socket, size: int, max_fds: int) -> tuple[bytes, list[int]]:
    """Receive one message and the fds attached to it (at most ``max_fds``; extra ones are closed
    by the kernel because the control buffer is too small for them)."""
    msg, ancdata, _flags, _addr = sock.recvmsg(size, socket.CMSG_SPACE(max_fds * 4))
    fds = array.array("i")
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            usable = len(data) - (len(data) % fds.itemsize)
            fds.frombytes(data[:usable])
    return msg, list(fds)


def encode_request(
    filename: str,
    limits: dict[str, Any],
    capture: list[str],
    codes: list[str],
    stdins: list[str] | None = None,
) -> bytes:
    """The bytes the supervisor writes on the code pipe: one JSON line (with each program's size
    in bytes, and each case's standard input's when any case has one), then the programs, one
    after another, then the inputs."""
    blobs = [code.encode("utf-8", "surrogatepass") for code in codes]
    given = [text.encode("utf-8", "surrogatepass") for text in stdins or ()]
    head: dict[str, Any] = {"filename": filename, "limits": limits, "capture": capture,
                            "sizes": [len(b) for b in blobs]}  # fmt: skip
    if any(given):
        head["stdin_sizes"] = [len(b) for b in given]
    return json.dumps(head).encode() + b"\n" + b"".join(blobs) + b"".join(given)


def decode_request(data: bytes) -> tuple[dict[str, Any], list[str], list[bytes | None]]:
    """The request, its programs (at least one; at most ``MAX_CASES``) and each program's
    standard input (None: none given, the program reads an empty fd 0; each cut at
    ``MAX_STDIN_BYTES``)."""
    header, _, rest = data.partition(b"\n")
    request = json.loads(header)
    sizes = [s for s in request.get("sizes") or [len(rest)] if isinstance(s, int) and s >= 0]
    codes, offset = [], 0
    for size in sizes[:MAX_CASES]:
        codes.append(rest[offset : offset + size].decode("utf-8", "replace"))
        offset += size
    offset = sum(sizes)  # the inputs follow every program the header names
    stdins: list[bytes | None] = []
    raw = request.get("stdin_sizes")
    for size in raw if isinstance(raw, list) else []:
        if not isinstance(size, int) or size < 0:
            break
        stdins.append(rest[offset : offset + min(size, MAX_STDIN_BYTES)])
        offset += size
    codes = codes or [""]
    stdins += [None] * (len(codes) - len(stdins))
    return request, codes, stdins[: len(codes)]


def encode_done(header: dict[str, Any], blobs: list[bytes]) -> bytes:
    head = json.dumps(header).encode()
    return DONE + struct.pack(">I", len(head)) + head + b"".join(blobs)


MAX_HEADER_BYTES = 64 << 10  # a DONE header names a few captured values: 64 KiB is plenty
MAX_VALUE_COUNT = 1024


class ReportReader:
    """The trusted side's reader of a DONE frame, fed the bytes as they arrive.

    Everything about the frame is the learner's to forge, so it is checked as it comes: the
    first byte, a header length within bounds, JSON parsed once (a deeply nested header is a
    forgery, not a crash), the values' table typed, their total size within bounds. The cost is
    linear in the bytes received; ``state`` is ``more``, ``done`` or ``garbage``."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.header: dict[str, Any] | None = None
        self.total: int | None = None
        self.state = "more"

    def feed(self, data: bytes) -> str:
        if self.state != "more":
            return self.state
        self.buf += data
        if self.total is None:
            self._read_header()
        if self.total is not None and len(self.buf) >= self.total:
            self.state = "done" if len(self.buf) == self.total else "garbage"
        return self.state

    def _read_header(self) -> None:
        if self.buf[:1] not in (b"", DONE):
            self.state = "garbage"
            return
        if len(self.buf) < 5:
            return
        (n,) = struct.unpack(">I", self.buf[1:5])
        if n > MAX_HEADER_BYTES:
            self.state = "garbage"
            return
        if len(self.buf) < 5 + n:
            return
        try:
            header = json.loads(bytes(self.buf[5 : 5 + n]))
        except (ValueError, RecursionError):
            header = None
        values = header.get("values", []) if isinstance(header, dict) else None
        if not isinstance(values, list) or len(values) > MAX_VALUE_COUNT:
            self.state = "garbage"
            return
        sizes = []
        for entry in values:
            if not (
                isinstance(entry, list)
                and len(entry) == 3
                and isinstance(entry[0], str)
                and isinstance(entry[1], str)
                and type(entry[2]) is int
                and 0 <= entry[2] <= MAX_VALUES_BYTES
            ):
                self.state = "garbage"
                return
            sizes.append(entry[2])
        if sum(sizes) > MAX_VALUES_BYTES:
            self.state = "garbage"
            return
        self.header, self.total = header, 5 + n + sum(sizes)

    def blobs(self) -> bytes:
        """The values' bytes, once ``done``."""
        (n,) = struct.unpack(">I", self.buf[1:5])
        return bytes(self.buf[5 + n : self.total])


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
