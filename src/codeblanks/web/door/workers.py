"""``codeblanks serve`` with several web processes (``--workers N``, CODEBLANKS_WEB_WORKERS; one
per core but one by default): every core serves pages and the web side of runs, as the nodes of a
cluster do, and the node still has one of each shared thing.

    parent (this module)                         N workers (uvicorn's spawned processes)
      migrations, once, before any worker          each a whole Django process on the one
      the one Sandbox: its slots, queue, fair      listening socket (the kernel hands each
        share between clients                      connection to one of them)
      the node's socket (NodeService) ◀──────────  runs: sandbox/remote.RemoteSandbox
      with locmem://, the node's cache  ◀──────────  Django's cache: sharedcache.SharedCache
      the metrics port (all workers' counts)        requests counted into a shared folder

What the cluster shares over the network the workers share through the parent: the sandbox
(so one learner's fair share and the node's slots hold however the kernel spreads connections)
and, without Redis, the cache (rate limits, runs at once, LTI nonces). The database is shared
as ever (SQLite in WAL mode with a busy timeout, settings.py; or PostgreSQL). What stays per
process is what may: the page-parts cache (keyed by content, never invalidated), the
connections per address (a cap of N times CODEBLANKS_CONNECTIONS_PER_ADDRESS per node).

Signals to the parent: SIGTERM (and Ctrl+C) drain every worker at once (draining.py: /healthz
503, then refusals, then the requests in flight) and exit; SIGHUP replaces the workers one at a
time, each new one serving before the old one stops taking connections (SIGUSR1: it finishes
its requests in flight and exits), so the node never stops answering. A worker that dies is
started again. Process creation is uvicorn's (its ``multiprocess`` supervisor): these are the
server's own processes, never a learner's program.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import socket
import struct
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from codeblanks.sandbox import remote
from codeblanks.sandbox import workers as reading_pool
from codeblanks.web.door.drainingserver import DrainingServer

log = logging.getLogger("codeblanks.web")

APP = "codeblanks.web.door.asgi:application"
PROTOCOL = "codeblanks.web.door.workers:protocol"
METRICS_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"
# How long a new worker of a restart may take to serve (Django, the catalogue: seconds, more on
# a busy machine) before the restart is given up and the old workers go on.
READY_WAIT_S = 120.0
PING_WAIT_S = 30


def __getattr__(name: str):
    """``protocol``: this worker's HTTP protocol class (connections.py), built from its
    settings when uvicorn imports it by name: a worker counts its own connections."""
    if name == "protocol":
        from codeblanks.web.config import from_env
        from codeblanks.web.door.connections import guarded

        config = from_env()
        return guarded(
            head_timeout_s=config.head_timeout_s,
            per_address=config.connections_per_address,
            exempt=config.forwarded_allow_ips,
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class NodeService:
    """The parent's Unix socket: each connection a thread that answers runs on the node's
    sandbox and calls on the node's cache, one message after another."""

    def __init__(self, sandbox, cache) -> None:
        self.sandbox, self.cache = sandbox, cache
        # mkdtemp makes it 0700: only this user reaches the socket
        self.folder = Path(tempfile.mkdtemp(prefix="codeblanks-node-", dir=scratch_folder()))
        self.path = str(self.folder / "node.sock")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self.path)
        self._listener.listen(256)
        threading.Thread(target=self._accept, name="node-service", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:  # closed: the node stops
                return
            threading.Thread(target=self._answer, args=(conn,), name="node-call",
                             daemon=True).start()  # fmt: skip

    def _answer(self, conn: socket.socket) -> None:
        from codeblanks.web.door import logs, sharedcache

        with conn:
            if _peer_uid(conn) != os.geteuid():
                return
            while True:
                try:
                    message = remote.receive(conn)
                except (OSError, ConnectionError, ValueError):
                    return
                try:
                    if message.get("op") == "run":
                        logs.request_id.set(message.get("tag") or "")
                        remote.answer_run(self.sandbox, conn, message)
                    else:
                        remote.send(conn, sharedcache.answer(self.cache, message))
                except (OSError, ConnectionError):
                    return
                except Exception:
                    log.exception("a worker's call failed")
                    return

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def scratch_folder() -> str | None:
    """Where the node's socket, the workers' metrics files and the web cores' claims (cpus.py)
    go: memory (/dev/shm) where there is such a folder, else the temporary folder."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _peer_uid(sock: socket.socket) -> int:
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    uid: int = struct.unpack("3i", creds)[1]
    return uid


class Worker(Process):
    """One web process: uvicorn's, with the node's draining server (serve.py) in it."""

    drain_s = 5.0
    stop_timeout_s = 30.0

    @property
    def server(self):
        if self._server is None:
            self._server = DrainingServer(self.config, self.drain_s, self.stop_timeout_s)
        return self._server

    def target(self, sockets=None) -> None:  # pragma: no cover (in the worker)
        """Serve, then leave at once: the interpreter's own exit would first wait on what the
        worker started (the pool that reads programs), which has been seen to hold it for
        good, and with it a restart that waits for the old worker. The pool's processes are
        ended first: each holds its fork server's pipe open, so both would outlive the node."""
        super().target(sockets)
        reading_pool.end()
        logging.shutdown()
        os._exit(0)

    def retire(self) -> None:
        """Stop taking connections, finish the requests in flight, exit (serve.py)."""
        if self.process.exitcode is None and self.process.pid is not None:
            os.kill(self.process.pid, signal.SIGUSR1)


class Workers(Multiprocess):
    """uvicorn's supervisor, starting our workers, and retiring (not draining) the old ones
    in a restart."""

    def __init__(self, config: Config, sockets, *, drain_s: float, stop_timeout_s: float) -> None:
        super().__init__(config, sockets)
        self.drain_s, self.stop_timeout_s = drain_s, stop_timeout_s
        self.stopping = False
        # Told at once, not at the supervisor's next turn (up to 0.5 s later): /healthz must
        # answer 503 as soon as the node is asked to stop (draining.py).
        signal.signal(signal.SIGTERM, self._stop_now)

    def _stop_now(self, sig, frame) -> None:
        self.stopping = True
        for process in self.processes:
            if process.pid is not None and process.exitcode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGTERM)
        self.signal_queue.append(sig)

    def _new(self) -> Worker:
        worker = Worker(self.config, self.sockets)
        worker.drain_s, worker.stop_timeout_s = self.drain_s, self.stop_timeout_s
        worker.start()
        return worker

    def init_processes(self) -> None:
        self.processes = [self._new() for _ in range(self.processes_num)]

    def restart_all(self) -> None:
        """SIGHUP: each worker in turn, the new one serving before the old one retires."""
        for index, old in enumerate(list(self.processes)):
            if self.should_exit.is_set():
                return
            new = self._new()
            if not new.wait_until_ready(READY_WAIT_S, self.should_exit):
                new.kill()
                new.join()
                log.error("a new worker was not ready in time: the restart stops, the old serve")
                return
            self.processes[index] = new
            assert isinstance(old, Worker)
            old.retire()
            old.join()
            _forget(old.pid)

    def keep_subprocess_alive(self) -> None:
        if self.should_exit.is_set():
            return
        for index, process in enumerate(self.processes):
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()  # hung, or dead already
            process.join()
            _forget(process.pid)
            if process.exitcode == STARTUP_FAILURE:  # would fail the same way each time
                log.error("web worker %s could not start: the node stops", process.pid)
                self.should_exit.set()
                return
            if self.should_exit.is_set():
                return
            log.warning("web worker %s ended (exit code %s): starting another",
                        process.pid, process.exitcode)  # fmt: skip
            self.processes[index] = self._new()

    def handle_ttin(self) -> None:
        self.processes_num += 1
        self.processes.append(self._new())

    def handle_term(self) -> None:
        self.stopping = True
        super().handle_term()

    def handle_int(self) -> None:
        self.stopping = True
        super().handle_int()


def _forget(pid: int | None) -> None:
    """A worker gone: its live gauges leave the shared metrics (its counts stay)."""
    folder = os.environ.get(METRICS_DIR_ENV)
    if folder and pid is not None:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid, folder)


def serve(options: dict, workers: int, config, announce: Callable[[str], None]) -> None:
    """Start the node's shared parts, then ``workers`` web processes; until stopped.
    ``announce(metrics_url)`` prints the line that says the node serves."""
    from django.core.cache import caches

    from codeblanks.sandbox import get_sandbox

    sandbox = get_sandbox()  # before the socket exists: the parent's is the real one
    service = NodeService(sandbox, caches["default"])
    metrics_folder = tempfile.mkdtemp(prefix="codeblanks-metrics-", dir=scratch_folder())
    os.environ[remote.SOCKET_ENV] = service.path  # the workers inherit both
    os.environ[METRICS_DIR_ENV] = metrics_folder
    options = dict(options)
    drain_s, stop_timeout_s = options.pop("drain_s"), options.pop("stop_timeout_s")
    options["http"] = PROTOCOL
    # A worker that does not answer its parent's ping (a thread of its own) for this long is
    # taken for hung and replaced: uvicorn's 5 s would cut a busy worker's requests on a loaded
    # machine.
    uvicorn_config = Config(APP, workers=workers, timeout_worker_healthcheck=PING_WAIT_S, **options)
    supervisor: Workers | None = None
    try:
        listening = uvicorn_config.bind_socket()
        supervisor = Workers(uvicorn_config, [listening], drain_s=drain_s,
                             stop_timeout_s=stop_timeout_s)  # fmt: skip
        metrics_url = _start_metrics(config, sandbox, metrics_folder, supervisor)
        announce(metrics_url)
        supervisor.run()
    finally:
        service.close()
        shutil.rmtree(metrics_folder, ignore_errors=True)
        from codeblanks.sandbox.service import close_shared

        close_shared()


def _start_metrics(config, sandbox, folder: str, supervisor: Workers) -> str:
    """The node's metrics on CODEBLANKS_METRICS_LISTEN: the workers' request counts summed
    from the shared folder (prometheus-client's multiprocess mode), the sandbox's from here."""
    if not config.metrics_listen:
        return ""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    from codeblanks.web.door import metrics

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=folder)
    return metrics.start(
        config.metrics_listen, sandbox, lambda: supervisor.stopping, registry=registry
    )
