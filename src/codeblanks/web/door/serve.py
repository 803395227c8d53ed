"""``codeblanks serve``: the web app under uvicorn, ready for real use.

A web process per core by default (workers.py; ``--workers 1`` serves from this one process):
views that wait on the sandbox are async, so a long run never holds up other learners; the
sandbox runs programs in parallel in its own processes, one sandbox per node. Static files are
served by whitenoise from the installed package. In local mode (SQLite) migrations are applied
on start; with PostgreSQL run ``django-admin migrate`` once per release instead (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import signal
import sys
import threading
import time

import uvicorn

log = logging.getLogger("codeblanks.web")


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int | None = None) -> None:
    """Serve until stopped. ``workers``: web processes (None: CODEBLANKS_WEB_WORKERS, by default
    one per core); 1 serves from this process, more from workers.py's supervised processes."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "codeblanks.web.settings")
    import django
    from django.conf import settings

    django.setup()
    config = settings.CODEBLANKS
    if config.local:
        from django.core.management import call_command

        config.data_dir.mkdir(parents=True, exist_ok=True)
        # Once, here, before any worker starts: workers never migrate.
        call_command("migrate", interactive=False, verbosity=0)
    elif not config.secret_key_from_env:
        sys.exit(
            "CODEBLANKS_SECRET_KEY is not set. With a shared database every node must use the "
            "same key: set it to a long random string (docs/settings.md)."
        )
    workers = workers or config.web_workers
    shown = f"[{host}]" if ":" in host else host
    options = _options(config, host=host, port=port)
    if workers > 1:
        from codeblanks.web.door import workers as node

        node.serve(options, workers, config, shown)
        return
    from codeblanks.web.door.asgi import application

    metrics_url = _start_metrics(config)
    print(f"CodeBlanks is serving on http://{shown}:{port}/  ({_what(config, metrics_url)})",
          flush=True)  # fmt: skip
    http = options.pop("http")
    _run(application, http=http(), **options)


def _options(config, *, host: str, port: int) -> dict:
    """uvicorn's settings, the same for one process and for each worker. ``http`` is a factory
    of the protocol class: a worker builds its own (connections.py counts per process)."""
    from codeblanks.web.door.connections import guarded

    return dict(
        host=host,
        port=port,
        lifespan="off",  # Django's ASGI handler has no lifespan events
        # h11, with a deadline for each request head and a cap per address (connections.py)
        http=functools.partial(
            guarded,
            head_timeout_s=config.head_timeout_s,
            per_address=config.connections_per_address,
            exempt=config.forwarded_allow_ips,
        ),
        timeout_keep_alive=5,  # an idle connection after an answer: closed after 5 s
        h11_max_incomplete_event_size=16 * 1024,  # a longer request head is refused (400)
        # X-Forwarded-* only from the proxies an operator names; none by default, so a client
        # cannot pick its own address (and with it a fresh run rate).
        proxy_headers=bool(config.forwarded_allow_ips),
        forwarded_allow_ips=config.forwarded_allow_ips or None,
        server_header=False,
        log_level="info",
        log_config=None,  # settings.LOGGING (logs.py) formats uvicorn's lines too
        access_log=False,  # requestlog.py writes one line per request, with its id
        timeout_graceful_shutdown=5,  # after the drain: idle keep-alive connections
        stop_timeout_s=config.stop_timeout_s,
        drain_s=config.drain_s,
    )


def _start_metrics(config) -> str:
    """Prometheus on its own address (CODEBLANKS_METRICS_LISTEN), or "" when it is off."""
    if not config.metrics_listen:
        return ""
    from codeblanks.sandbox import get_sandbox
    from codeblanks.web.door import draining, metrics

    return metrics.start(config.metrics_listen, get_sandbox(), lambda: draining.drain.stopping)


def _what(config, metrics_url: str) -> str:
    """What this node serves, in one line: database, cache, lessons, sandbox, metrics."""
    from urllib.parse import urlsplit

    from codeblanks.content import catalog
    from codeblanks.sandbox import get_sandbox

    db = urlsplit(config.database_url)
    # sqlite's path follows "sqlite:///" (an absolute one has its own "/"): not "//data/…"
    where = db.path[1:] if db.scheme == "sqlite" else f"{db.hostname}:{db.port or 5432}{db.path}"
    cache = urlsplit(config.cache_url)
    cache_at = f" {cache.hostname}:{cache.port or 6379}" if cache.hostname else ""
    parts = [
        f"database {db.scheme} {where}",
        f"cache {cache.scheme}{cache_at}",
        f"{len(catalog().lessons())} lessons",
        f"sandbox {get_sandbox().slots} slots",
        f"metrics {metrics_url}" if metrics_url else "metrics off",
    ]
    if config.local:
        parts.append(f"data {config.data_dir}")
    return "; ".join(parts)


def _run(app, *, stop_timeout_s: float, drain_s: float, **options) -> None:
    """``uvicorn.run``, with SIGTERM (and the first Ctrl+C) draining before the exit."""
    DrainingServer(uvicorn.Config(app, **options), drain_s, stop_timeout_s).run()


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
