"""TEMPORARY placeholder with the final interface; the fork-server replaces its insides.

It runs each program in a fresh, unisolated interpreter. Never use it on a server.
"""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

import numpy as np

from codeblanks.sandbox.result import (
    ERROR,
    OK,
    OUTPUT_LIMIT,
    TIMEOUT,
    RunLimits,
    RunResult,
)

_RUNNER = r"""
import io, os, sys, numpy as np
code_path, filename, names = sys.argv[1], sys.argv[2], sys.argv[3:]
src = open(code_path).read()
g = {"__name__": "__main__", "__file__": filename}
status = 0
try:
    exec(compile(src, filename, "exec"), g)
except SystemExit as e:
    status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
except BaseException:
    import traceback
    tb = traceback.format_exc()
    sys.stderr.write(tb)
    status = 1
sys.stdout.flush()
out = {}
for n in names:
    if n in g:
        v = g[n]
        try:
            a = np.asarray(v)
            if a.dtype.kind in "biufc":
                buf = io.BytesIO(); np.save(buf, a, allow_pickle=False)
                out[n] = ("npy", buf.getvalue().hex())
                continue
        except Exception:
            pass
        out[n] = ("repr", repr(v))
with open(code_path + ".values", "w") as f:
    f.write(repr(out))
sys.exit(status)
"""


class SandboxUnavailable(RuntimeError):
    """This machine cannot isolate programs; the message says why and what to do."""


class Sandbox:
    def __init__(self, slots: int | None = None) -> None:
        self.slots = slots or os.cpu_count() or 1

    def run(
        self,
        code: str,
        *,
        filename: str = "main.py",
        limits: RunLimits | None = None,
        capture: Sequence[str] = (),
    ) -> RunResult:
        limits = limits or RunLimits()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "code.py")
            with open(path, "w") as f:
                f.write(code)
            start = time.perf_counter()
            try:
                proc = subprocess.run(
                    [sys.executable, "-c", _RUNNER, path, filename, *capture],
                    capture_output=True,
                    timeout=limits.wall_s,
                    cwd=tmp,
                    stdin=subprocess.DEVNULL,
                )
            except subprocess.TimeoutExpired:
                return RunResult(TIMEOUT, duration_ms=(time.perf_counter() - start) * 1000)
            ms = (time.perf_counter() - start) * 1000
            values = {}
            try:
                import ast

                raw = ast.literal_eval(open(path + ".values").read())
                for name, (kind, data) in raw.items():
                    if kind == "npy":
                        values[name] = np.load(io.BytesIO(bytes.fromhex(data)), allow_pickle=False)
                    else:
                        values[name] = data
            except OSError:
                pass
        out, err = proc.stdout, proc.stderr
        verdict = OK if proc.returncode == 0 else ERROR
        if len(out) > limits.output_bytes or len(err) > limits.output_bytes:
            verdict = OUTPUT_LIMIT
        return RunResult(
            verdict,
            stdout=out[: limits.output_bytes].decode(errors="replace"),
            stderr=err[: limits.output_bytes].decode(errors="replace"),
            exit_code=proc.returncode,
            duration_ms=ms,
            values=values,
        )

    async def arun(self, code: str, **kwargs) -> RunResult:
        return await asyncio.to_thread(self.run, code, **kwargs)

    def close(self) -> None:
        pass


_shared: Sandbox | None = None


def get_sandbox() -> Sandbox:
    """The process-wide sandbox, started on first use."""
    global _shared
    if _shared is None:
        _shared = Sandbox()
    return _shared
