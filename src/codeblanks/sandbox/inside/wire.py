"""Framing shared by the trusted side and the code inside the sandbox.

This file is imported both as ``codeblanks.sandbox.wire`` (supervisor) and as plain ``wire`` inside
the sandbox root (zygote, runner), so it uses the standard library only. The full protocol is
written at the top of ``zygote.py``; this module holds its constants and byte layouts.
"""

from __future__ import annotations

import array
import json
import os
import socket
import struct

# Control channel (supervisor <-> zygote), one SOCK_SEQPACKET datagram per message.
READY = b"READY"  # zygote -> supervisor, then a JSON object describing the zygote
SPAWN = b"SPAWN"  # supervisor -> zygote: "SPAWN <child id> <uid>" + 4 fds (SCM_RIGHTS)
EXIT = b"EXIT"  # zygote -> supervisor: "EXIT <child id> <wait status> <cpu ms>"

# Child channel (child -> supervisor, a SOCK_STREAM socketpair).
HELLO = b"H"  # one byte + the child's own pidfd (SCM_RIGHTS): "locked down, waiting for code"
DONE = b"D"  # b"D" + u32 length + JSON header + value blobs: "the program ended"

FD_COUNT = 4  # code (read end), stdout (write end), stderr (write end), child socket
MAX_CODE_BYTES = 1 << 20  # a learner's program is text; a megabyte is already absurd
MAX_VALUES_BYTES = 4 << 20  # total size of captured variables sent back


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


def encode_request(filename: str, limits: dict, capture: list[str], code: str) -> bytes:
    """The bytes the supervisor writes on the code pipe: one JSON line, then the program."""
    header = json.dumps({"filename": filename, "limits": limits, "capture": capture})
    return header.encode() + b"\n" + code.encode("utf-8", "surrogatepass")


def decode_request(data: bytes) -> tuple[dict, str]:
    header, _, code = data.partition(b"\n")
    return json.loads(header), code.decode("utf-8", "replace")


def encode_done(header: dict, blobs: list[bytes]) -> bytes:
    head = json.dumps(header).encode()
    return DONE + struct.pack(">I", len(head)) + head + b"".join(blobs)


def decode_done(data: bytes) -> tuple[dict, bytes] | None:
    """``(header, blobs)`` from a complete DONE frame, or None if it is malformed."""
    if len(data) < 5 or data[:1] != DONE:
        return None
    (n,) = struct.unpack(">I", data[1:5])
    try:
        header = json.loads(data[5 : 5 + n])
    except ValueError:
        return None
    if not isinstance(header, dict):
        return None
    return header, data[5 + n :]


def done_size(data: bytes) -> int | None:
    """Total length of the DONE frame at the start of ``data`` once its header is readable."""
    if len(data) < 5:
        return None
    (n,) = struct.unpack(">I", data[1:5])
    try:
        header = json.loads(data[5 : 5 + n]) if len(data) >= 5 + n else None
    except ValueError:
        return -1
    if header is None:
        return None
    if not isinstance(header, dict):
        return -1
    sizes = [v[2] for v in header.get("values", []) if isinstance(v, list) and len(v) == 3]
    if not all(isinstance(s, int) and s >= 0 for s in sizes):
        return -1
    return 5 + n + sum(sizes)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
