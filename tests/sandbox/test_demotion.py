"""Short jobs first: a program that has used more than its slice of CPU is demoted to
SCHED_IDLE by the supervisor; a short one never is; a demoted one cannot undo it. The programs
look at their own policy, so nothing here depends on the machine's speed."""

from __future__ import annotations

import os

import pytest

from codeblanks.sandbox import RunLimits

# Generous: the loop ends as soon as the demotion is seen, long before these.
LONG = RunLimits(wall_s=60.0, cpu_s=30.0)

SPIN_UNTIL_DEMOTED = """\
import os
while os.sched_getscheduler(0) != os.SCHED_IDLE:
    pass
print("demoted")
try:
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    print("undone")
except PermissionError:
    print("stays demoted")
"""


def test_a_runaway_is_demoted_after_its_slice_and_cannot_undo_it(run):
    result = run(SPIN_UNTIL_DEMOTED, limits=LONG)
    assert result.verdict == "ok", result
    assert result.stdout == "demoted\nstays demoted\n"


def test_a_thread_started_before_the_slice_is_demoted_too(run):
    code = """\
import os, threading
seen = threading.Event()
def spin():
    while os.sched_getscheduler(0) != os.SCHED_IDLE:
        pass
    seen.set()
worker = threading.Thread(target=spin)
worker.start()
seen.wait()
worker.join()
print("worker demoted", os.sched_getscheduler(0) == os.SCHED_IDLE)
"""
    result = run(code, limits=LONG)
    assert result.verdict == "ok", result
    assert result.stdout == "worker demoted True\n"


def test_a_short_program_is_never_demoted(run):
    code = "import os, numpy as np\nprint(int(np.sum(np.arange(10))), os.sched_getscheduler(0))\n"
    for _ in range(5):
        result = run(code)
        assert result.verdict == "ok", result
        assert result.stdout == f"45 {__import__('os').SCHED_OTHER}\n"


def test_a_demoted_run_is_given_more_wall_time_not_told_it_ran_out(run):
    """A demoted run waits whenever a shorter one wants the cores, so its wall limit stretches
    (demotion.DEMOTED_WALL); its CPU limit still holds. Here the waiting is a sleep after the
    demotion, past the plain wall limit and well within the stretched one."""
    code = SPIN_UNTIL_DEMOTED.replace(
        'print("demoted")', 'import time\ntime.sleep(3)\nprint("demoted")'
    )
    result = run(code, limits=RunLimits(wall_s=2.0, cpu_s=30.0))
    assert result.verdict == "ok", result
    assert result.stdout == "demoted\nstays demoted\n"


def test_a_run_never_demoted_keeps_its_wall_limit(run):
    result = run("import time\ntime.sleep(3)\nprint('woke')\n", limits=RunLimits(wall_s=2.0))
    assert result.verdict == "timeout", result


# A real-time hog on one core: it holds the core 0.3 s at a time, then lets go for 20 ms, so
# that a program waiting there runs a little and the kernel adds each finished wait to its
# run-queue delay (a wait still going on is not counted until the program next runs). The
# pulses, not the kernel's RT throttling (50 ms in each second, at a phase the test cannot
# choose), decide when the program runs.
HOG = """\
import os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
print("hogging", flush=True)
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    while time.process_time() - start < 0.3:
        pass
    time.sleep(0.02)
"""

# 80 ms of CPU: four of the hog's 20 ms gaps at least, so about a second at least.
BRIEF = """\
import time
start = time.process_time()
while time.process_time() - start < 0.08:
    pass
print("done")
"""


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(child) for child in f.read().split()]
    return found


def test_time_spent_waiting_for_a_core_is_given_back_not_counted_against_the_program():
    """A program that needs 80 ms of CPU but waits, runnable, for a core that another process
    holds most of the time (a real-time hog pinned to the one core the program may use, five
    pulses of 0.3 s) ends ``ok`` under its 0.6 s wall limit: the wait is the node's load, not
    the program's doing (demotion.waited_ms). Never demoted here (slice 0), so no other
    stretch applies.

    It takes about 1–1.7 s whatever the timing (at least three of the hog's 0.32 s cycles):
    more than its wall limit, less than the 2.4 s that the time given back is capped at
    (``DEMOTED_WALL`` times the wall limit). A 50 ms program
    behind a steady hog once finished in 0.62 s, inside one window of RT throttling."""
    import subprocess
    import sys

    from codeblanks.sandbox import Sandbox
    from codeblanks.sandbox.config import SandboxConfig
    from codeblanks.sandbox.testing import wait_until

    box = Sandbox(config=SandboxConfig(slots=1, spares=1, slice_ms=0))
    hog = None
    try:
        assert box.run("print(1)").stdout == "1\n"
        _, zygote = box.zygote()
        wait_until(lambda: box.spares_ready() == 1 and len(_children(zygote)) == 1, "one spare")
        core = max(os.sched_getaffinity(0))
        (spare,) = _children(zygote)
        os.sched_setaffinity(spare, {core})
        hog = subprocess.Popen(
            [sys.executable, "-c", HOG, str(core), "5"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        if hog.stdout.readline() != "hogging\n":
            hog.wait()
            pytest.skip(f"no real-time scheduling here for the hog: {hog.stderr.read()[-200:]}")
        result = box.run(BRIEF, limits=RunLimits(wall_s=0.6, cpu_s=2.0))
        assert result.verdict == "ok", result
        assert result.stdout == "done\n" and result.duration_ms > 600  # past its wall limit
    finally:
        if hog is not None:
            hog.kill()
            hog.communicate()
        box.close()
