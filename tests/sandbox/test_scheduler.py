"""Fair shares: the scheduler's rules on their own, then one client against another on the real
sandbox (a client that floods it with sleeping programs cannot starve a quiet one)."""

from __future__ import annotations

import asyncio
import os
import signal

from codeblanks.sandbox import RunLimits, Sandbox
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.scheduler import Scheduler
from codeblanks.sandbox.testing import PATIENCE_S


class Log:
    def __init__(self):
        self.order = []

    def __call__(self, name):
        return lambda ticket: self.order.append(name)


def test_waiting_work_is_served_round_robin_between_clients():
    s = Scheduler(slots=1, per_client=1, queue=100, client_queue=100)
    log = Log()
    first = s.submit("a", log("a0"))
    tickets = {"a0": first}
    for name in ("a1", "a2", "a3"):
        tickets[name] = s.submit("a", log(name))
    for name in ("b0", "b1"):
        tickets[name] = s.submit("b", log(name))
    tickets["c0"] = s.submit("c", log("c0"))
    assert log.order == ["a0"]
    for _ in range(7):
        s.finish(tickets[log.order[-1]])
    # b and c came after a's four, yet a's later runs wait behind them.
    assert log.order == ["a0", "a1", "b0", "c0", "a2", "b1", "a3"]
    assert (s.running, s.waiting, s.clients()) == (0, 0, 0)


def test_one_client_holds_at_most_its_share_of_the_slots():
    s = Scheduler(slots=8, per_client=2, queue=100, client_queue=100)
    log = Log()
    hog = [s.submit("hog", log("hog")) for _ in range(6)]
    assert log.order == ["hog", "hog"] and s.running == 2 and s.waiting == 4
    quiet = s.submit("quiet", log("quiet"))
    assert log.order[-1] == "quiet" and quiet.granted  # at once: free slots remain
    s.finish(hog[0])
    assert log.order.count("hog") == 3 and s.running == 3


def test_bounded_queues_answer_busy_only_past_them():
    s = Scheduler(slots=1, per_client=1, queue=3, client_queue=2)
    log = Log()
    assert s.submit("a", log("a")).granted
    assert s.submit("a", log("a")) and s.submit("a", log("a"))
    assert s.submit("a", log("a")) is None  # a's own queue is full...
    assert s.submit("b", log("b")) is not None  # ...others may still wait
    assert s.submit("c", log("c")) is None  # the node's queue is full
    assert s.submit(None, log("x")) is None


def test_a_withdrawn_ticket_leaves_no_trace_and_a_granted_one_cannot_be_withdrawn():
    s = Scheduler(slots=1, per_client=1, queue=10, client_queue=10)
    log = Log()
    running = s.submit("a", log("a"))
    waiting = s.submit("b", log("b"))
    assert s.withdraw(waiting) and s.waiting == 0
    assert not s.withdraw(running)
    s.finish(running)
    s.finish(running)  # twice is harmless
    assert log.order == ["a"] and (s.running, s.waiting, s.clients()) == (0, 0, 0)


def test_runs_without_a_client_are_each_their_own_client():
    s = Scheduler(slots=4, per_client=1, queue=10, client_queue=10)
    log = Log()
    for _ in range(3):
        s.submit(None, log("x"))
    assert log.order == ["x", "x", "x"]


def test_a_client_flooding_the_sandbox_with_sleepers_cannot_starve_another():
    """The flood attack: one client keeps many sleeping programs in flight. It holds its
    share of the slots; another client's quick programs run while the sleepers still sleep,
    and none of either is refused."""
    box = Sandbox(config=SandboxConfig(slots=4, per_client=2, spares=4, wait_s=PATIENCE_S))
    sleepy = "import time\ntime.sleep(600)\nprint('woke')"  # cancelled, never woken
    try:

        async def main():
            hog = [
                asyncio.ensure_future(box.arun(sleepy, client="hog", limits=RunLimits(wall_s=900)))
                for _ in range(8)
            ]
            while box.stats()["running"] < 2:
                await asyncio.sleep(0.01)
            quick = [await box.arun(f"print({i})", client="quiet") for i in range(5)]
            held, waiting = box.stats()["running"], box.stats()["waiting"]
            done = [t for t in hog if t.done()]  # a refused one would be done at once
            for t in hog:
                t.cancel()
            return quick, held, waiting, done

        quick, held, waiting, done = asyncio.run(main())
    finally:
        box.close()
    assert [r.stdout for r in quick] == [f"{i}\n" for i in range(5)]
    assert held == 2 and waiting == 6  # the hog holds its share, the rest of it waits its turn
    assert done == []  # none of the sleepers was refused, none ended


def test_fresh_runs_are_capped_and_a_settled_run_lets_the_next_in():
    """Fewer runs at once when the cores are contended: past ``fresh`` young runs the next
    waits, though slots are free; one that settles (demoted, or long) keeps its slot and lets
    the next start."""
    s = Scheduler(slots=8, per_client=4, queue=100, client_queue=100, fresh=2)
    log = Log()
    tickets = [s.submit(name, log(name)) for name in ("a", "b", "c")]
    assert log.order == ["a", "b"] and (s.running, s.fresh, s.waiting) == (2, 2, 1)
    s.settle(tickets[0])
    assert log.order == ["a", "b", "c"] and (s.running, s.fresh) == (3, 2)
    s.settle(tickets[0])  # once only
    s.finish(tickets[0])  # a settled run frees its slot, not a fresh place
    assert (s.running, s.fresh) == (2, 2)
    s.finish(tickets[1])
    assert (s.running, s.fresh, s.waiting) == (1, 1, 0)


def test_a_sleeper_stops_counting_as_fresh_and_the_next_run_starts_beside_it():
    """One fresh place only: a program sleeping (within its long wall limit) settles after a few
    slices of wall time, and the next run starts and ends while the sleeper still sleeps. Were
    the sleeper never settled, the second run would wait for the slot until told ``busy``."""
    box = Sandbox(config=SandboxConfig(slots=2, spares=2, fresh_runs=1, wait_s=PATIENCE_S))
    try:

        async def main():
            sleeper = asyncio.ensure_future(
                box.arun("import time\ntime.sleep(600)", limits=RunLimits(wall_s=900))
            )
            while box.stats()["running"] < 1:
                await asyncio.sleep(0.01)
            quick = await box.arun("print(6 * 7)")
            still = not sleeper.done()
            # The zygote's end ends the sleeper too (its pid namespace): nothing left waiting.
            _, zygote = box.zygote()
            os.kill(zygote, signal.SIGKILL)
            await sleeper
            return quick, still

        quick, still = asyncio.run(main())
    finally:
        box.close()
    assert (quick.verdict, quick.stdout) == ("ok", "42\n")
    assert still
