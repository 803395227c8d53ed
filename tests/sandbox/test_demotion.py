"""Short jobs first: a program that has used more than its slice of CPU is demoted to
SCHED_IDLE by the supervisor; a short one never is; a demoted one cannot undo it. The programs
look at their own policy, so nothing here depends on the machine's speed."""

from __future__ import annotations

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
