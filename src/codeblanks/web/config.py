"""The web app's configuration: every ``CODEBLANKS_*`` environment variable it reads, declared
once, as data.

How settings flow::

    environment ──> SETTINGS (name, default, help) ──> Config (frozen) ──> codeblanks.web.settings
                                                                      └──> codeblanks.web.door.serve

Nothing else in ``codeblanks.web`` reads ``os.environ``. docs/settings.md documents each entry of
``SETTINGS``, and tests/web/test_config.py fails when one is missing there. The sandbox and the
content loader read their own variables (``CODEBLANKS_SANDBOX_*``, ``CODEBLANKS_UNSAFE_NO_SANDBOX``,
``CODEBLANKS_COURSES``); they are listed in ``OTHER_SETTINGS`` so the docs test covers them too.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit


@dataclass(frozen=True)
class Setting:
    name: str
    default: str
    help: str


SETTINGS: tuple[Setting, ...] = (
    Setting("CODEBLANKS_DATA_DIR", "./data", "Folder for local state: SQLite file, secret key."),
    Setting(
        "CODEBLANKS_DATABASE_URL",
        "sqlite:///<data dir>/codeblanks.sqlite3",
        "Where progress and accounts live: sqlite:///path or postgresql://user:pw@host:5432/db.",
    ),
    Setting(
        "CODEBLANKS_SECRET_KEY",
        "(generated into <data dir>/secret_key)",
        "Django's signing key; must be set, and equal on every node, in production.",
    ),
    Setting(
        "CODEBLANKS_ALLOWED_HOSTS",
        "localhost,127.0.0.1,[::1]",
        "Host names served, comma-separated.",
    ),
    Setting("CODEBLANKS_DEBUG", "false", "Django debug pages. Never on a public site."),
    Setting(
        "CODEBLANKS_LOG_FORMAT",
        "auto",
        "Log lines: json (one object per line), text, or auto (text on a terminal, else json).",
    ),
    Setting(
        "CODEBLANKS_METRICS_LISTEN",
        "(off)",
        "host:port for Prometheus metrics (/metrics), apart from the app's port; off if unset.",
    ),
    Setting(
        "CODEBLANKS_DRAIN_SECONDS",
        "5",
        "Seconds a stopping node still serves new requests while /healthz says 503 (>= checks).",
    ),
    Setting(
        "CODEBLANKS_STOP_TIMEOUT",
        "30",
        "Seconds a stopping node (SIGTERM) waits for the requests in flight before it exits.",
    ),
    Setting(
        "CODEBLANKS_CACHE_URL",
        "locmem://",
        "Cache for rate limits: locmem:// (one process) or redis://host:6379/0 (shared by nodes).",
    ),
    Setting(
        "CODEBLANKS_RUN_CPU_PER_MINUTE",
        "12",
        "CPU-seconds one client address's runs may use per minute, sustained; 0: no CPU limit.",
    ),
    Setting(
        "CODEBLANKS_RUN_CPU_BURST",
        "20",
        "CPU-seconds a client address that has been idle may use at once (its bucket's size).",
    ),
    Setting(
        "CODEBLANKS_RUNS_AT_ONCE", "2", "Requests with runs one client address may have at once."
    ),
    Setting(
        "CODEBLANKS_RUN_RATE", "0", "Programs per minute per client address, a ceiling; 0: none."
    ),
    Setting("CODEBLANKS_MAX_CODE_BYTES", "65536", "Largest program accepted, in bytes (UTF-8)."),
    Setting(
        "CODEBLANKS_LEARNER_CODE_BYTES",
        "262144",
        "Saved code one learner may keep, all lessons together, in bytes (UTF-8).",
    ),
    Setting(
        "CODEBLANKS_NEW_LEARNERS_PER_HOUR",
        "60",
        "Anonymous learners one client address may start per hour; 0: no limit.",
    ),
    Setting(
        "CODEBLANKS_IDLE_LEARNER_DAYS",
        "7",
        "Days after which an anonymous learner with no progress, untouched, is deleted.",
    ),
    Setting(
        "CODEBLANKS_MAX_BODY_BYTES",
        "1048576",
        "Largest request body read, in bytes; a larger Content-Length is refused (413) unread.",
    ),
    Setting(
        "CODEBLANKS_BODY_TIMEOUT",
        "10",
        "Seconds a request body may take to arrive; a slower one is cut (408).",
    ),
    Setting(
        "CODEBLANKS_HEAD_TIMEOUT",
        "10",
        "Seconds a connection may take to send a request's head (from opening, or from the last "
        "answer); then it is closed.",
    ),
    Setting(
        "CODEBLANKS_CONNECTIONS_PER_ADDRESS",
        "100",
        "Connections one client address may hold open at once (trusted proxies exempt); 0: no cap.",
    ),
    Setting(
        "CODEBLANKS_SITE_PERMITS",
        "8",
        "Requests one web process works on at once (a Run waiting for the sandbox does not "
        "count); the others wait their turn, and one whose client leaves is dropped; 0: no cap.",
    ),
    Setting(
        "CODEBLANKS_SITE_WAIT",
        "5",
        "Seconds a request may wait for one of those; then it is answered 503, not run (a Run back "
        "from the sandbox waits as long to take its permit back, then finishes without one).",
    ),
    Setting(
        "CODEBLANKS_HSTS_SECONDS",
        "0",
        "Strict-Transport-Security max-age sent on HTTPS answers; 0 sends none.",
    ),
    Setting(
        "CODEBLANKS_SITE_URL",
        "(none: no password-reset mail)",
        "The site's address as learners reach it, e.g. https://learn.example.org; links in "
        "e-mail are built from it.",
    ),
    Setting(
        "CODEBLANKS_EMAIL_URL",
        "console://",
        "Where e-mail (password resets) goes: console://, file:///folder, or "
        "smtp://user:pw@host:587 (STARTTLS) / smtps://user:pw@host:465.",
    ),
    Setting(
        "CODEBLANKS_EMAIL_FROM",
        "CodeBlanks <noreply@localhost>",
        "The From address of the e-mail the site sends.",
    ),
    Setting(
        "CODEBLANKS_GC_YOUNG",
        "5000",
        "Allocations between two collections of a web process's youngest objects, once what it "
        "loads at start is frozen out of the collector; 0: Python's own (700), nothing frozen.",
    ),
    Setting(
        "CODEBLANKS_WEB_WORKERS",
        "(one per core but one)",
        "Web processes `codeblanks serve` runs, sharing one port, one sandbox and one cache; 1: "
        "one process.",
    ),
    Setting(
        "CODEBLANKS_FORWARDED_ALLOW_IPS",
        "",
        "Proxy addresses whose X-Forwarded-For/-Proto are trusted (comma-separated); none by "
        "default.",
    ),
)

# Read by other layers (documented in docs/settings.md all the same).
OTHER_SETTINGS: tuple[str, ...] = (
    "CODEBLANKS_SANDBOX_SLOTS",
    "CODEBLANKS_SANDBOX_QUEUE",
    "CODEBLANKS_SANDBOX_SPARES",
    "CODEBLANKS_SANDBOX_MODULES",
    "CODEBLANKS_UNSAFE_NO_SANDBOX",
    "CODEBLANKS_COURSES",
)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class ConfigError(ValueError):
    """A ``CODEBLANKS_*`` variable has a value we cannot use; the message names it."""


@dataclass(frozen=True)
class Config:
    data_dir: Path
    database_url: str
    secret_key: str
    secret_key_from_env: bool
    allowed_hosts: tuple[str, ...]
    debug: bool
    log_format: str
    metrics_listen: str
    stop_timeout_s: float
    drain_s: float
    cache_url: str
    run_rate: int
    run_cpu_per_minute: float
    run_cpu_burst: float
    runs_at_once: int
    max_code_bytes: int
    learner_code_bytes: int
    new_learners_per_hour: int
    idle_learner_days: int
    max_body_bytes: int
    body_timeout_s: float
    head_timeout_s: float
    connections_per_address: int
    site_permits: int
    site_wait_s: float
    hsts_seconds: int
    forwarded_allow_ips: str
    email_url: str
    email_from: str
    site_url: str  # "" when unset: no password-reset mail is sent
    web_workers: int
    web_cpu: str  # "auto", "off" or a core's number (door/cpus.py)
    gc_young: int
    # Set by `codeblanks serve` for its workers (not by operators): the parent's socket, through
    # which they share its sandbox and, with locmem://, its cache (door/workers.py). "" else.
    node_socket: str = ""

    @property
    def local(self) -> bool:
        """Local mode: one machine, SQLite. Migrations run on start; the key may be generated."""
        return self.database_url.startswith("sqlite:")


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name}={raw!r}: use true or false")


def _int(env: Mapping[str, str], name: str, default: int, minimum: int = 0) -> int:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r}: expected a whole number") from None
    if value < minimum:
        raise ConfigError(f"{name}={raw!r}: must be at least {minimum}")
    return value


def _seconds(
    env: Mapping[str, str],
    name: str,
    default: float,
    *,
    zero: bool = False,
    most: float = 3600,
    unit: str = "seconds",
) -> float:
    """Seconds (or CPU-seconds: ``unit``), above 0 (or from 0 when ``zero`` allows "not at
    all") and at most ``most``."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r}: expected a number of {unit}") from None
    if not (value >= 0 if zero else value > 0) or value > most:
        raise ConfigError(f"{name}={raw!r}: give between 0 and {most:g} {unit}")
    return value


def _cpu_seconds(env: Mapping[str, str], name: str, default: float, *, zero: bool = True) -> float:
    """CPU-seconds for the run meter: from 0 (or above 0 unless ``zero``) to a day's worth."""
    return _seconds(env, name, default, zero=zero, most=86400, unit="CPU-seconds")


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str:
    raw = (env.get(name) or choices[0]).strip().lower()
    if raw not in choices:
        raise ConfigError(f"{name}={env.get(name)!r}: use one of {', '.join(choices)}")
    return raw


def _listen(env: Mapping[str, str], name: str) -> str:
    """``host:port`` (``[::1]:9108`` for IPv6), or "" for off."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return ""
    host, sep, port = raw.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"{name}={raw!r}: give host:port, e.g. 127.0.0.1:9108")
    return raw


def _secret_key(env: Mapping[str, str], data_dir: Path) -> tuple[str, bool]:
    """The key from the environment, else the one kept in the data dir (made on first use)."""
    key = env.get("CODEBLANKS_SECRET_KEY", "").strip()
    if key:
        return key, True
    path = data_dir / "secret_key"
    try:
        return path.read_text().strip(), False
    except FileNotFoundError:
        pass
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # Created with O_EXCL and mode 0600: two processes starting at once cannot both write one.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip(), False
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return key, False


def from_env(env: Mapping[str, str] | None = None) -> Config:
    """Read the configuration. Raises ``ConfigError`` naming the variable that is wrong."""
    env = os.environ if env is None else env
    data_dir = Path(env.get("CODEBLANKS_DATA_DIR") or "./data").expanduser().resolve()
    database_url = (
        env.get("CODEBLANKS_DATABASE_URL") or f"sqlite:///{data_dir / 'codeblanks.sqlite3'}"
    )
    database(database_url)  # fail early on a URL we cannot use
    hosts = env.get("CODEBLANKS_ALLOWED_HOSTS") or "localhost,127.0.0.1,[::1]"
    key, from_env_var = _secret_key(env, data_dir)
    cache_url = env.get("CODEBLANKS_CACHE_URL") or "locmem://"
    cache(cache_url)
    email_url = env.get("CODEBLANKS_EMAIL_URL") or "console://"
    email(email_url)
    return Config(
        data_dir=data_dir,
        database_url=database_url,
        secret_key=key,
        secret_key_from_env=from_env_var,
        allowed_hosts=tuple(h.strip() for h in hosts.split(",") if h.strip()),
        debug=_bool(env, "CODEBLANKS_DEBUG", False),
        log_format=_choice(env, "CODEBLANKS_LOG_FORMAT", ("auto", "json", "text")),
        metrics_listen=_listen(env, "CODEBLANKS_METRICS_LISTEN"),
        stop_timeout_s=_seconds(env, "CODEBLANKS_STOP_TIMEOUT", 30.0, zero=True),
        drain_s=_seconds(env, "CODEBLANKS_DRAIN_SECONDS", 5.0, zero=True),
        cache_url=cache_url,
        run_rate=_int(env, "CODEBLANKS_RUN_RATE", 0),
        run_cpu_per_minute=_cpu_seconds(env, "CODEBLANKS_RUN_CPU_PER_MINUTE", 12.0),
        run_cpu_burst=_cpu_seconds(env, "CODEBLANKS_RUN_CPU_BURST", 20.0, zero=False),
        runs_at_once=_int(env, "CODEBLANKS_RUNS_AT_ONCE", 2),
        max_code_bytes=_int(env, "CODEBLANKS_MAX_CODE_BYTES", 65536, minimum=1),
        learner_code_bytes=_int(env, "CODEBLANKS_LEARNER_CODE_BYTES", 262144, minimum=1),
        new_learners_per_hour=_int(env, "CODEBLANKS_NEW_LEARNERS_PER_HOUR", 60),
        idle_learner_days=_int(env, "CODEBLANKS_IDLE_LEARNER_DAYS", 7, minimum=1),
        max_body_bytes=_int(env, "CODEBLANKS_MAX_BODY_BYTES", 1048576, minimum=1024),
        body_timeout_s=_seconds(env, "CODEBLANKS_BODY_TIMEOUT", 10.0),
        head_timeout_s=_seconds(env, "CODEBLANKS_HEAD_TIMEOUT", 10.0),
        connections_per_address=_int(env, "CODEBLANKS_CONNECTIONS_PER_ADDRESS", 100),
        site_permits=_int(env, "CODEBLANKS_SITE_PERMITS", 8),
        site_wait_s=_seconds(env, "CODEBLANKS_SITE_WAIT", 5.0),
        hsts_seconds=_int(env, "CODEBLANKS_HSTS_SECONDS", 0),
        forwarded_allow_ips=env.get("CODEBLANKS_FORWARDED_ALLOW_IPS", "").strip(),
        email_url=email_url,
        email_from=env.get("CODEBLANKS_EMAIL_FROM") or "CodeBlanks <noreply@localhost>",
        site_url=site_url(env.get("CODEBLANKS_SITE_URL", "")),
        web_workers=_int(env, "CODEBLANKS_WEB_WORKERS", default_web_workers(), minimum=1),
        web_cpu=_web_cpu(env),
        gc_young=_int(env, "CODEBLANKS_GC_YOUNG", 5000),
        node_socket=env.get("CODEBLANKS_NODE_SOCKET", ""),
    )


def site_url(raw: str) -> str:
    """``scheme://host[:port]`` as learners reach the site (no path, no trailing slash), or ""."""
    url = raw.strip().rstrip("/")
    if not url:
        return ""
    problem = "give scheme://host[:port], e.g. https://learn.example.org"
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        raise ConfigError(f"CODEBLANKS_SITE_URL={raw!r}: the port is not a number") from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        raise ConfigError(f"CODEBLANKS_SITE_URL={raw!r}: {problem}")
    return f"{parts.scheme}://{parts.netloc}"


def _web_cpu(env: Mapping[str, str]) -> str:
    """``auto`` (one core, chosen by the port, where there are two or more), ``off``, or the
    number of a core this process may use."""
    raw = (env.get("CODEBLANKS_WEB_CPU") or "auto").strip().lower()
    if raw in ("auto", "off"):
        return raw
    if not raw.isdigit() or int(raw) not in os.sched_getaffinity(0):
        cores = ", ".join(str(c) for c in sorted(os.sched_getaffinity(0)))
        raise ConfigError(f"CODEBLANKS_WEB_CPU={raw!r}: use auto, off or one of the cores {cores}")
    return str(int(raw))


def default_web_workers() -> int:
    """One web process per core but one, at least one: the sandbox's children and the parent's
    services (the sandbox and cache calls of the workers) need a core's worth. On two cores
    that is one process, which measured better there than two (docs/performance.md, "Every
    core serves"): 29-38 ms of CPU a step against 34-61 ms, and 30 steps/s held in both runs
    against one of two."""
    return max(1, (os.cpu_count() or 1) - 1)


def database(url: str) -> dict:
    """Django's ``DATABASES["default"]`` for a database URL (sqlite or postgresql)."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # sqlite:///relative/path or sqlite:////absolute/path (the path follows "sqlite:///").
        path = unquote(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else ""
        if not path:
            raise ConfigError(f"CODEBLANKS_DATABASE_URL={url!r}: give a file, sqlite:///path")
        if path == ":memory:":
            path = ":memory:"
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": path,
            # WAL: a commit appends to one log (one fsync, synchronous stays FULL) instead of
            # making, syncing and deleting a rollback journal, and readers never wait for a
            # writer. It lasts in the file; every connection asks for it (a no-op once set).
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL",
            },
            # Kept by each of the site's reused threads between requests (docs/architecture.md,
            # "The request path"): opening one costs ~0.8 ms of CPU, a third of a cached page.
            # A file on this machine, so nothing on the other end runs out of connections.
            "CONN_MAX_AGE": 600,
        }
    if parts.scheme in ("postgresql", "postgres"):
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ConfigError(f"CODEBLANKS_DATABASE_URL: name the database, {parts.scheme}://…/db")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            # e.g. ?sslmode=require; a database that is away is told within seconds, not minutes
            "OPTIONS": {"connect_timeout": "5", **dict(parse_qsl(parts.query))},
            "CONN_HEALTH_CHECKS": True,
        }
    raise ConfigError(f"CODEBLANKS_DATABASE_URL: unknown scheme {parts.scheme!r}")


def cache(url: str) -> dict:
    """Django's ``CACHES["default"]`` for a cache URL (locmem:// or redis[s]://)."""
    scheme = urlsplit(url).scheme
    if scheme == "locmem":
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "codeblanks",
        }
    if scheme in ("redis", "rediss"):
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            # A Redis that is away costs a request at most this long (then: no rate limit).
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    raise ConfigError(f"CODEBLANKS_CACHE_URL: unknown scheme {scheme!r} (locmem:// or redis://)")


def email(url: str) -> dict:
    """Django's ``EMAIL_*`` settings for an e-mail URL: console:// prints each message on the
    server's output, file:///folder writes one file per message there, smtp:// and smtps://
    send through a mail server (STARTTLS on smtp://, TLS from the start on smtps://)."""
    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme == "file":
        folder = unquote(parts.path)
        if not folder:
            raise ConfigError(f"CODEBLANKS_EMAIL_URL={url!r}: give a folder, file:///path")
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": folder,
        }
    if parts.scheme in ("smtp", "smtps"):
        if not parts.hostname:
            raise ConfigError(f"CODEBLANKS_EMAIL_URL={url!r}: name the mail server, smtp://host")
        try:
            port = parts.port or (465 if parts.scheme == "smtps" else 587)
        except ValueError:
            raise ConfigError(f"CODEBLANKS_EMAIL_URL={url!r}: the port is not a number") from None
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname,
            "EMAIL_PORT": port,
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_TLS": parts.scheme == "smtp",
            "EMAIL_USE_SSL": parts.scheme == "smtps",
            "EMAIL_TIMEOUT": 10,
        }
    raise ConfigError(
        f"CODEBLANKS_EMAIL_URL: unknown scheme {parts.scheme!r} (console://, file:///folder, "
        "smtp:// or smtps://)"
    )
