"""What tests of the sandbox and of its users wait on, instead of sleeping for a guessed time:
a real sandbox whose every reported case is counted, and a bounded wait for a condition.

A test that sleeps "long enough" for something to happen fails on a slow or busy machine; one
that waits for the thing itself only fails when it never happens."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Sequence

from codeblanks.sandbox.execute import stop_at_failure
from codeblanks.sandbox.result import RunRequest, RunResult, Stop
from codeblanks.sandbox.service import Sandbox

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
