"""What a run is given (``RunLimits``, a ``RunRequest``), what it gives back (``RunResult``),
and the one seam every caller runs programs through (``Runner``: the real ``Sandbox``, or a test
double that implements the same Protocol).

A run's outcome is always a value, never an exception: a learner's mistake, a hostile program and
an overloaded server all end in a ``RunResult`` whose ``verdict`` says which.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

OK = "ok"
ERROR = "error"  # exception, non-zero exit, or killed by a signal
TIMEOUT = "timeout"  # wall or CPU time limit
MEMORY_LIMIT = "memory-limit"
OUTPUT_LIMIT = "output-limit"
BUSY = "busy"  # the queue is full: try again
SANDBOX_ERROR = "sandbox-error"  # the platform failed (e.g. the fork-server died); not the learner

VERDICTS = (OK, ERROR, TIMEOUT, MEMORY_LIMIT, OUTPUT_LIMIT, BUSY, SANDBOX_ERROR)


@dataclass(frozen=True)
class RunLimits:
    """Limits of one run. Defaults suit NumPy lessons; lessons may override some."""

    # A lesson's program needs milliseconds of CPU: 2 s is a hundred times the slowest we ship,
    # and every runaway loop costs the node exactly this much. The wall clock, twice that,
    # leaves room for sharing the cores with other runs. Lessons may ask for less (or more).
    wall_s: float = 4.0
    cpu_s: float = 2.0
    memory_mb: int = 768
    output_bytes: int = 64 * 1024  # kept per stream; the rest is cut with a marker
    file_size_mb: int = 8
    open_files: int = 64
    threads: int = 4


@dataclass(frozen=True)
class RunResult:
    verdict: str
    stdout: str = ""
    stderr: str = ""
    exit_code: int | None = None
    signal: int | None = None
    duration_ms: float = 0.0
    # Variables asked for with ``capture=``, read after the program ended: a NumPy array for
    # numbers and booleans (decoded without pickle), else the value as lessontest's JSON text (a
    # str; grading/pyvalues reads it as data).
    values: dict[str, Any] = field(default_factory=dict)
    # The CPU the child used (ms), on the last outcome of each child (a grade's cases share
    # one): what the web's rate limit charges. 0 where nothing measured it.
    cpu_ms: float = 0.0

    @property
    def ok(self) -> bool:
        return self.verdict == OK

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "exit_code": self.exit_code,
            "signal": self.signal,
            "duration_ms": round(self.duration_ms, 3),
        }


Stop = Callable[[int, RunResult], bool]  # asked after case ``index``: end the batch here?


@dataclass(frozen=True)
class RunRequest:
    """One batch for one child: ``codes`` (a grade's cases, the same program on other data) run
    in order with fresh globals, each under ``limits``, until ``stop`` says so (None: the
    sandbox's default, at the first case that did not end normally). ``client`` is whom the
    fair share counts it to. ``stdins``: each case's standard input, in the order of ``codes``
    (what ``input()`` reads; none or fewer: the rest read an empty one)."""

    codes: tuple[str, ...]
    filename: str = "main.py"
    limits: RunLimits = field(default_factory=RunLimits)
    capture: tuple[str, ...] = ()
    client: str | None = None
    stop: Stop | None = None
    stdins: tuple[str, ...] = ()


class Runner(Protocol):
    """What grading and learning need of a sandbox. ``slots``: how many runs it serves at once;
    ``arun_cases``: one ``RunResult`` per case run, in order, at least one, never raising for
    anything a program does (``busy``/``sandbox-error`` are verdicts too)."""

    @property
    def slots(self) -> int: ...

    async def arun_cases(self, request: RunRequest) -> list[RunResult]: ...
