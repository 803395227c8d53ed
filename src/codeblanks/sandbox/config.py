"""The sandbox's settings, read once from the environment.

| variable | default | meaning |
|---|---|---|
| ``CODEBLANKS_SANDBOX_SLOTS`` | number of cores | programs running at the same time |
| ``CODEBLANKS_SANDBOX_QUEUE`` | 8 x slots | programs that may wait for a slot; more: ``busy`` |
| ``CODEBLANKS_SANDBOX_SPARES`` | 2 x slots + 4 | pre-forked children kept ready |
| ``CODEBLANKS_SANDBOX_MODULES`` | ``numpy`` | comma-separated modules imported once in the zygote |
| ``CODEBLANKS_UNSAFE_NO_SANDBOX`` | unset | ``1``: NO isolation, for one user on loopback only |
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _int(name: str, default: int, minimum: int = 1) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return max(minimum, int(raw))
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None


@dataclass(frozen=True)
class SandboxConfig:
    slots: int = field(default_factory=lambda: os.cpu_count() or 1)
    queue: int | None = None
    spares: int | None = None
    modules: tuple[str, ...] = ("numpy",)
    unsafe: bool = False
    disk_kib: int = 32 * 1024  # size of each run's private tmpfs: caps disk filling

    @property
    def queue_size(self) -> int:
        return self.queue if self.queue is not None else 8 * self.slots

    @property
    def spare_count(self) -> int:
        return self.spares if self.spares is not None else 2 * self.slots + 4

    @classmethod
    def from_env(cls) -> SandboxConfig:
        slots = _int("CODEBLANKS_SANDBOX_SLOTS", os.cpu_count() or 1)
        raw_modules = os.environ.get("CODEBLANKS_SANDBOX_MODULES")
        modules = (
            tuple(m.strip() for m in raw_modules.split(",") if m.strip())
            if raw_modules is not None
            else ("numpy",)
        )
        return cls(
            slots=slots,
            queue=_int("CODEBLANKS_SANDBOX_QUEUE", 8 * slots, minimum=0),
            spares=_int("CODEBLANKS_SANDBOX_SPARES", 2 * slots + 4),
            modules=modules,
            unsafe=os.environ.get("CODEBLANKS_UNSAFE_NO_SANDBOX", "") == "1",
        )
