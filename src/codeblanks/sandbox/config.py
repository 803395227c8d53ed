"""The sandbox's settings, read once from the environment (docs/settings.md, docs/sandbox.md).

| variable | default | meaning |
|---|---|---|
| ``CODEBLANKS_SANDBOX_SLOTS`` | 8 x cores | programs running at the same time (sharing the cores) |
| ``CODEBLANKS_SANDBOX_PER_CLIENT`` | 4 | of those, how many one client may hold |
| ``CODEBLANKS_SANDBOX_FRESH_RUNS`` | 0 | of those, how many still fresh at once; 0: any |
| ``CODEBLANKS_SANDBOX_QUEUE`` | 512 x cores | programs that may wait for a slot; more: ``busy`` |
| ``CODEBLANKS_SANDBOX_CLIENT_QUEUE`` | 16 | programs one client may have waiting; more: ``busy`` |
| ``CODEBLANKS_SANDBOX_WAIT_S`` | 10 | longest wait for a slot before ``busy`` |
| ``CODEBLANKS_SANDBOX_SPARES`` | 2 x cores + 4 | pre-forked children kept ready |
| ``CODEBLANKS_SANDBOX_MEMORY_MB`` | half the RAM | memory of the whole sandbox tree (cgroup) |
| ``CODEBLANKS_SANDBOX_MODULES`` | ``numpy,lessontest`` | modules imported once in the zygote |
| ``CODEBLANKS_SANDBOX_FRESH_WEIGHT`` | 100 | cpu weight (v2 units) of the runs within their slice |
| ``CODEBLANKS_SANDBOX_DEMOTED_WEIGHT`` | 0 | cpu weight of demoted runs; 0: SCHED_IDLE alone |
| ``CODEBLANKS_UNSAFE_NO_SANDBOX`` | unset | ``1``: NO isolation, for one user on loopback only |
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field


@functools.cache
def _cores() -> int:
    """The machine's cores, read once: glibc reads /sys for each call (~50 µs), and the pool
    and the scheduler ask on every run."""
    return os.cpu_count() or 1


UNSAFE_ENV = "CODEBLANKS_UNSAFE_NO_SANDBOX"


def unsafe_no_sandbox() -> bool:
    """Whether isolation is turned off (``CODEBLANKS_UNSAFE_NO_SANDBOX=1``): the one place it
    is read, by the sandbox and by the CLI alike, so they never disagree on what turns it off."""
    return os.environ.get(UNSAFE_ENV, "") == "1"


def _ram_mb() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (ValueError, OSError):
        return 4096


def _int(name: str, default: int, minimum: int = 1) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return max(minimum, int(raw))
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not value > 0:
        raise ValueError(f"{name} must be more than 0 seconds, not {raw!r}")
    return value


# Imported once in the zygote, so no run pays for them: NumPy, and the lessons' function-test
# helper (inside/lessontest.py, which would otherwise be compiled on every function grade).
DEFAULT_MODULES = ("numpy", "lessontest")


@dataclass(frozen=True)
class SandboxConfig:
    slots: int = field(default_factory=lambda: 8 * _cores())
    queue: int | None = None
    spares: int | None = None
    modules: tuple[str, ...] = DEFAULT_MODULES
    unsafe: bool = False
    disk_kib: int = 32 * 1024  # size of each run's private tmpfs: caps disk filling
    per_client: int = 4  # one grade (the visible case and three variants) at once
    client_queue: int = 16
    wait_s: float = 10.0
    memory_mb: int | None = None  # the whole tree; None: half the RAM
    # CPU (ms, the child's in all: set-up included) after which a run yields to every run that
    # has used less: SCHED_IDLE (demotion.py). 0: never demoted.
    slice_ms: int = 50
    # The trusted warm-up in each spare: "auto" (the default) while three quarters of the
    # machine sat idle in the last quarter second (idle.py), "always", or "never"
    # (spare_pool._warm_up_now; docs/sandbox.md: it costs each child 2-3 ms of CPU and spares
    # each run 1-2 ms of latency).
    warm_up: str = "auto"
    cgroups: bool = True  # False: rlimits only, even where cgroup v1 controllers exist
    # cpu weights in cgroup v2 units (1-10000; the web process has 100): the tree's cpu group,
    # where fresh runs compute, and the sibling group demoted runs are moved to (cgroups.py).
    # demoted_weight 0 (the default): no such group, demotion is SCHED_IDLE alone. 1 is what a
    # node with its machine to itself wants; beside a constant foreign load a demoted run then
    # starves (docs/sandbox.md, "Short jobs first").
    # Runs at once still within their CPU slice and young (scheduler.py): when they pile up the
    # cores are contended, and the next wait in the fair queue. 0 (the default): slots alone
    # bound; a cap held a fresh place through the web process's own delays and, on a machine
    # loaded by others, turned them into ``busy`` (docs/changelog.md, 2026-12-06).
    fresh_runs: int = 0
    fresh_weight: int = 100
    demoted_weight: int = 0

    @property
    def cores(self) -> int:
        return _cores()

    @property
    def queue_size(self) -> int:
        return self.queue if self.queue is not None else 512 * self.cores

    @property
    def spare_count(self) -> int:
        return self.spares if self.spares is not None else 2 * self.cores + 4

    @property
    def tree_memory_mb(self) -> int:
        return self.memory_mb if self.memory_mb is not None else _ram_mb() // 2

    @classmethod
    def from_env(cls) -> SandboxConfig:
        raw_modules = os.environ.get("CODEBLANKS_SANDBOX_MODULES")
        modules = (
            tuple(m.strip() for m in raw_modules.split(",") if m.strip())
            if raw_modules is not None
            else DEFAULT_MODULES
        )
        memory = os.environ.get("CODEBLANKS_SANDBOX_MEMORY_MB", "").strip()
        return cls(
            slots=_int("CODEBLANKS_SANDBOX_SLOTS", 8 * _cores()),
            queue=_int("CODEBLANKS_SANDBOX_QUEUE", 512 * _cores(), minimum=0),
            spares=_int("CODEBLANKS_SANDBOX_SPARES", 2 * _cores() + 4),
            modules=modules,
            unsafe=unsafe_no_sandbox(),
            per_client=_int("CODEBLANKS_SANDBOX_PER_CLIENT", 4),
            client_queue=_int("CODEBLANKS_SANDBOX_CLIENT_QUEUE", 16, minimum=0),
            wait_s=_float("CODEBLANKS_SANDBOX_WAIT_S", 10.0),
            slice_ms=_int("CODEBLANKS_SANDBOX_SLICE_MS", 50, minimum=0),
            warm_up=os.environ.get("CODEBLANKS_SANDBOX_WARM_UP", "auto").strip() or "auto",
            memory_mb=_int("CODEBLANKS_SANDBOX_MEMORY_MB", 0, minimum=64) if memory else None,
            fresh_runs=_int("CODEBLANKS_SANDBOX_FRESH_RUNS", 0, minimum=0),
            fresh_weight=min(10000, _int("CODEBLANKS_SANDBOX_FRESH_WEIGHT", 100)),
            demoted_weight=min(10000, _int("CODEBLANKS_SANDBOX_DEMOTED_WEIGHT", 0, minimum=0)),
        )
