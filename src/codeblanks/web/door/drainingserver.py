"""uvicorn's server as a node runs it: its first SIGTERM (or Ctrl+C) drains (draining.py) before
the exit, and SIGUSR1 retires it (a worker replaced in a restart, door/workers.py)."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time

import uvicorn

log = logging.getLogger("codeblanks.web")


class DrainingServer(uvicorn.Server):
    """uvicorn's server whose first SIGTERM (or Ctrl+C) drains (draining.py) before the exit,
    and whose SIGUSR1 retires it (a worker replaced in a restart: it stops taking connections,
    finishes what it has and exits, while the node's other workers serve on)."""

    def __init__(self, config, drain_s: float, stop_timeout_s: float) -> None:
        super().__init__(config)
        self.drain_s, self.stop_timeout = drain_s, stop_timeout_s

    def run(self, sockets=None) -> None:
        signal.signal(signal.SIGUSR1, self._retire)
        super().run(sockets)

    async def startup(self, sockets=None) -> None:
        """The courses are loaded before the first connection is taken: a web worker that
        loaded them on its first requests kept a crowd waiting while it parsed. Here, uvicorn's
        thread that answers the parent's health checks already runs, so a slow load is not
        taken for a hung worker. What is loaded is then frozen out of the collector (heap.py)."""
        from django.conf import settings

        from codeblanks.content.catalog import load_every_language, watching
        from codeblanks.web.door import heap

        load_every_language()
        # Not under --reload: a catalogue frozen and then replaced would keep its cycles.
        heap.settle(0 if watching() else settings.CONFIG.gc_young)
        self.loop = asyncio.get_running_loop()
        await super().startup(sockets)

    def handle_exit(self, sig, frame) -> None:
        from codeblanks.web.door.draining import drain

        if drain.stopping:
            # A second Ctrl+C: stop now. A second SIGTERM changes nothing: a worker gets one
            # from its parent and maybe one from systemd (the whole group's) for one stop.
            if sig == signal.SIGINT:
                super().handle_exit(sig, frame)
            return
        drain.begin(self.drain_s)
        threading.Thread(target=self._drain, name="drain", daemon=True).start()

    def _drain(self) -> None:
        from codeblanks.web.door.draining import drain

        drain_s, stop_timeout = self.drain_s, self.stop_timeout
        log.warning("stopping: /healthz answers 503; new requests served %g s more, then "
                    "refused (503)", drain_s)  # fmt: skip
        time.sleep(drain_s)
        log.warning("stopping: new requests refused; waiting up to %g s for the %d in "
                    "flight, and for the balancer to stop sending (1 s without a request)",
                    stop_timeout, drain.in_flight)  # fmt: skip
        if drain.wait_idle(stop_timeout, quiet_s=1.0):
            log.warning("stopping: nothing left in flight")
        else:
            log.error("stopping: %d requests still in flight after %g s; they are cut",
                      drain.in_flight, stop_timeout)  # fmt: skip
        self.should_exit = True

    def _retire(self, sig, frame) -> None:
        if not hasattr(self, "loop"):  # not started yet: nothing in flight
            self.should_exit = True
            return
        self.loop.call_soon_threadsafe(self._stop_listening)
        threading.Thread(target=self._finish, name="retire", daemon=True).start()

    def _stop_listening(self) -> None:
        for server in self.servers:  # no new connection comes to this process
            server.close()

    def _finish(self) -> None:
        from codeblanks.web.door.draining import drain

        log.info("retiring: waiting up to %g s for the %d requests in flight",
                 self.stop_timeout, drain.in_flight)  # fmt: skip
        drain.wait_idle(self.stop_timeout)
        self.should_exit = True
