"""Short jobs first by cpu weights: a fresh run computes in the tree's cpu group, a run demoted
past its slice is moved to the low-weight sibling group, and the weights are the settings'.
Where the groups cannot be made (here: switched off by the settings) demotion is SCHED_IDLE
alone, as before. The real sandbox throughout; the programs and the test wait for what they
look for, never for a time."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from codeblanks.sandbox import RunLimits, Sandbox
from codeblanks.sandbox.cgroups import shares
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.testing import wait_until

LONG = RunLimits(wall_s=60.0, cpu_s=30.0)

CPU_GROUP = """\
def cpu_group():
    for line in open("/proc/self/cgroup"):
        _, names, path = line.rstrip("\\n").split(":", 2)
        if "cpu" in names.split(","):
            return path
"""

# Spins until the kernel says it is in another cpu group, then waits to be looked at.
SPIN_UNTIL_MOVED = (
    CPU_GROUP
    + """\
import os, time
first = cpu_group()
print("fresh", first, flush=True)
while cpu_group() == first:
    pass
print("moved", cpu_group(), os.sched_getscheduler(0) == os.SCHED_IDLE, flush=True)
time.sleep(60)
"""
)


def _has_cpu_controller() -> bool:
    return os.path.exists("/sys/fs/cgroup/cpu/cgroup.procs")


@pytest.fixture(scope="module")
def weighed():
    if not _has_cpu_controller():
        pytest.skip("no cgroup v1 cpu controller here: the fallback is tested below")
    box = Sandbox(config=SandboxConfig(slots=2, spares=2, fresh_weight=300, demoted_weight=2))
    yield box
    box.close()


def _procs(group: str) -> list[int]:
    with open(os.path.join(group, "cgroup.procs")) as f:
        return [int(pid) for pid in f.read().split()]


def _cpu_path(pid: int) -> str:
    """The cpu group of ``pid`` as the host's kernel gives it (/proc/<pid>/cgroup)."""
    with open(f"/proc/{pid}/cgroup") as f:
        for line in f:
            _, names, path = line.rstrip("\n").split(":", 2)
            if "cpu" in names.split(","):
                return path
    raise AssertionError(f"no cpu line in /proc/{pid}/cgroup")


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def _read(group: str, name: str) -> str:
    with open(os.path.join(group, name)) as f:
        return f.read().strip()


def test_the_groups_have_the_weights_the_settings_give(weighed):
    cpu = weighed.cgroups.cpu
    assert cpu is not None
    assert _read(cpu.fresh, "cpu.shares") == str(shares(300)) == "3072"
    assert _read(cpu.demoted, "cpu.shares") == str(shares(2)) == "20"
    # Siblings: the demoted group's weight holds against the web process, not inside the tree.
    assert os.path.dirname(cpu.demoted) == os.path.dirname(cpu.fresh)
    assert cpu.demoted == cpu.fresh + "-demoted"


def test_a_fresh_run_is_in_the_fresh_group_and_a_demoted_one_moves_to_the_low_weight_one(
    weighed,
):
    cpu = weighed.cgroups.cpu
    root = "/sys/fs/cgroup/cpu"
    outcome: list = []
    runner = threading.Thread(
        target=lambda: outcome.append(weighed.run(SPIN_UNTIL_MOVED, limits=LONG)), daemon=True
    )
    runner.start()
    try:
        wait_until(lambda: _procs(cpu.demoted), "a process in the demoted group")
        (pid,) = _procs(cpu.demoted)
        assert root + _cpu_path(pid) == cpu.demoted
        assert os.sched_getscheduler(pid) == os.SCHED_IDLE
        # Asleep: it has seen the move itself and said so (it only sleeps after printing).
        wait_until(lambda: _state(pid) == "S", "the demoted program asleep after its report")
        # The spares still waiting for a program stay in the fresh group.
        assert all(root + _cpu_path(p) == cpu.fresh for p in _procs(cpu.fresh))
    finally:
        for pid in _procs(cpu.demoted):
            os.kill(pid, signal.SIGKILL)
        runner.join()
    (result,) = outcome
    lines = result.stdout.splitlines()
    # Inside its cgroup namespace the tree is "/": the run began there, in the fresh group.
    assert lines[0] == "fresh /", result
    assert lines[1].startswith("moved /../") and lines[1].endswith("-demoted True"), result


def test_a_short_run_stays_in_the_fresh_group(weighed):
    code = CPU_GROUP + "import os\nprint(cpu_group(), os.sched_getscheduler(0))\n"
    for _ in range(3):
        result = weighed.run(code)
        assert (result.verdict, result.stdout) == ("ok", f"/ {os.SCHED_OTHER}\n"), result


@pytest.mark.parametrize(
    "settings", [{"demoted_weight": 0}, {"cgroups": False}], ids=["weight-0", "no-cgroups"]
)
def test_without_the_demoted_group_demotion_is_sched_idle_alone(settings):
    """The settings stand for a machine without the cpu controller (or without cgroups): no
    demoted group is made, and a runaway still turns SCHED_IDLE where it is."""
    box = Sandbox(config=SandboxConfig(slots=1, spares=1, **settings))
    try:
        assert box.cgroups is None or box.cgroups.cpu is None
        assert box.demotion == "SCHED_IDLE"
        code = (
            CPU_GROUP
            + """\
import os
first = cpu_group()
while os.sched_getscheduler(0) != os.SCHED_IDLE:
    pass
print(first == cpu_group())
"""
        )
        result = box.run(code, limits=LONG)
    finally:
        box.close()
    assert (result.verdict, result.stdout) == ("ok", "True\n"), result


def test_with_the_groups_the_sandbox_says_so(weighed):
    assert weighed.demotion == "cpu weights 300/2 and SCHED_IDLE"
