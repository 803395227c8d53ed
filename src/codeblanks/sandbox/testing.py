"""What tests of the sandbox and of its users wait on, instead of sleeping for a guessed time:
a real sandbox whose every reported case is counted, and a bounded wait for a condition; and
the one scripted ``Runner`` (``FakeRunner``) the tests and benchmarks use instead of a sandbox.

A test that sleeps "long enough" for something to happen fails on a slow or busy machine; one
that waits for the thing itself only fails when it never happens."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import threading
import time
from collections.abc import Awaitable, Callable, Sequence

from codeblanks import inline
from codeblanks.sandbox.execute import stop_at_failure
from codeblanks.sandbox.result import BUSY, OK, RunRequest, RunResult, Stop
from codeblanks.sandbox.service import Sandbox

PRINTS_42 = RunResult(OK, stdout="42\n", exit_code=0, duration_ms=3.0)  # what print(6 * 7) gives
Script = Callable[[RunRequest], Sequence[RunResult] | Awaitable[Sequence[RunResult]]]

# Long enough that only a hang reaches it, on any machine.
PATIENCE_S = 120.0


def wait_until(check: Callable[[], bool], what: str, timeout: float = PATIENCE_S) -> None:
    """Return once ``check()`` is true; AssertionError naming ``what`` if it never is."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.01)


class CountedCases:
    """A real ``Sandbox`` (the ``Runner`` protocol) that counts the cases its children report,
    so that a test can act at a known point of a grade: "after the second case"."""

    def __init__(self, box: Sandbox) -> None:
        self.box = box
        self.reported = 0
        self._changed = threading.Condition()

    @property
    def slots(self) -> int:
        return self.box.slots

    def _counting(self, stop: Stop | None) -> Stop:
        inner = stop or stop_at_failure
        seen: set[int] = set()  # a batch's last case may be asked about twice

        def counted(index: int, result: RunResult) -> bool:
            with self._changed:
                if index not in seen:
                    seen.add(index)
                    self.reported += 1
                    self._changed.notify_all()
            return inner(index, result)

        return counted

    async def arun_cases(self, request: RunRequest) -> list[RunResult]:
        counted = dataclasses.replace(request, stop=self._counting(request.stop))
        return await self.box.arun_cases(counted)

    def run_cases(self, codes: Sequence[str], **kwargs: object) -> list[RunResult]:
        stop = kwargs.pop("stop", None)
        return self.box.run_cases(codes, stop=self._counting(stop), **kwargs)  # type: ignore[arg-type]

    def wait_for_cases(self, n: int, timeout: float = PATIENCE_S) -> None:
        """Return once ``n`` cases have reported in all; AssertionError if they never do."""
        with self._changed:
            if not self._changed.wait_for(lambda: self.reported >= n, timeout):
                raise AssertionError(f"only {self.reported} of {n} cases reported")


class Signal:
    """An event set from any thread and waited for anywhere: ``await wait()`` on a loop, or in a
    coroutine driven on a thread (``codeblanks.inline``: the page's Run), and ``wait_here()``
    in plain sync code."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    async def wait(self) -> None:
        if not inline.on_loop():  # driven: no loop to poll on, the thread itself waits
            self.wait_here()
            return
        while not self._event.is_set():
            await asyncio.sleep(0.001)

    def wait_here(self, timeout: float = PATIENCE_S) -> None:
        if not self._event.wait(timeout):
            raise AssertionError("a held run was never released")


class FakeRunner:
    """A scripted ``Runner``, so that a test decides what the sandbox answers and sees what it
    was asked. ``answer``: one ``RunResult`` for every batch, or a function from the request to
    its results (async too: a real sandbox's ``arun_cases`` makes it a counting wrapper). The
    first ``busy`` batches meet a full sandbox instead. ``hold``: each batch waits, once
    ``asked`` is set, until the test calls ``release()`` (``Signal``s, so a run driven in a site
    thread waits there)."""

    def __init__(
        self,
        answer: RunResult | Script | None = None,
        *,
        slots: int = 1,
        busy: int = 0,
        hold: bool = False,
    ) -> None:
        self.answer = answer if answer is not None else PRINTS_42
        self.slots, self.busy, self.hold = slots, busy, hold
        self.requests: list[RunRequest] = []
        self.results: list[RunResult] = []  # every result answered, in order
        self.asked, self._released = Signal(), Signal()

    @property
    def codes(self) -> list[str]:
        """Every program asked for, each batch's cases in order."""
        return [code for request in self.requests for code in request.codes]

    @property
    def clients(self) -> list[str | None]:
        """Whom each batch was counted to."""
        return [request.client for request in self.requests]

    def release(self) -> None:
        self._released.set()

    async def arun_cases(self, request: RunRequest) -> list[RunResult]:
        self.requests.append(request)
        self.asked.set()
        if self.hold:
            await self._released.wait()
        if self.busy > 0:
            self.busy -= 1
            results = [RunResult(BUSY, stderr="The server is busy.")]
        elif isinstance(self.answer, RunResult):
            results = [self.answer]
        else:
            answered = self.answer(request)
            results = list(await answered if inspect.isawaitable(answered) else answered)
        self.results += results
        return results

    async def arun(self, code: str, **kwargs: object) -> RunResult:
        """One program, as ``/healthz`` asks the real sandbox."""
        client = kwargs.get("client")
        request = RunRequest((code,), client=client if isinstance(client, str) else None)
        return (await self.arun_cases(request))[0]
