"""Runs one learner's program inside a locked-down spare child (imported by the zygote).

Everything here executes after the child dropped to its run uid and loaded its seccomp filter;
from the moment the learner's code starts, anything in this process may have been tampered with,
so the supervisor treats every byte coming back as hostile (sizes are capped there, values are
decoded with ``allow_pickle=False``, JSON read as data by the grader).
"""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import importlib
import io
import json
import linecache
import os
import random  # noqa: F401 (preloaded for programs; CPython reseeds it in each forked child)
import resource
import signal
import socket
import sys
import traceback
import types

import lessontest
import wire

TYPE_CHECKING = False  # what mypy reads as True: typing is never imported in the sandbox
if TYPE_CHECKING:
    from types import CodeType
    from typing import Any

    # A program's private setup: compiled, the error to report instead, or none.
    Setup = CodeType | SyntaxError | None
    Values = list[list[object]]  # the DONE header's table: [name, kind, size] each

RUNNER_FILE = os.path.abspath(__file__)
# What a typical NumPy lesson program touches: running it in each spare before the learner's code
# takes the copy-on-write page faults and cold caches off the learner's clock.
_WARM_UP = """\
import numpy as np, math, random
X = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], dtype=float)
W = np.eye(4)[:, :2]
Q = X @ W
S = Q @ Q.T / math.sqrt(2)
A = np.exp(S - S.max(axis=1, keepdims=True))
A = A / A.sum(axis=1, keepdims=True)
v = np.linspace(0, 1, 5).reshape(5, 1) * np.arange(3) + np.zeros(3, dtype=int)
print(Q.shape, A.shape, np.round(A[0], 3), A.mean(), v.T, np.allclose(A.sum(1), 1), [1, 2], 'x')
print(f"{A[0, 0]:.3f}", np.argmax(A, axis=1), np.where(A > 0.3, 1, 0).tolist(), random.random())
"""


def preload(modules: list[str]) -> dict[str, str]:
    """Import the configured modules in the zygote, plus what runs need, and warm NumPy up."""
    info: dict[str, str] = {}
    for name in modules:
        importlib.import_module(name)
    if "numpy" in sys.modules:
        np = sys.modules["numpy"]
        # numpy.random and numpy.linalg are imported lazily; do it once here, not per run.
        importlib.import_module("numpy.random")
        importlib.import_module("numpy.linalg")
        _find_mt_state()
        _warm_up()
        info["numpy"] = np.__version__
    return info


def _warm_up() -> None:
    """Run the typical program and the reporting path once (trusted code, output discarded)."""
    saved = sys.stdout
    sys.stdout = io.StringIO()
    try:
        namespace: dict[str, object] = {"__name__": "__main__"}
        exec(compile(_WARM_UP, "<warm-up>", "exec"), namespace)
        meta, blobs = _capture(namespace, ["A", "Q", "v"])
        wire.encode_done({"status": 0, "kind": "exit", "values": meta}, blobs)
        wire.decode_request(wire.encode_request("main.py", {"wall_s": 1}, ["A"], ["pass"]))
    finally:
        sys.stdout = saved


# Where NumPy's global MT19937 keeps its state (``mt19937_state``: 624 uint32 words, then the
# position), found once in the zygote; None without NumPy.
_MT_STATE: int | None = None
_MT_WORDS = 624


def _find_mt_state() -> None:
    global _MT_STATE
    np = sys.modules.get("numpy")
    if np is not None:
        generator = np.random.mtrand._rand._bit_generator
        if type(generator).__name__ == "MT19937":
            _MT_STATE = generator.ctypes.state_address


def _reseed() -> None:
    """Forked children share the zygote's RNG state (numpy issue 9650): give NumPy's global
    generator a state of its own from the kernel. Python's ``random`` needs nothing here:
    CPython reseeds it in every forked child (``os.register_at_fork``).

    The state is written in place, 624 words from the kernel with the position at their end
    (the next draw mixes them), rather than through ``np.random.seed``: that walks enough of
    NumPy to copy ~130 of the zygote's pages in each child (~0.8 ms of CPU here), this ~30.
    The legacy generator's cached Gaussian is not reset: nothing in the zygote draws one."""
    if _MT_STATE is None:
        np = sys.modules.get("numpy")
        if np is not None:  # another bit generator than expected: the slow, general way
            np.random.seed(np.frombuffer(os.urandom(16), dtype=np.uint32))
        return
    state = bytearray(os.urandom(4 * _MT_WORDS))
    state[3] |= 0x80  # never the all-zero state (as the reference seeding guarantees)
    state += _MT_WORDS.to_bytes(4, sys.byteorder)
    ctypes.memmove(_MT_STATE, bytes(state), len(state))


def _read_all(fd: int) -> bytes:
    chunks, total = [], 0
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
        total += len(chunk)
        if total > wire.MAX_REQUEST_BYTES + 65536:
            break
    return b"".join(chunks)


def _apply_limits(lim: dict[str, Any], cases: int = 1) -> None:
    # Lowering only: the child is no longer root, so a program cannot raise them back.
    def cap(which: int, soft: int, hard: int | None = None) -> None:
        resource.setrlimit(which, (soft, soft if hard is None else hard))

    # Memory bombs (Python lists, huge NumPy arrays) -> MemoryError. Where a memory cgroup
    # counts the run's pages, the supervisor allows more address space than memory.
    mem = int(lim.get("address_mb") or lim["memory_mb"]) << 20
    cap(resource.RLIMIT_AS, mem)
    # Busy loops (in threads too): SIGPROF, whose default action ends the process, at exactly
    # cpu_s of CPU time (set again for each case); RLIMIT_CPU (whole seconds only) stops a
    # program that catches SIGPROF: it bounds the whole child, every case together.
    signal.signal(signal.SIGPROF, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_PROF, float(lim["cpu_s"]))
    cpu = max(1, int(-(-float(lim["cpu_s"]) * max(1, cases) // 1)))
    cap(resource.RLIMIT_CPU, cpu, cpu + 1)
    cap(resource.RLIMIT_FSIZE, int(lim["file_size_mb"]) << 20)  # one huge file
    cap(resource.RLIMIT_NOFILE, int(lim["open_files"]))  # fd exhaustion
    cap(resource.RLIMIT_NPROC, int(lim["threads"]) + 1)  # thread bombs (the run's uid is its own)


def _text_stream(fd: int) -> io.TextIOWrapper:
    raw = io.FileIO(fd, "w", closefd=False)
    return io.TextIOWrapper(io.BufferedWriter(raw, 1 << 16), encoding="utf-8",
                            errors="backslashreplace")  # fmt: skip


def _compiled(code: str, filename: str) -> types.CodeType:
    """The program compiled. CPython's parser answers MemoryError when brackets, operators or
    lambdas nest too deeply for it, whatever the memory: said as what it is, not as the
    program's memory use."""
    try:
        return compile(code, filename, "exec", dont_inherit=True)
    except MemoryError:
        pass
    raise RecursionError(
        "the program nests brackets, operators or lambdas too deeply for Python to read it"
    )


def _learner_traceback(exc: BaseException) -> str:
    """The traceback as Python would print it, minus the platform's own frames."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == RUNNER_FILE:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def _encode_value(value: object) -> tuple[str, bytes]:
    """Numbers and NumPy arrays of numbers as .npy; any other value as lessontest's JSON (text it
    wrote already, a function test's result, as it is), which the grader reads as data."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, (bool, int, float, complex, np.ndarray, np.generic)):
        try:
            arr = np.asarray(value)
            if arr.dtype.kind in "biufc":
                if arr.nbytes > wire.MAX_VALUES_BYTES:  # never sent: not copied either
                    return "too-large", b""
                return "npy", _npy(arr)
        except Exception:
            pass
    if type(value) is _WRITTEN:
        text = str.__str__(value)  # the text itself, never a method of its own
    else:
        try:
            text = _dumps(value)
        except _TOO_LARGE:
            return "too-large", b""
        except Exception as e:  # raised by the program's own code (a property, an iterator)
            text = _dumps_failed(value, e)
    return "json", text.encode("utf-8", "backslashreplace")


def _npy(arr: Any) -> bytes:
    """``arr`` as the ``.npy`` file ``np.save`` writes for an array of numbers (format 1.0, in C
    order: ``tobytes`` copies any layout out in C order), made here: np.save's own checks and
    header code, first touched in a fresh child, cost ~11 µs more a value, and a QKV grade
    writes twenty (five values, four cases)."""
    header = f"{{'descr': {arr.dtype.str!r}, 'fortran_order': False, 'shape': {arr.shape!r}, }}"
    header += " " * (-(len(header) + 11) % 64) + "\n"  # the data starts 64-byte aligned
    size = len(header).to_bytes(2, "little")
    data: bytes = arr.tobytes()
    return b"\x93NUMPY\x01\x00" + size + header.encode("latin-1") + data


# Bound at import, before any program runs: a program replacing lessontest's names changes
# nothing here (what it can forge, the text sent, the grader reads as hostile anyway).
_WRITTEN, _TOO_LARGE, _dumps = lessontest.Written, lessontest.TooLarge, lessontest.dumps


def _dumps_failed(value: object, error: Exception) -> str:
    """An object node for a value whose writing raised: its type and the error, no attributes."""
    why = f"writing it raised {type(error).__name__}"
    return json.dumps({"$": "object", "t": _type_name(type(value)), "why": why})


def _capture(namespace: dict[str, object], names: list[str]) -> tuple[Values, list[bytes]]:
    meta: Values = []
    blobs: list[bytes] = []
    total = 0
    for name in names:
        if name not in namespace:
            meta.append([name, "missing", 0])
            continue
        kind, data = _encode_value(namespace[name])
        if total + len(data) > wire.MAX_VALUES_BYTES:
            kind, data = "too-large", b""
        total += len(data)
        meta.append([name, kind, len(data)])
        blobs.append(data)
    return meta, blobs


def serve(code_fd: int, chan_fd: int, pidfd: int, warm: bool = True) -> None:
    """Announce readiness, read the programs (a grade's cases), run them one after another,
    report each, exit. Never returns.

    Each case is a fresh program: new globals, the builtins, ``sys`` streams, the signal timer
    and the working directory set again; its CPU timer starts anew. After reporting a case the
    child waits for the supervisor's NEXT (so that the next case's output never mixes with this
    one's) and tells it when this process is no longer fit for another case (threads left
    running, its streams or channel replaced): the supervisor then runs the rest elsewhere.

    ``warm``: run the trusted warm-up first, taking the copy-on-write faults a typical program
    causes off the learner's clock (~4 ms of CPU). The supervisor asks for it only while the
    node has idle cores: when CPU is short, latency hidden is CPU spent."""
    _reseed()
    if warm:
        _warm_up()
    # What every run needs and no request changes, made before the child says it is ready:
    # off the time between the code's arrival and its first line.
    out, err = _text_stream(1), _text_stream(2)
    saved_builtins = dict(builtins.__dict__)  # so that reporting survives `builtins.len = ...`
    home = os.getcwd()
    fds = _fd_identity()
    chan = socket.socket(fileno=chan_fd)
    wire.send_fds(chan, wire.HELLO, [pidfd])
    os.close(pidfd)
    data = _read_all(code_fd)
    os.close(code_fd)
    if not data:
        os._exit(0)  # the supervisor went away before giving us work
    request, codes, stdins = wire.decode_request(data)
    del data  # the programs' text, private setups included: out of every frame's reach
    setups, codes = _private_setups(codes)
    filename = str(request.get("filename") or "main.py")
    limits = request["limits"]
    capture = list(request.get("capture") or [])
    _apply_limits(limits, len(codes))
    status = 0
    for index, code in enumerate(codes):
        if index:
            try:
                go = chan.recv(1)
            except OSError:
                go = b""
            if go != wire.NEXT:
                os._exit(0)  # the supervisor stopped the grade here
            signal.signal(signal.SIGPROF, signal.SIG_DFL)
            signal.setitimer(signal.ITIMER_PROF, float(limits["cpu_s"]))
            with contextlib.suppress(OSError):
                os.chdir(home)
        status, kind, values, blobs = _run_case(
            code, filename, capture, out, err, saved_builtins, _take(setups, index),
            stdins[index],
        )  # fmt: skip
        last = index == len(codes) - 1
        fit = not last and kind == "exit" and _still_fit(fds)
        if not fit:
            # Close our ends of the streams first: the supervisor's "done" does not wait for
            # teardown. (The program may have closed them, or the channel, itself: it is judged
            # on its status.)
            for fd in (1, 2):
                with contextlib.suppress(OSError):
                    os.close(fd)
        status = status & 0xFF if isinstance(status, int) else 1
        header = {"status": status, "kind": kind, "values": values, "cpu_ms": _cpu_ms(),
                  "fit": fit}  # fmt: skip
        try:
            chan.sendall(wire.encode_done(header, blobs))
        except OSError:
            os._exit(status)
        if not fit:
            os._exit(status)
    os._exit(status)


def _take(items: list[Setup], index: int) -> Setup:
    """``items[index]``, no longer held by the list (nor by any name in the caller's frame)."""
    item, items[index] = items[index], None
    return item


def _private_setups(codes: list[str]) -> tuple[list[Setup], list[str]]:
    """Each program's private setup (see ``wire.PRIVATE_END``), compiled, and the programs
    without it. Only code objects are kept: the setups' text is gone once this returns. A setup
    that does not compile is left for its run to report (as a syntax error in ``<setup>``)."""
    setups: list[Setup] = []
    rest: list[str] = []
    while codes:
        code = codes.pop(0)
        if wire.PRIVATE_END not in code:
            setups.append(None)
            rest.append(code)
            continue
        setup, _, code = code.partition(wire.PRIVATE_END)
        try:
            setups.append(compile(setup, "<setup>", "exec", dont_inherit=True))
        except (SyntaxError, ValueError) as e:  # reported without the line's text
            setups.append(SyntaxError(f"the setup does not compile: {type(e).__name__}"))
        del setup
        rest.append(code)
    return setups, rest


def _run_case(
    code: str,
    filename: str,
    capture: list[str],
    out: io.TextIOWrapper,
    err: io.TextIOWrapper,
    saved_builtins: dict[str, object],
    setup: Setup = None,
    stdin: bytes | None = None,
) -> tuple[int, str, Values, list[bytes]]:
    """Run one program with fresh globals (after its private setup, if any, dropped as soon as
    it ran); its exit status, how it ended, and its values. ``stdin``: the case's standard
    input, what ``input()`` reads line by line (past its end, EOFError, as Python gives it at
    the end of a file); None: fd 0, which is empty."""
    sys.stdout, sys.stderr = out, err
    if stdin is None:
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    else:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="replace")
    sys.argv = [filename]
    namespace = {"__name__": "__main__", "__builtins__": builtins, "__file__": filename}
    status, kind = 0, "exit"
    try:
        if setup is not None:
            if isinstance(setup, Exception):
                raise setup
            try:
                exec(setup, namespace)
            finally:
                del setup  # its code object: no frame of the program below can reach it
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        exec(_compiled(code, filename), namespace)
    except SystemExit as e:
        status = _exit_status(e, err)
    except MemoryError as e:
        status, kind = 1, "memory"
        namespace.clear()
        err.write(_learner_traceback(e))
    except BaseException as e:
        status = 1
        err.write(_learner_traceback(e))
    threading = sys.modules.get("threading")
    if threading is not None and status == 0 and kind == "exit":
        # Like the end of a Python program: wait for the non-daemon threads it started (the wall
        # clock still bounds this).
        try:
            threading._shutdown()
        except BaseException as e:
            status = 1
            err.write(_learner_traceback(e))
    builtins.__dict__.clear()
    builtins.__dict__.update(saved_builtins)
    values: Values = []
    blobs: list[bytes] = []
    if kind != "memory":
        try:
            values, blobs = _capture(namespace, capture)
        except BaseException:
            values, blobs = [], []
    namespace.clear()
    for stream in {out, err, sys.stdout, sys.stderr}:
        with contextlib.suppress(BaseException):
            stream.flush()
    return status, kind, values, blobs


def _exit_status(exit: SystemExit, err: io.TextIOWrapper) -> int:
    """The status ``raise SystemExit(code)`` asks for, as Python's own exit gives it (None: 0;
    an int: it; text or anything else: 1, the text written to stderr). The program has ended:
    none of its code may run here, so its values are read with the C functions of ``int``,
    ``str`` and ``type``, never through their own methods (an int subclass may override
    ``__and__``, ``__eq__``, ``__index__``; a SystemExit subclass ``code`` itself)."""
    # the stored value, never a subclass's property
    code: object = SystemExit.__dict__["code"].__get__(exit, SystemExit)
    kind = type(code)
    if code is None:
        return 0
    if issubclass(kind, int):
        plain: int = int.__index__(code)  # type: ignore[arg-type]  # the int, not its __index__
        # past a C long Python exits with -1, as this does: 255 (2**100 & 0xFF would be 0: "ok")
        return (plain if -(2**63) <= plain < 2**63 else -1) & 0xFF
    if issubclass(kind, str):
        text: str = str.__str__(code)
    else:
        text = f"<{_type_name(kind)} object>"
    with contextlib.suppress(ValueError, OSError):  # the program may have closed its stderr
        err.write(text + "\n")
    return 1


def _type_name(kind: type) -> str:
    """A type's name from the type itself (a metaclass may make ``__name__`` anything)."""
    name = type.__dict__["__name__"].__get__(kind)
    return name if type(name) is str else "object"


def _fd_identity() -> list[tuple[int, int] | None]:
    """What fds 1, 2 and 4 (stdout, stderr, the channel) are, to notice a program replacing them."""
    found: list[tuple[int, int] | None] = []
    for fd in (1, 2, 4):
        try:
            st = os.fstat(fd)
            found.append((st.st_dev, st.st_ino))
        except OSError:
            found.append(None)
    return found


def _still_fit(fds: list[tuple[int, int] | None]) -> bool:
    """Whether the next case may run in this process: only the main thread left, the streams and
    the channel still the supervisor's."""
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False
    try:
        if len(os.listdir("/proc/self/task")) > 1:  # threads started below Python's threading
            return False
    except OSError:
        return False
    return _fd_identity() == fds


def _cpu_ms() -> int:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return int((usage.ru_utime + usage.ru_stime) * 1000)
