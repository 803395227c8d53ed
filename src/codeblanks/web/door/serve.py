"""``codeblanks serve``: the web app under uvicorn, ready for real use.

A web process per core but one by default (workers.py; ``--workers 1`` serves from this one
process): views that wait on the sandbox are async, so a long run never holds up other
learners; the sandbox runs programs in parallel in its own processes, one sandbox per node.
Static files are served by whitenoise from the installed package. In local mode (SQLite)
migrations are applied on start; with PostgreSQL run ``django-admin migrate`` once per release
instead (docs/deploy.md).
"""

from __future__ import annotations

import functools
import os
import sys

import uvicorn

from codeblanks.web.door.drainingserver import DrainingServer


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int | None = None) -> None:
    """Serve until stopped. ``workers``: web processes (None: CODEBLANKS_WEB_WORKERS, by default
    one per core but one); 1 serves from this process, more from workers.py's supervised
    processes."""
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

        def announce(metrics_url: str) -> None:
            print(f"CodeBlanks is serving on http://{shown}:{port}/  ({_what(config, metrics_url)}"
                  f"; {workers} web workers)", flush=True)  # fmt: skip

        node.serve(options, workers, config, announce)
        return
    from codeblanks.web.door import cpus
    from codeblanks.web.door.asgi import application

    http = options.pop("http")
    # One process serves: its threads on one core, a core of its own among this machine's nodes.
    with cpus.claimed(config.web_cpu, port) as core:
        metrics_url = _start_metrics(config)
        held = "" if core is None else f"; web threads on core {core}"
        print(f"CodeBlanks is serving on http://{shown}:{port}/  "
              f"({_what(config, metrics_url)}{held})", flush=True)  # fmt: skip
        _run(application, http=http(), core=core, **options)


def _options(config, *, host: str, port: int) -> dict:
    """uvicorn's settings, the same for one process and for each worker. ``http`` is a factory
    of the protocol class: a worker builds its own (connections.py counts per process)."""
    from codeblanks.web.door.connections import guarded

    return dict(
        host=host,
        port=port,
        lifespan="off",  # Django's ASGI handler has no lifespan events
        # httptools, with a deadline for each request head, a cap on its size and a cap per
        # address (connections.py)
        http=functools.partial(
            guarded,
            head_timeout_s=config.head_timeout_s,
            per_address=config.connections_per_address,
            exempt=config.forwarded_allow_ips,
        ),
        timeout_keep_alive=5,  # an idle connection after an answer: closed after 5 s
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


def _run(app, *, stop_timeout_s: float, drain_s: float, core: int | None = None, **options) -> None:
    """``uvicorn.run``, with SIGTERM (and the first Ctrl+C) draining before the exit; with
    ``core``, every thread of this process kept on it (cpus.py)."""
    if core is not None:
        from codeblanks.web.door import cpus

        cpus.keep_on(core)
    DrainingServer(uvicorn.Config(app, **options), drain_s, stop_timeout_s).run()
