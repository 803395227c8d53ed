"""One run, in the caller's thread: hand the code to a spare, collect what comes back, and turn
it into a RunResult (the verdict). Everything read from the child is hostile and capped."""

from __future__ import annotations

import contextlib
import os
import re
import select
import selectors
import signal
import time
from collections.abc import Callable
from dataclasses import asdict, replace

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


def _decode_npy(blob: bytes):
    """A NumPy array from ``.npy`` bytes the learner's process wrote, or None if they are not a
    plain array of numbers whose header agrees with its size. The header is read (bounded, and
    matched whole against the one form np.save writes) before anything is allocated, so a
    header announcing 8 TiB costs nothing; pickles are never loaded."""
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
        found = _NPY_HEADER.fullmatch(blob[start : start + size].decode("latin-1"))
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
        data = blob[start + size :]
        if count * dtype.itemsize != len(data):
            return None
        flat = np.frombuffer(data, dtype=dtype, count=count)
        return flat.reshape(shape, order="F" if fortran == "True" else "C").copy()
    except Exception:  # any malformed header: the learner's bytes, the learner's problem
        return None


def _decode_values(meta: list, blobs: bytes) -> dict:
    values, offset = {}, 0
    for name, kind, size in meta:  # typed and bounded by wire.ReportReader
        blob = blobs[offset : offset + size]
        offset += size
        if kind == "npy":
            array = _decode_npy(blob)
            values[name] = "<unreadable value>" if array is None else array
        elif kind == "repr":
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


def execute(
    spare: Spare,
    codes: list[str],
    filename: str,
    limits: RunLimits,
    capture: tuple[str, ...],
    stop: Stop = stop_at_failure,
    slice_ms: int = 0,
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

    ``slice_ms``: once the child has used that much CPU it is demoted to SCHED_IDLE (short
    jobs first, demotion.py); looked at when that much wall time has passed, then every half
    slice, so a short run costs no extra system call."""
    lim = asdict(limits)
    if spare.group is not None:
        # The memory group counts what the program really holds; the address space only has
        # to stop absurd reservations (mappings overstate memory, NumPy reserves generously).
        lim["address_mb"] = 2 * limits.memory_mb
    request = wire.encode_request(filename, lim, list(capture), codes)
    cap = limits.output_bytes
    start = time.perf_counter()
    wall_s = limits.wall_s  # stretched once the child is demoted (demotion.DEMOTED_WALL)
    deadline = start + wall_s
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
    results: list[RunResult] = []
    sel = selectors.DefaultSelector()
    bufs = {spare.out_r: bytearray(), spare.err_r: bytearray()}
    for fd in bufs:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    sel.register(spare.chan, selectors.EVENT_READ)
    report = wire.ReportReader()
    forced: str | None = None
    cpu_before = 0  # the child's CPU time when the current case began (as it reported it)
    finished = False  # the last case this child runs has reported
    watch = spare.pid is not None and slice_ms > 0
    check_at = start + slice_ms / 1000  # when to look at the child's CPU next (while watched)

    def drain() -> bool:
        """Read what the pipes hold now; False if a stream passed its cap."""
        for fd in list(bufs):
            if fd not in sel.get_map():
                continue
            while len(bufs[fd]) <= cap:
                try:
                    data = os.read(fd, 1 << 16)
                except BlockingIOError:
                    break
                if not data:
                    sel.unregister(fd)
                    break
                bufs[fd] += data
            if len(bufs[fd]) > cap:
                return False
        return True

    try:
        while sel.get_map():
            left = deadline - time.perf_counter()
            if left <= 0:
                forced = TIMEOUT
                break
            if watch and time.perf_counter() >= check_at:
                used = demotion.cpu_ms(spare.pid)
                if used is not None and used >= slice_ms and not alive.poll(0):
                    demotion.demote(spare.pid)  # alive: its pid is not yet anyone else's
                    watch = False
                    wall_s = limits.wall_s * demotion.DEMOTED_WALL
                    deadline = start + wall_s
                check_at = time.perf_counter() + slice_ms / 2000
            events = sel.select(min(left, check_at - time.perf_counter()) if watch else left)
            for key, _ in events:
                if key.fileobj is spare.chan:
                    try:
                        data = spare.chan.recv(1 << 16)
                    except BlockingIOError:
                        continue
                    except OSError:
                        data = b""
                    if not data:
                        sel.unregister(spare.chan)
                        continue
                    state = report.feed(data)
                    if state == "garbage":
                        forced = ERROR  # a forged or oversized report: stop the program
                        break
                    if state != "done":
                        continue
                    end = time.perf_counter()
                    if not drain():
                        forced = OUTPUT_LIMIT
                        break
                    header = report.header or {}
                    result = _reported(header, report.blobs(), bufs, limits, capture,
                                       (end - start) * 1000)  # fmt: skip
                    results.append(result)
                    cpu = header.get("cpu_ms")
                    cpu_before = cpu if type(cpu) is int and cpu >= 0 else cpu_before
                    more = len(results) < len(codes) and header.get("fit") is True
                    if not more or stop(len(results) - 1, result):
                        finished = True
                        break
                    # The next case: its own clock, caps and report.
                    for fd in bufs:
                        bufs[fd] = bytearray()
                    report = wire.ReportReader()
                    start = time.perf_counter()
                    deadline = start + wall_s
                    with contextlib.suppress(OSError):  # gone: judged below on how it ended
                        spare.chan.sendall(wire.NEXT)
                    continue
                fd = key.fileobj
                try:
                    data = os.read(fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not data:
                    sel.unregister(fd)
                    continue
                bufs[fd] += data
                if len(bufs[fd]) > cap:
                    forced = OUTPUT_LIMIT
                    break
            if forced or finished:
                break
    finally:
        sel.close()
    if finished:
        used = demotion.cpu_ms(spare.pid) if spare.pid is not None else None
        spare.kill()  # it is about to exit anyway; leftover threads go too
        return _with_cpu(results, spare, used)
    # Every channel is closed but no report came: the program closed them itself, or it
    # ended. Judge it on how it ends (within its time), not by killing it now.
    left_ms = max(0, int((deadline - time.perf_counter()) * 1000))
    if forced is None and not alive.poll(left_ms):
        forced = TIMEOUT
    end = time.perf_counter()
    used = demotion.cpu_ms(spare.pid) if spare.pid is not None else None
    spare.kill()
    results.append(_ended(spare, forced, bufs, limits, (end - start) * 1000, deadline, cpu_before))
    return _with_cpu(results, spare, used)


def _with_cpu(results: list[RunResult], spare: Spare, used: float | None) -> list[RunResult]:
    """The child's CPU, all its cases together, on its last outcome (what the web's rate limit
    charges): read before it was killed, or as the zygote reaped it if that came in (a
    zombie's /proc figure can fall short), whichever is more."""
    used = max(used or 0, spare.cpu_ms or 0)
    results[-1] = replace(results[-1], cpu_ms=float(used or 0))
    return results


def _texts(bufs: dict, cap: int) -> tuple[str, str]:
    def text(raw: bytes) -> str:
        s = raw[:cap].decode("utf-8", "replace")
        return s + CUT_MARKER.format(cap // 1024) if len(raw) > cap else s

    out, err = (bytes(b) for b in bufs.values())
    return text(out), text(err)


def _reported(
    header: dict, blobs: bytes, bufs: dict, limits: RunLimits, capture: tuple, ms: float
) -> RunResult:
    """A case that sent its report."""
    stdout, stderr = _texts(bufs, limits.output_bytes)
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
    bufs: dict,
    limits: RunLimits,
    ms: float,
    deadline: float,
    cpu_before: int,
) -> RunResult:
    """The case during which the child was stopped, or ended without a report."""
    stdout, stderr = _texts(bufs, limits.output_bytes)
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
