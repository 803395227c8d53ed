"""One run, in the caller's thread: hand the code to a spare, collect what comes back, and turn
it into a RunResult (the verdict). Everything read from the child is hostile and capped."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import os
import re
import select
import signal
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

from codeblanks.sandbox import demotion
from codeblanks.sandbox.inside import wire
from codeblanks.sandbox.result import (
    ERROR,
    MEMORY_LIMIT,
    OK,
    OUTPUT_LIMIT,
    SANDBOX_ERROR,
    TIMEOUT,
    RunLimits,
    RunResult,
)
from codeblanks.sandbox.spare import Spare

CUT_MARKER = "\n[... output cut: the program printed more than {} KiB ...]\n"


# The header np.save writes for a plain array of numbers, and nothing else. Read with a regular
# expression, not NumPy's reader: that one evaluates the header with ``ast.literal_eval``, and in
# CPython 3.11 building an AST in one thread while another does (the grader parses programs)
# can make either fail with "SystemError: AST constructor recursion depth mismatch".
_NPY_HEADER = re.compile(
    r"\{'descr': '([<>|=]?[biufc][0-9]{1,2})', 'fortran_order': (True|False), "
    r"'shape': \(((?:[0-9]{1,12}, ?){0,32}[0-9]{0,12})\), \} *\n?"
)
_NPY_MAGIC = b"\x93NUMPY"
MAX_NPY_HEADER = 4096


# What a captured value that is not a plain array of numbers reads as.
UNREADABLE = "<unreadable value>"


def decode_npy(blob: bytes) -> Any:
    """A NumPy array from ``.npy`` bytes the learner's process wrote (or the node's sandbox
    wrote again for a web worker: remote.py), or None if they are not a plain array of numbers
    whose header agrees with its size. The header is read (bounded, and matched whole against
    the one form np.save writes) before anything is allocated, so a header announcing 8 TiB
    costs nothing; pickles are never loaded."""
    import numpy as np

    try:
        if blob[:6] != _NPY_MAGIC or len(blob) < 10:
            return None
        major = blob[6]
        if major == 1:
            size, start = int.from_bytes(blob[8:10], "little"), 10
        elif major in (2, 3):
            size, start = int.from_bytes(blob[8:12], "little"), 12
        else:
            return None
        if size > MAX_NPY_HEADER or len(blob) < start + size:
            return None
        read = _npy_header(blob[start : start + size])
        if read is None:
            return None
        dtype, shape, order, count = read
        data = blob[start + size :]
        if count * dtype.itemsize != len(data):
            return None
        flat = np.frombuffer(data, dtype=dtype, count=count)
        return flat.reshape(shape, order=order).copy()
    except Exception:  # any malformed header: the learner's bytes, the learner's problem
        return None


@functools.lru_cache(maxsize=256)
def _npy_header(header: bytes) -> tuple[Any, tuple[int, ...], Literal["C", "F"], int] | None:
    """The dtype, shape, order and element count an ``.npy`` header says, or None if it is not
    the plain form. Remembered: a grade's cases send the same few headers again and again (at
    most ``MAX_NPY_HEADER`` bytes each, so a hostile child cannot make this hold much)."""
    import numpy as np

    found = _NPY_HEADER.fullmatch(header.decode("latin-1"))
    if found is None:
        return None
    descr, fortran, dims = found.groups()
    dtype = np.dtype(descr)
    if dtype.hasobject or dtype.kind not in "biufc" or dtype.fields is not None:
        return None
    shape = tuple(int(d) for d in dims.replace(" ", "").split(",") if d)
    if len(shape) == 1 and not dims.rstrip().endswith(","):
        return None  # "(3)" is not a tuple: np.save writes "(3,)"
    count = 1
    for dim in shape:
        count *= dim
    return dtype, shape, "F" if fortran == "True" else "C", count


def _decode_values(meta: list[Any], blobs: bytes) -> dict[str, Any]:
    values: dict[str, Any] = {}
    offset = 0
    for name, kind, size in meta:  # typed and bounded by wire.ReportReader
        blob = blobs[offset : offset + size]
        offset += size
        if kind == "npy":
            array = decode_npy(blob)
            values[name] = UNREADABLE if array is None else array
        elif kind == "json":  # lessontest's JSON text: the grader reads it (grading/pyvalues)
            values[name] = blob.decode("utf-8", "replace")
    return values


def _with_note(stderr: str, note: str) -> str:
    """The program's stderr followed by the platform's one-line explanation, in brackets."""
    sep = "" if not stderr or stderr.endswith("\n") else "\n"
    return f"{stderr}{sep}[{note}]\n"


def _signal_name(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


Stop = Callable[[int, RunResult], bool]


def stop_at_failure(index: int, result: RunResult) -> bool:
    """The default: no case runs after one that did not end normally."""
    return not result.ok


class Watch:
    """The fds a run waits on, as one ``poll`` set: made per run without a system call (an
    epoll selector costs one to make, one per fd registered and one to close) and read without
    a selector's key objects."""

    def __init__(self) -> None:
        self.poll = select.poll()
        self.fds: set[int] = set()

    def add(self, fd: int) -> None:
        self.poll.register(fd, select.POLLIN)
        self.fds.add(fd)

    def remove(self, fd: int) -> None:
        if fd in self.fds:
            self.fds.discard(fd)
            self.poll.unregister(fd)

    def wait(self, timeout_s: float) -> list[int]:
        """The fds ready to read (or at their end, or in error) within ``timeout_s``."""
        ms = max(0, math.ceil(timeout_s * 1000))
        return [fd for fd, _ in self.poll.poll(ms)]


class Streams:
    """The child's stdout and stderr: read without blocking, each kept up to ``cap`` bytes (one
    read past it, to know it was passed), per case."""

    def __init__(self, watch: Watch, out_r: int, err_r: int, cap: int) -> None:
        self.watch, self.cap = watch, cap
        self.bufs = {out_r: bytearray(), err_r: bytearray()}
        for fd in self.bufs:
            os.set_blocking(fd, False)
            watch.add(fd)

    def _read(self, fd: int) -> bytes | None:
        """What ``fd`` holds now (at most 64 KiB): None if nothing, b"" at its end (unwatched)."""
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return None
        if not data:
            self.watch.remove(fd)
        return data

    def read(self, fd: int) -> bool:
        """One read, as the poll said ``fd`` is readable; False if its stream passed the cap."""
        data = self._read(fd)
        if data:
            self.bufs[fd] += data
        return len(self.bufs[fd]) <= self.cap

    def drain(self) -> bool:
        """Read what the pipes hold now; False if a stream passed its cap."""
        for fd, buf in self.bufs.items():
            if fd not in self.watch.fds:
                continue
            while len(buf) <= self.cap:
                data = self._read(fd)
                if not data:
                    break
                buf += data
            if len(buf) > self.cap:
                return False
        return True

    def next_case(self) -> None:
        for fd in self.bufs:
            self.bufs[fd] = bytearray()

    def texts(self) -> tuple[str, str]:
        """stdout and stderr as text, each cut at the cap with a note saying so."""

        def text(raw: bytes) -> str:
            s = raw[: self.cap].decode("utf-8", "replace")
            return s + CUT_MARKER.format(self.cap // 1024) if len(raw) > self.cap else s

        out, err = (bytes(b) for b in self.bufs.values())
        return text(out), text(err)


def execute(
    spare: Spare,
    codes: list[str],
    filename: str,
    limits: RunLimits,
    capture: tuple[str, ...],
    stop: Stop = stop_at_failure,
    slice_ms: int = 0,
    stdins: tuple[str, ...] = (),
    demote: Callable[[int], object] = demotion.demote,
    settled: Callable[[], object] | None = None,
) -> list[RunResult] | None:
    """Hand ``codes`` (a grade's cases, or one program) to a ready spare and collect one outcome
    per case it ran, in order; the caller kills and closes the spare. None if the spare was
    already dead (nothing ran). Fewer outcomes than codes when ``stop`` said so after a case, or
    when the child could not go on (it ended, or said it is unfit): the caller runs the rest on
    another spare if it wants them.

    A case is done when its DONE report is in: the child flushed its streams before sending it
    and waits for NEXT before the next case, so everything in the pipes then is that case's
    output. Each case has its own wall clock (from the moment it may start) and its own output
    caps. Everything read from the child is capped before it is kept.

    ``slice_ms``: once the child has used that much CPU it is demoted by ``demote`` (short
    jobs first: SCHED_IDLE, demotion.py, and the low-weight cpu group); looked at when that
    much wall time has passed, then every half slice, so a short run costs no extra system
    call. ``settled`` is called once, when the child is demoted or has been running
    ``SETTLE_SLICES`` slices of wall time (a sleeper, or a run kept waiting): it no longer
    counts as fresh for the scheduler. ``stdins``: each case's standard input,
    in the order of ``codes`` (none: every case reads an empty one)."""
    lim = dict(_limits_dict(limits))
    if spare.group is not None:
        # The memory group counts what the program really holds; the address space only has
        # to stop absurd reservations (mappings overstate memory, NumPy reserves generously).
        lim["address_mb"] = 2 * limits.memory_mb
    request = wire.encode_request(filename, lim, list(capture), codes, list(stdins))
    start = time.perf_counter()
    alive = select.poll()
    alive.register(spare.pidfd, select.POLLIN)  # a pidfd turns readable when the process ended
    if alive.poll(0):
        return None  # the spare died while it waited: the caller takes another
    try:
        wire.write_all(spare.code_w, request)
    except OSError:
        return None  # ... or just now, before it got the code
    os.close(spare.code_w)
    spare.code_w = -1
    cases = _Cases(
        spare, len(codes), limits, capture, stop, slice_ms, alive, start, demote, settled
    )
    return cases.collect()


@functools.lru_cache(maxsize=64)
def _limits_dict(limits: RunLimits) -> dict[str, Any]:
    """``limits`` as the request's JSON gives them (a few lessons' limits: remembered, as
    ``dataclasses.asdict`` copies field by field; the caller gets its own copy)."""
    return dataclasses.asdict(limits)


class _Cases:
    """One child's cases, as they come: its streams, its report channel, the wall clock of the
    current case, and the CPU watch that demotes it."""

    def __init__(
        self,
        spare: Spare,
        count: int,
        limits: RunLimits,
        capture: tuple[str, ...],
        stop: Stop,
        slice_ms: int,
        alive: select.poll,
        start: float,
        demote: Callable[[int], object] = demotion.demote,
        settled: Callable[[], object] | None = None,
    ) -> None:
        self.spare, self.count, self.limits, self.capture = spare, count, limits, capture
        self.stop, self.slice_ms, self.alive, self.start = stop, slice_ms, alive, start
        self.wall_s = limits.wall_s  # stretched once the child is demoted (DEMOTED_WALL)
        self.deadline = start + self.wall_s
        self.fds = Watch()
        self.streams = Streams(self.fds, spare.out_r, spare.err_r, limits.output_bytes)
        self.chan_fd = spare.chan.fileno()
        self.fds.add(self.chan_fd)
        self.report = wire.ReportReader()
        self.results: list[RunResult] = []
        self.forced: str | None = None
        self.cpu_before = 0  # the child's CPU time when the current case began (as reported)
        self.finished = False  # the last case this child runs has reported
        self.watch = spare.pid is not None and slice_ms > 0
        self.check_at = start + slice_ms / 1000  # when to look at the child's CPU next
        self.waited_before = self._waited()  # the child's run-queue delay when the case began
        self.demote = demote
        self.settled = settled  # called once, then None

    def collect(self) -> list[RunResult]:
        while self.fds.fds and not (self.forced or self.finished):
            self._turn()
        spare = self.spare
        if self.finished:
            used = demotion.cpu_ms(spare.pid) if spare.pid is not None else None
            spare.kill()  # it is about to exit anyway; leftover threads go too
            return _with_cpu(self.results, spare, used)
        # Every channel is closed but no report came: the program closed them itself, or it
        # ended. Judge it on how it ends (within its time), not by killing it now.
        left_ms = max(0, int((self.deadline - time.perf_counter()) * 1000))
        if self.forced is None and not self.alive.poll(left_ms):
            self.forced = TIMEOUT
        ms = (time.perf_counter() - self.start) * 1000
        used = demotion.cpu_ms(spare.pid) if spare.pid is not None else None
        spare.kill()
        self.results.append(
            _ended(spare, self.forced, self.streams, self.limits, ms, self.deadline,
                   self.cpu_before)
        )  # fmt: skip
        return _with_cpu(self.results, spare, used)

    def _turn(self) -> None:
        """Wait for the next events (within the case's time) and handle them."""
        left = self.deadline - time.perf_counter()
        if left <= 0:
            if not self._give_back_waiting():
                self.forced = TIMEOUT
                return
            left = self.deadline - time.perf_counter()
        if self.watch and time.perf_counter() >= self.check_at:
            self._watch_cpu()
        wait = min(left, self.check_at - time.perf_counter()) if self.watch else left
        for fd in self.fds.wait(wait):
            if fd == self.chan_fd:
                self._on_channel()
            elif not self.streams.read(fd):
                self.forced = OUTPUT_LIMIT
            if self.forced or self.finished:
                break

    def _waited(self) -> float:
        pid = self.spare.pid
        return (demotion.waited_ms(pid) or 0.0) if pid is not None else 0.0

    def _give_back_waiting(self) -> bool:
        """At the deadline: the time the child spent runnable but waiting for a core (others'
        load, not its own doing) is given back, up to ``DEMOTED_WALL`` times its wall limit,
        so a verdict does not depend on the node's load; its CPU limit is unchanged. True if
        the deadline moved."""
        pid = self.spare.pid
        waited = demotion.waited_ms(pid) if pid is not None else None
        if waited is None:
            return False
        cap = self.start + self.limits.wall_s * demotion.DEMOTED_WALL
        deadline = min(cap, self.start + self.wall_s + (waited - self.waited_before) / 1000)
        if deadline <= time.perf_counter():
            return False
        self.deadline = deadline
        return True

    def _watch_cpu(self) -> None:
        """Past its CPU slice the child is demoted (and its wall clock stretched)."""
        pid = self.spare.pid
        assert pid is not None
        used = demotion.cpu_ms(pid)
        if used is not None and used >= self.slice_ms and not self.alive.poll(0):
            self.demote(pid)  # alive: its pid is not yet anyone else's
            self.watch = False
            self.wall_s = self.limits.wall_s * demotion.DEMOTED_WALL
            self.deadline = self.start + self.wall_s
            self._settle()
        elif time.perf_counter() - self.start >= SETTLE_SLICES * self.slice_ms / 1000:
            self._settle()
        self.check_at = time.perf_counter() + self.slice_ms / 2000

    def _settle(self) -> None:
        if self.settled is not None:
            settled, self.settled = self.settled, None
            settled()

    def _on_channel(self) -> None:
        """Bytes of the report: at its end the case is done, and the next may start."""
        chan = self.spare.chan
        try:
            data = chan.recv(1 << 16)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.fds.remove(self.chan_fd)
            return
        state = self.report.feed(data)
        if state == "garbage":
            self.forced = ERROR  # a forged or oversized report: stop the program
            return
        if state != "done":
            return
        end = time.perf_counter()
        if not self.streams.drain():
            self.forced = OUTPUT_LIMIT
            return
        header = self.report.header or {}
        result = _reported(header, self.report.blobs(), self.streams, self.limits, self.capture,
                           (end - self.start) * 1000)  # fmt: skip
        self.results.append(result)
        cpu = header.get("cpu_ms")
        self.cpu_before = cpu if type(cpu) is int and cpu >= 0 else self.cpu_before
        more = len(self.results) < self.count and header.get("fit") is True
        if not more or self.stop(len(self.results) - 1, result):
            self.finished = True
            return
        # The next case: its own clock, caps and report.
        self.streams.next_case()
        self.report = wire.ReportReader()
        self.start = time.perf_counter()
        self.deadline = self.start + self.wall_s
        self.waited_before = self._waited()
        with contextlib.suppress(OSError):  # gone: judged below on how it ended
            chan.sendall(wire.NEXT)


# How long a run's result waits for the zygote's word on a child that was gone from /proc
# before its CPU could be read there (it exits right after its last report, and the zygote
# reaps at once): that word follows within milliseconds.
REAPED_WAIT_S = 1.0
# A run still going after this many slices of wall time (a sleeper, or one kept off the cores)
# stops counting as fresh for the scheduler's cap on fresh runs: a grade within its slice ends
# well before, unless the cores are so contended that the cap should let another in anyway.
SETTLE_SLICES = 4


def _with_cpu(results: list[RunResult], spare: Spare, used: float | None) -> list[RunResult]:
    """The child's CPU, all its cases together, on its last outcome (what the web's rate limit
    charges): read before it was killed, or as the zygote reaped it if that came in (a
    zombie's /proc figure can fall short), whichever is more. A child already reaped when
    /proc was read (``used`` None) is charged what the zygote says, waited for: else the run
    would be charged nothing (seen under two suites at once)."""
    if used is None and spare.pid is not None:
        spare.exited.wait(REAPED_WAIT_S)
    most = max(used or 0, spare.cpu_ms or 0)
    results[-1] = replace(results[-1], cpu_ms=float(most))
    return results


def _reported(
    header: dict[str, Any],
    blobs: bytes,
    streams: Streams,
    limits: RunLimits,
    capture: tuple[str, ...],
    ms: float,
) -> RunResult:
    """A case that sent its report."""
    stdout, stderr = streams.texts()
    status = header.get("status")
    status = status if isinstance(status, int) else 1
    values = _decode_values(header.get("values", []), blobs) if capture else {}
    if header.get("kind") == "memory":
        note = f"stopped: the program used more than {limits.memory_mb} MiB of memory"
        return RunResult(MEMORY_LIMIT, stdout, _with_note(stderr, note), exit_code=status,
                         duration_ms=ms)  # fmt: skip
    return RunResult(OK if status == 0 else ERROR, stdout, stderr, exit_code=status,
                     duration_ms=ms, values=values)  # fmt: skip


def _ended(
    spare: Spare,
    forced: str | None,
    streams: Streams,
    limits: RunLimits,
    ms: float,
    deadline: float,
    cpu_before: int,
) -> RunResult:
    """The case during which the child was stopped, or ended without a report."""
    stdout, stderr = streams.texts()
    if forced == TIMEOUT:
        note = f"stopped: the program ran longer than {limits.wall_s:g} s"
        return RunResult(TIMEOUT, stdout, _with_note(stderr, note), duration_ms=ms)
    if forced == OUTPUT_LIMIT:
        return RunResult(OUTPUT_LIMIT, stdout, stderr, duration_ms=ms)
    if forced == ERROR:
        note = "stopped: the program wrote garbage to the sandbox's report channel"
        return RunResult(ERROR, stdout, _with_note(stderr, note), duration_ms=ms)
    # No report: the program crashed, was killed, or exited by itself (os._exit).
    spare.exited.wait(timeout=max(0.5, deadline - time.perf_counter()))
    if spare.zygote_died or spare.wait_status is None:
        note = (
            "the sandbox restarted during this run; please run it again"
            if spare.zygote_died
            else "the sandbox could not confirm how this run ended; please run it again"
        )
        return RunResult(SANDBOX_ERROR, stdout, _with_note(stderr, note), duration_ms=ms)
    status = spare.wait_status
    if os.WIFEXITED(status):
        code_ = os.WEXITSTATUS(status)
        return RunResult(OK if code_ == 0 else ERROR, stdout, stderr, exit_code=code_,
                         duration_ms=ms)  # fmt: skip
    sig = os.WTERMSIG(status)
    if sig == signal.SIGKILL and spare.group is not None and spare.group.oom_killed():
        note = f"stopped: the program used more than {limits.memory_mb} MiB of memory"
        return RunResult(MEMORY_LIMIT, stdout, _with_note(stderr, note), signal=sig,
                         duration_ms=ms)  # fmt: skip
    # The CPU this case used: the child's in all, less what it had used when the case began.
    if sig in (signal.SIGPROF, signal.SIGXCPU) or spare.cpu_ms - cpu_before >= limits.cpu_s * 1000:
        note = f"stopped: the program used more than {limits.cpu_s:g} s of CPU time"
        return RunResult(TIMEOUT, stdout, _with_note(stderr, note), signal=sig, duration_ms=ms)
    if sig == signal.SIGSYS:
        note = "stopped: the program made a forbidden system call"
    elif sig == signal.SIGSEGV:
        note = "crashed: segmentation fault (SIGSEGV)"
    else:
        note = f"stopped by {_signal_name(sig)}"
    return RunResult(ERROR, stdout, _with_note(stderr, note), signal=sig, duration_ms=ms)
