"""Memory is bounded for real: pages a run holds outside its address space (memfds, files in its
tmpfs) count against its limit, and the whole sandbox tree has a cap of its own."""

from __future__ import annotations

import dataclasses
import os
import threading

import pytest

from codeblanks.sandbox import RunLimits, Sandbox
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.testing import PATIENCE_S, wait_until

LIMITS = RunLimits(wall_s=10, cpu_s=10, memory_mb=256)

MEMFD_HOARD = """
import os, numpy as np
fds = []
for i in range(56):
    fd = os.memfd_create(f"hoard{i}")
    os.write(fd, b"x" * (8 << 20))
    fds.append(fd)
print("kept", len(fds) * 8, "MiB")
"""

TMPFS_HOARD = """
import numpy as np
a = np.ones((236 << 20) // 8)          # 236 MiB of heap: under the limit alone
for i in range(4):                     # and 28 MiB of files in the run's own tmpfs
    with open(f"/tmp/f{i}", "wb") as f:
        f.write(b"y" * (7 << 20))
print("kept")
"""


def _cgroups_or_skip(sandbox):
    if sandbox.cgroups is None:
        pytest.skip("no cgroup v1 memory controller on this machine")


def test_a_memfd_hoard_ends_as_memory_limit(run, sandbox):
    _cgroups_or_skip(sandbox)
    r = run(MEMFD_HOARD, limits=LIMITS)
    assert r.verdict == "memory-limit" and "256 MiB" in r.stderr, r
    assert "kept" not in r.stdout


def test_files_in_the_runs_tmpfs_count_as_its_memory(run, sandbox):
    _cgroups_or_skip(sandbox)
    r = run(TMPFS_HOARD, limits=LIMITS)
    assert r.verdict == "memory-limit", r
    # The same program with room for both is fine: it is the sum that was stopped.
    r = run(TMPFS_HOARD, limits=RunLimits(wall_s=10, cpu_s=10, memory_mb=400))
    assert (r.verdict, r.stdout) == ("ok", "kept\n"), r


def test_each_run_has_its_own_memory_group_and_the_tree_a_cap(sandbox):
    _cgroups_or_skip(sandbox)
    trees = sandbox.cgroups.trees
    with open(os.path.join(trees["memory"], "memory.limit_in_bytes")) as f:
        assert int(f.read()) == sandbox.config.tree_memory_mb << 20
    r = sandbox.run("print(open('/proc/self/cgroup').read())")
    memory = [line for line in r.stdout.splitlines() if ":memory:" in line]
    assert memory and memory[0].split(":")[2].startswith("/u"), r.stdout  # its own group


def test_many_runs_together_cannot_pass_the_trees_cap():
    """Three runs of 200 MiB each, each under its own limit, against a 400 MiB tree: the tree
    holds, at least one run ends as memory-limit, the others hold on until the test ends them,
    and the sandbox carries on."""
    box = Sandbox(config=SandboxConfig(slots=3, spares=3, memory_mb=400))
    if box.cgroups is None:
        box.close()
        pytest.skip("no cgroup v1 memory controller on this machine")
    # Each holds its memory until the zygote is killed: they overlap however slow the machine.
    hold = "import numpy as np, time\na = np.ones((200 << 20) // 8)\ntime.sleep(600)\nprint('ok')"
    patient = dataclasses.replace(LIMITS, wall_s=900.0)
    results = []
    try:
        threads = [
            threading.Thread(target=lambda: results.append(box.run(hold, limits=patient)))
            for _ in range(3)
        ]
        for t in threads:
            t.start()
        wait_until(lambda: results, "the tree's cap stops one run")
        first = list(results)
        os.kill(box.zygote()[1], 9)  # the others were still holding theirs
        for t in threads:
            t.join(timeout=PATIENCE_S)
        box.zygote(after=1)
        after = box.run("print(6 * 7)")
    finally:
        box.close()
    # The cap may stop one holder or several at once (the kernel picks): never none.
    assert first and all(r.verdict == "memory-limit" for r in first), first
    verdicts = sorted(r.verdict for r in results)
    assert len(verdicts) == 3 and set(verdicts) <= {"memory-limit", "sandbox-error"}, results
    assert (after.verdict, after.stdout) == ("ok", "42\n")


def test_without_cgroups_memfds_are_refused_and_said_so(caplog):
    with caplog.at_level("WARNING", logger="codeblanks.sandbox"):
        box = Sandbox(config=SandboxConfig(slots=1, spares=1, cgroups=False))
    try:
        r = box.run("import os\nos.memfd_create('x')\n", limits=LIMITS)
    finally:
        box.close()
    assert r.verdict == "error" and "PermissionError" in r.stderr, r
