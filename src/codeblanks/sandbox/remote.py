"""One sandbox for several web processes: a node's workers (``codeblanks serve --workers N``)
send their runs over a Unix socket to the one ``Sandbox`` their parent keeps, so its slots, its
queue and its fair share between clients hold for the whole node, as they do for one process.

    RemoteSandbox(path)        the ``Runner`` a worker uses (``get_sandbox()`` returns it when
                               ``CODEBLANKS_NODE_SOCKET`` names the parent's socket)
    answer_run(sandbox, conn, message)   the parent's side of one run, on its connection

Wire: a 4-byte big-endian length and a JSON object each way. A run is one connection: the
request, then (when the caller gave its own ``stop``) each case's result and the caller's
answer whether to stop there, then every result. Captured values travel as ``.npy`` bytes
(never pickle) or their text, as they come out of the child.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import io
import json
import socket
import struct
from collections.abc import Callable, Sequence
from typing import Any

from codeblanks import inline
from codeblanks.sandbox.execute import UNREADABLE, decode_npy
from codeblanks.sandbox.result import (
    SANDBOX_ERROR,
    RunLimits,
    RunRequest,
    RunResult,
    Stop,
)

SOCKET_ENV = "CODEBLANKS_NODE_SOCKET"
# What the caller's log lines carry (the web's request id): the parent's line for the run
# carries it too. The web sets it (web/door/logs.py).
request_tag: Callable[[], str] = str
MAX_MESSAGE = 256 << 20
_HEAD = struct.Struct(">I")


# ---- the wire ---------------------------------------------------------------------------------


def send(sock: socket.socket, message: dict[str, Any]) -> None:
    body = json.dumps(message, separators=(",", ":")).encode()
    sock.sendall(_HEAD.pack(len(body)) + body)


def receive(sock: socket.socket) -> dict[str, Any]:
    """The next message; ConnectionError when the other end hung up."""
    (size,) = _HEAD.unpack(_exactly(sock, _HEAD.size))
    if size > MAX_MESSAGE:
        raise ConnectionError(f"a message of {size} bytes")
    message: dict[str, Any] = json.loads(_exactly(sock, size))
    return message


def _exactly(sock: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise ConnectionError("the other end hung up")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


async def _asend(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    body = json.dumps(message, separators=(",", ":")).encode()
    writer.write(_HEAD.pack(len(body)) + body)
    await writer.drain()


async def _areceive(reader: asyncio.StreamReader) -> dict[str, Any]:
    (size,) = _HEAD.unpack(await reader.readexactly(_HEAD.size))
    if size > MAX_MESSAGE:
        raise ConnectionError(f"a message of {size} bytes")
    message: dict[str, Any] = json.loads(await reader.readexactly(size))
    return message


def encode_request(request: RunRequest) -> dict[str, Any]:
    return {
        "op": "run",
        "codes": list(request.codes),
        "filename": request.filename,
        "limits": dataclasses.asdict(request.limits),
        "capture": list(request.capture),
        "client": request.client,
        "stdins": list(request.stdins),
        "ask": request.stop is not None,
        "tag": request_tag(),
    }


def decode_request(message: dict[str, Any], stop: Stop | None) -> RunRequest:
    return RunRequest(
        tuple(message["codes"]),
        message["filename"],
        RunLimits(**message["limits"]),
        tuple(message["capture"]),
        message["client"],
        stop,
        tuple(message["stdins"]),
    )


def encode_result(result: RunResult) -> dict[str, Any]:
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
    fields["values"] = {name: _encode_value(v) for name, v in result.values.items()}
    return fields


def decode_result(fields: dict[str, Any]) -> RunResult:
    values = {name: _decode_value(v) for name, v in fields.pop("values").items()}
    return RunResult(**fields, values=values)


def _encode_value(value: Any) -> dict[str, str]:
    if not isinstance(value, str):  # an array (execute.py gives an array or text)
        import numpy as np  # here: a worker that captures nothing never loads it

        buffer = io.BytesIO()
        np.save(buffer, value, allow_pickle=False)
        return {"npy": base64.b64encode(buffer.getvalue()).decode("ascii")}
    return {"text": value}


def _decode_value(value: dict[str, str]) -> Any:
    """The parent's value again: an array read as the sandbox reads a child's (``decode_npy``,
    not ``np.load``, which builds a syntax tree of each header outside the one lock that
    CPython 3.11 needs around them: under a crowd a Run failed with "AST constructor recursion
    depth mismatch", content/pysource.py)."""
    if "npy" in value:
        array = decode_npy(base64.b64decode(value["npy"]))
        return UNREADABLE if array is None else array
    return value["text"]


# ---- the parent's side ------------------------------------------------------------------------


def answer_run(sandbox: Any, conn: socket.socket, message: dict[str, Any]) -> None:
    """Run one worker's request on ``sandbox`` (blocking this connection's thread), asking the
    worker after each case whether to stop when it gave its own ``stop``."""

    def ask(index: int, result: RunResult) -> bool:
        send(conn, {"case": index, "result": encode_result(result)})
        return bool(receive(conn)["stop"])

    request = decode_request(message, ask if message.get("ask") else None)
    results = sandbox.run_request(request)
    send(conn, {"results": [encode_result(r) for r in results]})


# ---- the worker's side ------------------------------------------------------------------------


class RemoteSandbox:
    """The ``Runner`` of a web worker: every run goes to the node's one sandbox, in the parent.
    The parent logs each run and counts it in the metrics; here each run is only tallied for
    the web's CPU meter (``service.cpu_tally``)."""

    def __init__(self, path: str, slots: int) -> None:
        self.path = path
        self.slots = slots
        self.watchers: list[Callable[[RunResult], None]] = []

    async def arun_cases(self, request: RunRequest) -> list[RunResult]:
        if not inline.on_loop():  # driven on a thread of its own (codeblanks.inline)
            return self.run_request(request)
        try:
            results = await self._arun(request)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError) as lost:
            results = [_lost(lost)]
        return [self._told(r) for r in results]

    async def _arun(self, request: RunRequest) -> list[RunResult]:
        reader, writer = await asyncio.open_unix_connection(self.path, limit=MAX_MESSAGE)
        try:
            await _asend(writer, encode_request(request))
            while True:
                message = await _areceive(reader)
                if "results" in message:
                    return [decode_result(r) for r in message["results"]]
                assert request.stop is not None
                stop = request.stop(message["case"], decode_result(message["result"]))
                await _asend(writer, {"stop": bool(stop)})
        finally:
            writer.close()

    def run_request(self, request: RunRequest) -> list[RunResult]:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.connect(self.path)
                send(sock, encode_request(request))
                while True:
                    message = receive(sock)
                    if "results" in message:
                        results = [decode_result(r) for r in message["results"]]
                        break
                    assert request.stop is not None
                    stop = request.stop(message["case"], decode_result(message["result"]))
                    send(sock, {"stop": bool(stop)})
        except (OSError, ConnectionError, ValueError) as lost:
            results = [_lost(lost)]
        return [self._told(r) for r in results]

    async def arun(self, code: str, **keywords: Any) -> RunResult:
        return (await self.arun_cases(_one(code, **keywords)))[0]

    def run(self, code: str, **keywords: Any) -> RunResult:
        return self.run_request(_one(code, **keywords))[0]

    def run_cases(
        self,
        codes: Sequence[str],
        *,
        filename: str = "main.py",
        limits: RunLimits | None = None,
        capture: Sequence[str] = (),
        client: str | None = None,
        stop: Stop | None = None,
        stdins: Sequence[str] = (),
    ) -> list[RunResult]:
        from codeblanks.sandbox.service import _request

        return self.run_request(_request(codes, filename, limits, capture, client, stop, stdins))

    def _told(self, result: RunResult) -> RunResult:
        from codeblanks.sandbox.service import _tally

        tally = _tally.get()
        if tally is not None:
            tally.append(result.cpu_ms / 1000)
        for watch in self.watchers:
            watch(result)
        return result

    def close(self) -> None:
        """Nothing to stop: the parent owns the sandbox."""


def _one(
    code: str,
    *,
    filename: str = "main.py",
    limits: RunLimits | None = None,
    capture: Sequence[str] = (),
    client: str | None = None,
    stdin: str = "",
) -> RunRequest:
    from codeblanks.sandbox.service import _request  # the one way a request is made

    return _request([code], filename, limits, capture, client, stdins=(stdin,))


def _lost(reason: BaseException) -> RunResult:
    return RunResult(
        SANDBOX_ERROR,
        stderr=f"The server's sandbox could not be reached ({reason}). Try again in a moment.",
    )
