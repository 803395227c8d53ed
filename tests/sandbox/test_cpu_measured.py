"""Each child's CPU comes back on its last outcome (``RunResult.cpu_ms``), measured by the host
(/proc, or the zygote's rusage when it has gone), never by what the program reports: the web's
rate limit charges it. Through the real sandbox."""

from __future__ import annotations

from codeblanks.sandbox import RunLimits
from codeblanks.sandbox.service import cpu_tally

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}:\n    pass\n"
QUICK = RunLimits(wall_s=2.0, cpu_s=0.3)
ROOMY = RunLimits(wall_s=20.0, cpu_s=2.0)  # a busy machine must not turn the burn into a timeout


def test_a_program_that_burns_cpu_is_measured_so(sandbox):
    idle = sandbox.run("print(1)", limits=ROOMY)
    burnt = sandbox.run(BURN.format(s=0.2), limits=ROOMY)
    assert idle.ok and burnt.ok, (idle, burnt)
    assert burnt.cpu_ms >= 150 and idle.cpu_ms < burnt.cpu_ms - 100  # ticks: ~10 ms


def test_a_runaway_stopped_at_its_limit_is_charged_the_limit(sandbox):
    stopped = sandbox.run("while True:\n    pass\n", limits=QUICK)
    assert stopped.verdict == "timeout" and stopped.cpu_ms >= 200  # about its 0.3 s


def test_a_grades_cases_share_one_child_and_one_figure(sandbox):
    codes = [BURN.format(s=0.05), BURN.format(s=0.05), BURN.format(s=0.05)]
    with cpu_tally() as used:
        results = sandbox.run_cases(codes, stop=lambda i, r: False)
    assert [r.verdict for r in results] == ["ok"] * 3
    assert results[0].cpu_ms == results[1].cpu_ms == 0 and results[2].cpu_ms >= 100
    assert len(used) == 3 and sum(used) == results[2].cpu_ms / 1000


def test_every_thread_of_the_program_is_counted(sandbox):
    spin = (
        "def spin():\n    t = time.thread_time()\n"
        "    while time.thread_time() - t < 0.1:\n        pass\n"
    )
    code = (
        "import threading, time\n"
        + spin
        + (
            "ts = [threading.Thread(target=spin) for _ in range(2)]\n"
            "[t.start() for t in ts]\n[t.join() for t in ts]\n"
        )
    )
    ran = sandbox.run(code)
    assert ran.ok, ran.stderr
    assert ran.cpu_ms >= 150  # two threads of 0.1 s each


def test_a_child_reaped_before_its_cpu_was_read_is_charged_what_the_zygote_says():
    """The race seen under load: the child exits right after its last report and the zygote
    reaps it before the supervisor reads /proc; the result then waits for the zygote's word
    instead of charging nothing."""
    import socket
    import threading

    from codeblanks.sandbox.execute import _with_cpu
    from codeblanks.sandbox.result import OK, RunResult
    from codeblanks.sandbox.spare import Spare

    a, b = socket.socketpair()
    spare = Spare("c1", 1, 0, -1, -1, -1, a, pid=4_000_000)  # gone from /proc: never read there

    def reaped() -> None:
        spare.wait_status, spare.cpu_ms = 0, 230
        spare.exited.set()

    threading.Timer(0.05, reaped).start()
    (result,) = _with_cpu([RunResult(OK)], spare, None)
    a.close()
    b.close()
    assert result.cpu_ms == 230
