"""A grade's cases in one child (``Sandbox.run_cases``): each case a fresh program with its own
output, values and limits; the first failure found wherever it is; runaways stopped at their
limits; a child that dies mid-grade ends as sandbox-error. All through the real sandbox."""

from __future__ import annotations

import os
import signal
import threading

from codeblanks.sandbox import RunLimits, Sandbox
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.testing import PATIENCE_S, CountedCases

QUICK = RunLimits(wall_s=1.0, cpu_s=0.3)


def never(index, result):
    """Run every case, whatever happens."""
    return False


def pid_and(x: int, extra: str = "") -> str:
    return f"import os\nx = {x}\n{extra}\nprint('case', x, os.getpid())\n"


def test_each_case_is_a_fresh_program_in_one_child(sandbox):
    codes = [
        "import numpy as np, os\nz = 5\nx = np.arange(3)\nprint('one', os.getpid())",
        "import os\nx = globals().get('z', 'fresh')\nprint('two', os.getpid())",
        "import builtins, os\nbuiltins.len = None\nx = 3\nprint('three', os.getpid())",
        "import os\nx = len([1, 2])\nprint('four', os.getpid())",
    ]
    results = sandbox.run_cases(codes, limits=QUICK, capture=("x",))
    assert [r.verdict for r in results] == ["ok"] * 4
    assert list(results[0].values["x"]) == [0, 1, 2]
    assert results[1].values["x"] == '"fresh"'  # no globals of case 1 (JSON text)
    assert int(results[3].values["x"]) == 2  # builtins restored after case 3
    words = [r.stdout.split() for r in results]
    assert [w[0] for w in words] == ["one", "two", "three", "four"]  # each its own output
    assert len({w[1] for w in words}) == 1  # one process ran them all


def test_a_failure_on_case_two_only_is_found(sandbox):
    codes = [pid_and(1), pid_and(2, "raise ValueError('only here')"), pid_and(3), pid_and(4)]
    stopped = sandbox.run_cases(codes, limits=QUICK, capture=("x",))
    assert [r.verdict for r in stopped] == ["ok", "error"]  # stops at the first failure
    assert "ValueError: only here" in stopped[1].stderr and "line 3" in stopped[1].stderr
    assert stopped[0].stderr == "" and stopped[1].stdout == ""
    every = sandbox.run_cases(codes, limits=QUICK, capture=("x",), stop=never)
    assert [r.verdict for r in every] == ["ok", "error", "ok", "ok"]
    assert [r.stdout.split()[:2] for r in every if r.ok] == [["case", "1"], ["case", "3"],
                                                             ["case", "4"]]  # fmt: skip


def test_output_of_one_case_never_reaches_the_next(sandbox):
    big = "print('a' * 999)\n" * 60  # 60 KB, under the cap, more than a pipe holds
    results = sandbox.run_cases([big, "print('b')", big], limits=QUICK)
    assert [r.verdict for r in results] == ["ok"] * 3
    assert results[0].stdout == ("a" * 999 + "\n") * 60 == results[2].stdout
    assert results[1].stdout == "b\n"


def test_a_runaway_in_case_three_is_stopped_at_its_own_limit(sandbox):
    fine = "x = sum(range(1000))\n"
    # (A wall clock far above the CPU limit: the loop is stopped by its CPU timer, however
    # loaded the machine.)
    looped = sandbox.run_cases(
        [fine, fine, "while True:\n    pass\n", fine],
        limits=RunLimits(wall_s=20.0, cpu_s=0.3),
        stop=never,
    )
    assert [r.verdict for r in looped] == ["ok", "ok", "timeout", "ok"]
    assert "more than 0.3 s of CPU" in looped[2].stderr  # its own limit, not the grade's
    slept = sandbox.run_cases([fine, fine, "import time\ntime.sleep(30)\n"], limits=QUICK)
    assert [r.verdict for r in slept] == ["ok", "ok", "timeout"]
    assert "longer than 1 s" in slept[2].stderr


def test_a_program_ignoring_the_cpu_timer_is_stopped_by_the_grades_cpu_limit(sandbox):
    # SIGPROF ignored: RLIMIT_CPU bounds the whole child, every case together (4 x 0.3 s,
    # rounded up to 2 s, hard limit 3 s), never more than the cases' limits allow.
    code = "import signal\nsignal.signal(signal.SIGPROF, signal.SIG_IGN)\nwhile True:\n    pass\n"
    limits = RunLimits(wall_s=60.0, cpu_s=0.3)
    results = sandbox.run_cases(["x = 1", code, "x = 3", "x = 4"], limits=limits)
    assert [r.verdict for r in results] == ["ok", "timeout"]
    assert "CPU time" in results[1].stderr  # not the wall clock's 60 s
    assert results[1].signal in (signal.SIGXCPU, signal.SIGKILL)  # RLIMIT_CPU's, soft or hard


def test_an_output_flood_in_case_two_is_cut_there(sandbox):
    results = sandbox.run_cases(
        ["print('first')", "while True:\n    print('y' * 1000)\n", "print('third')"],
        limits=QUICK,
        stop=never,
    )
    assert [r.verdict for r in results] == ["ok", "output-limit", "ok"]
    assert results[0].stdout == "first\n" and results[2].stdout == "third\n"
    assert "output cut" in results[1].stdout


def test_a_child_unfit_for_more_cases_leaves_them_to_a_fresh_one(sandbox):
    thread = "import threading, time\nthreading.Thread(target=time.sleep, args=(2,), daemon=True)"
    thread += ".start()"
    exits = pid_and(2) + "import sys\nsys.stdout.flush()\nos._exit(0)\n"
    results = sandbox.run_cases(
        [pid_and(1, thread), exits, pid_and(3), pid_and(4)],
        limits=QUICK,
        capture=("x",),
    )
    assert [r.verdict for r in results] == ["ok"] * 4
    assert [r.stdout.split()[1] for r in results] == ["1", "2", "3", "4"]
    pids = [r.stdout.split()[2] for r in results]
    # A thread left running: case 2 in another child; that one ended itself: 3 and 4 in a third.
    assert pids[0] != pids[1] != pids[2] == pids[3]


def test_a_segfault_in_case_two_is_that_case_s_error(sandbox):
    crash = "import ctypes\nctypes.string_at(0)\n"
    results = sandbox.run_cases(["x = 1", crash, "print('three')"], limits=QUICK, stop=never)
    assert [r.verdict for r in results] == ["ok", "error", "ok"]
    assert "segmentation fault" in results[1].stderr and results[2].stdout == "three\n"


def test_a_child_dying_mid_grade_ends_as_sandbox_error():
    box = Sandbox(config=SandboxConfig(slots=2, spares=2))
    counted = CountedCases(box)
    try:
        assert box.run("print(1)").verdict == "ok"
        got = []
        job = threading.Thread(
            target=lambda: got.append(
                counted.run_cases(
                    ["print('one')", "import time\ntime.sleep(600)\n", "print('three')"],
                    limits=RunLimits(wall_s=900.0, cpu_s=1.0),
                    stop=never,
                )
            )
        )
        job.start()
        counted.wait_for_cases(1)  # case 1 has reported; case 2 is under way
        os.kill(box.zygote()[1], 9)  # every child of the sandbox dies with it
        job.join(timeout=PATIENCE_S)
        (results,) = got
        assert [r.verdict for r in results] == ["ok", "sandbox-error"]
        assert results[0].stdout == "one\n" and "restarted" in results[1].stderr
        box.zygote(after=1)  # and the sandbox heals
        assert box.run("print(2)").verdict == "ok"
    finally:
        box.close()


def test_values_are_decoded_without_building_a_syntax_tree(sandbox, monkeypatch):
    # CPython 3.11 counts the AST builder's recursion per interpreter: a tree built in a sandbox
    # thread while the grader parses a program in another failed either with "SystemError: AST
    # constructor recursion depth mismatch" (the crowd's HTTP 500s). NumPy's .npy reader builds
    # one (ast.literal_eval); ours reads the header without.
    import ast

    def refuse(*args, **kwargs):
        raise AssertionError("a syntax tree was built while decoding values")

    monkeypatch.setattr(ast, "parse", refuse)
    code = "import numpy as np\nA = np.arange(6.0).reshape(2, 3).T\nb = np.bool_(True)\nn = 7\n"
    result = sandbox.run(code, limits=QUICK, capture=("A", "b", "n"))
    assert result.ok and result.values["A"].tolist() == [[0, 3], [1, 4], [2, 5]]
    assert bool(result.values["b"]) is True and int(result.values["n"]) == 7
