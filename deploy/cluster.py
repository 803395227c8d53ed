"""A whole CodeBlanks deployment on this machine's loopback, as docs/deploy.md lays it out for
real machines: PostgreSQL, Redis, the migrations run once, N `codeblanks serve` nodes, and
HAProxy in front of them (deploy/haproxy.cfg) checking each node's /healthz.

    python deploy/cluster.py --nodes 2            # or: make cluster
    python deploy/cluster.py --database-url postgresql://... --cache-url redis://...

It prints the balancer's address and where each part writes its log, and stops everything on
Ctrl+C (or SIGTERM). PostgreSQL and Redis are its own, in a temporary folder on free ports,
unless you give their URLs. The tests in tests/deploy drive the same classes."""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
HAPROXY_CFG = HERE / "haproxy.cfg"
START_TIMEOUT_S = 60.0  # a node imports NumPy and starts its sandbox before it is healthy
STOP_TIMEOUT_S = 30.0  # a node finishes the runs in flight first
# Straight to 127.0.0.1, whatever http_proxy the environment names.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ClusterError(RuntimeError):
    """A part did not start or stop; the message says which and shows the end of its log."""


def _core(index: int) -> str:
    """The core for the web threads of the ``index``-th node: one each, in turn."""
    cores = sorted(os.sched_getaffinity(0))
    return str(cores[index % len(cores)]) if len(cores) > 1 else "off"


def free_port() -> int:
    """A port nothing listens on, below the kernel's ephemeral range (ip_local_port_range).

    A port from that range (what binding port 0 gives) is also what the kernel hands out as the
    local end of outgoing connections: between choosing it and the server binding it, one of
    them may take it, or a probe of the not-yet-listening port may connect to itself (TCP's
    self-connect), and the server fails with "address already in use" (seen once in CI). Below
    the range only another server choosing the same port at the same moment can collide."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768  # Linux's default
    chooser = random.SystemRandom()
    for _ in range(200 if low > 11024 else 0):
        port = chooser.randrange(10000, low)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use, or held in TIME_WAIT
            return port
    with socket.socket() as s:  # a machine whose ephemeral range starts low: the kernel's choice
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_tool(name: str, *dirs: str) -> str:
    """``name`` on PATH or in one of ``dirs`` (Debian keeps PostgreSQL's in a versioned folder)."""
    found = shutil.which(name)
    if found:
        return found
    for pattern in dirs:
        for candidate in sorted(Path("/").glob(pattern.lstrip("/")), reverse=True):
            if (candidate / name).is_file():
                return str(candidate / name)
    raise ClusterError(f"{name} not found: install it (e.g. apt-get install postgresql haproxy)")


def codeblanks_command() -> list[str]:
    """The `codeblanks` script beside this Python (the project's .venv), else ``-m``."""
    script = Path(sys.executable).with_name("codeblanks")
    return [str(script)] if script.exists() else [sys.executable, "-m", "codeblanks.cli.main"]


def _tail(path: Path, size: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-size:]
    except FileNotFoundError:
        return "(no log)"


def _wait_port(port: int, timeout: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise ClusterError(f"{what} does not answer on port {port}; its log:\n{_tail(log)}")


def _stop_process(proc: subprocess.Popen | None, sig: int, timeout: float) -> None:
    """``sig`` to the process group ``proc`` leads, then SIGKILL if it lingers."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


class Postgres:
    """A PostgreSQL server of our own: initdb into a new temporary folder, listening on
    127.0.0.1 only. PostgreSQL refuses to run as root; as root, it runs as the ``postgres`` user
    (so its folder is its own, outside folders only root may enter)."""

    def __init__(self, port: int | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="codeblanks-postgres-"))
        self.data = self.folder / "pgdata"
        self.log = self.folder / "postgres.log"
        self.port = port or free_port()
        self.user = "postgres" if os.geteuid() == 0 else None
        bins = ("/usr/lib/postgresql/*/bin",)
        self.initdb, self.pg_ctl = find_tool("initdb", *bins), find_tool("pg_ctl", *bins)

    def url(self, database: str = "codeblanks") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, timeout: float = 60) -> None:
        done = subprocess.run(
            args, user=self.user, capture_output=True, text=True, timeout=timeout, cwd=self.folder
        )
        if done.returncode != 0:
            raise ClusterError(f"{' '.join(args[:2])} failed:\n{done.stdout}{done.stderr}")

    def start(self) -> None:
        if not self.data.exists():
            if self.user:
                shutil.chown(self.folder, self.user)
            self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust",
                      "--no-sync", "-E", "UTF8", "--locale=C")  # fmt: skip
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "60", "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def create_database(self, name: str) -> str:
        import psycopg  # the project's own dependency
        from psycopg import sql

        with psycopg.connect(self.url("postgres"), autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)


class Redis:
    """A Redis server of our own on 127.0.0.1, keeping nothing on disk."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.log = folder / "redis.log"
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.server = find_tool("redis-server")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [self.server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.folder)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        _wait_port(self.port, 20, "redis-server", self.log)

    def stop(self) -> None:
        _stop_process(self.proc, signal.SIGTERM, 10)
        self.proc = None


class Node:
    """One `codeblanks serve` process on 127.0.0.1, in a process group of its own (its
    sandbox goes with it)."""

    def __init__(self, name: str, port: int, env: dict[str, str], folder: Path) -> None:
        self.name, self.port, self.env, self.folder = name, port, env, folder
        self.log = folder / f"{name}.log"
        self.proc: subprocess.Popen | None = None
        self.metrics_port = free_port()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://127.0.0.1:{self.metrics_port}/metrics"

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [*codeblanks_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                env=self.env, cwd=self.folder, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip

    def health(self) -> tuple[int, str]:
        """(status, body) of GET /healthz; (0, why) when nothing answers."""
        try:
            with DIRECT.open(f"{self.url}/healthz", timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace")
        except OSError as exc:
            return 0, repr(exc)

    def wait_health(self, status: int = 200, timeout: float = START_TIMEOUT_S) -> str:
        """Until /healthz answers ``status``; its body."""
        deadline = time.monotonic() + timeout
        last = (0, "no answer yet")
        while time.monotonic() < deadline:
            if self.proc is None or self.proc.poll() is not None:
                code = None if self.proc is None else self.proc.returncode
                raise ClusterError(f"node {self.name} exited ({code}); its log:\n{_tail(self.log)}")
            last = self.health()
            if last[0] == status:
                return last[1]
            time.sleep(0.2)
        raise ClusterError(
            f"node {self.name} ({self.url}): /healthz not {status} after {timeout:.0f} s "
            f"(last: {last}); its log:\n{_tail(self.log)}"
        )

    def kill(self) -> None:
        """SIGKILL, as a machine that dies would: no goodbye."""
        _stop_process(self.proc, signal.SIGKILL, 10)

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> int | None:
        """SIGTERM (graceful: runs in flight finish), then SIGKILL after ``timeout``; the exit
        code."""
        proc = self.proc
        _stop_process(proc, signal.SIGTERM, timeout)
        return None if proc is None else proc.returncode


class Balancer:
    """HAProxy with deploy/haproxy.cfg and one ``server`` line per node."""

    def __init__(self, folder: Path, nodes: list[Node], port: int | None = None,
                 check_inter: str = "1s") -> None:  # fmt: skip
        self.folder, self.nodes = folder, nodes
        self.port = port or free_port()
        self.check_inter = check_inter
        self.config = folder / "haproxy.cfg"
        self.socket = folder / "haproxy.sock"
        self.log = folder / "haproxy.log"
        self.proc: subprocess.Popen | None = None
        self.haproxy = find_tool("haproxy", "/usr/sbin")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        servers = "".join(f"    server {n.name} 127.0.0.1:{n.port}\n" for n in self.nodes)
        self.config.write_text(HAPROXY_CFG.read_text() + servers)
        env = {
            **os.environ,
            "CODEBLANKS_BALANCER_BIND": f"127.0.0.1:{self.port}",
            "CODEBLANKS_CHECK_INTER": self.check_inter,
            "CODEBLANKS_HAPROXY_SOCKET": str(self.socket),
        }
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [self.haproxy, "-db", "-f", str(self.config)], env=env, stdin=subprocess.DEVNULL,
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        _wait_port(self.port, 10, "haproxy", self.log)

    def command(self, line: str) -> str:
        """One command on HAProxy's runtime socket (e.g. ``show stat``)."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(str(self.socket))
            s.sendall(line.encode() + b"\n")
            chunks = []
            while chunk := s.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def states(self) -> dict[str, str]:
        """Each node's state as HAProxy sees it: UP, DOWN, "UP 1/2" (rising), ..."""
        lines = self.command("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:] if line]
        return {
            r["svname"]: r["status"]
            for r in rows
            if r.get("pxname") == "nodes" and r["svname"] not in ("BACKEND", "FRONTEND")
        }

    def wait_states(self, want: dict[str, str], timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        states: dict[str, str] = {}
        while time.monotonic() < deadline:
            states = self.states()
            if all(states.get(name) == state for name, state in want.items()):
                return
            time.sleep(0.2)
        raise ClusterError(f"HAProxy sees {states}, not {want} after {timeout:.0f} s")

    def stop(self) -> None:
        _stop_process(self.proc, signal.SIGTERM, 10)
        self.proc = None


class Cluster:
    """PostgreSQL + Redis + N nodes + HAProxy; a context manager that always cleans up."""

    def __init__(
        self,
        nodes: int = 2,
        *,
        database_url: str | None = None,
        cache_url: str | None = None,
        port: int | None = None,
        folder: Path | None = None,
        migrate: bool = True,
        check_inter: str = "1s",
        settings: dict[str, str] | None = None,
    ) -> None:
        self._own_folder = folder is None
        self.folder = Path(folder or tempfile.mkdtemp(prefix="codeblanks-cluster-"))
        self.postgres = None if database_url else Postgres()
        self.redis = None if cache_url else Redis(self.folder / "redis")
        self._database_url, self._cache_url = database_url, cache_url
        self.migrate_first = migrate
        self.settings = settings or {}
        self.secret_key = secrets.token_urlsafe(50)
        self.nodes = [
            Node(f"node{i + 1}", free_port(), {}, self.folder) for i in range(max(1, nodes))
        ]
        self.balancer = Balancer(self.folder, self.nodes, port, check_inter)

    @property
    def url(self) -> str:
        return self.balancer.url

    @property
    def database_url(self) -> str:
        return self._database_url or self.postgres.url()

    @property
    def cache_url(self) -> str:
        return self._cache_url or self.redis.url

    def node_env(self, node: Node) -> dict[str, str]:
        """What every node gets (docs/deploy.md, "Several nodes"): the same database, key and
        cache; HAProxy on 127.0.0.1 is the proxy it trusts for X-Forwarded-For."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CODEBLANKS_", "DJANGO_"))}
        return {
            **env,
            "CODEBLANKS_DATABASE_URL": self.database_url,
            "CODEBLANKS_SECRET_KEY": self.secret_key,
            "CODEBLANKS_CACHE_URL": self.cache_url,
            "CODEBLANKS_FORWARDED_ALLOW_IPS": "127.0.0.1",
            "CODEBLANKS_DATA_DIR": str(self.folder / f"data-{node.name}"),
            # the machine's default slots (8 per core), shared: slots wait on a core, not hold
            # one, and with two a node's runaway loops held them all and queued every grade
            "CODEBLANKS_SANDBOX_SLOTS": str(max(2, 8 * (os.cpu_count() or 1) // len(self.nodes))),
            "CODEBLANKS_METRICS_LISTEN": f"127.0.0.1:{node.metrics_port}",
            "CODEBLANKS_LOG_FORMAT": "json",
            "CODEBLANKS_DRAIN_SECONDS": "2.5",  # HAProxy here: a check a second, out after two
            # the nodes share this one machine's cores: a web process each, unless asked, its
            # threads each on a core of its own where there are enough (web/door/cpus.py)
            "CODEBLANKS_WEB_WORKERS": "1",
            "CODEBLANKS_WEB_CPU": _core(self.nodes.index(node)),
            **self.settings,
        }

    def migrate(self) -> None:
        """docs/deploy.md: once per release, from one place, before the nodes serve it."""
        env = self.node_env(self.nodes[0])
        done = subprocess.run(
            [*codeblanks_command(), "manage", "migrate", "--noinput"],
            env=env, cwd=self.folder, capture_output=True, text=True, timeout=180,
        )  # fmt: skip
        if done.returncode != 0:
            raise ClusterError(f"migrate failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> Cluster:
        if self.postgres:
            self.postgres.start()
            if not self._database_url:
                self.postgres.create_database("codeblanks")
        if self.redis:
            self.redis.start()
        if self.migrate_first:
            self.migrate()
        for node in self.nodes:
            node.env = self.node_env(node)
            node.start()
        self.balancer.start()
        if self.migrate_first:
            with ThreadPoolExecutor(len(self.nodes)) as pool:
                list(pool.map(lambda n: n.wait_health(200), self.nodes))
            self.balancer.wait_states({n.name: "UP" for n in self.nodes})
        return self

    def stop(self) -> None:
        """Everything, in the reverse order; each part even if another fails to stop."""
        steps = [self.balancer.stop, *(n.stop for n in self.nodes)]
        steps += [self.redis.stop] if self.redis else []
        steps += [self.postgres.stop] if self.postgres else []
        for step in steps:
            with contextlib.suppress(Exception):
                step()

    def cleanup(self) -> None:
        """Remove the folders made for this cluster (after ``stop``)."""
        if self.postgres:
            shutil.rmtree(self.postgres.folder, ignore_errors=True)
        if self._own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Cluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=2, help="app nodes to start (2)")
    parser.add_argument("--port", type=int, default=8080, help="the balancer's port (8080)")
    parser.add_argument("--database-url", help="use this PostgreSQL instead of our own")
    parser.add_argument("--cache-url", help="use this Redis instead of our own")
    parser.add_argument("--keep", action="store_true", help="keep the folder (logs) afterwards")
    args = parser.parse_args(argv)
    if not 1 <= args.nodes <= 16:
        parser.error(f"--nodes {args.nodes}: give 1 to 16")
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    cluster = Cluster(args.nodes, database_url=args.database_url, cache_url=args.cache_url,
                      port=args.port)  # fmt: skip
    print(f"starting {args.nodes} node(s) in {cluster.folder} ...", flush=True)
    try:
        with cluster:
            for node in cluster.nodes:
                print(f"  {node.name}: {node.url}  (metrics: {node.metrics_url}, log: {node.log})")
            print(f"  database: {cluster.database_url}", end="")
            print(f"  (log: {cluster.postgres.log})" if cluster.postgres else "")
            print(f"  cache:    {cluster.cache_url}")
            print(f"  haproxy:  log {cluster.balancer.log}, socket {cluster.balancer.socket}")
            print(f"CodeBlanks is served at {cluster.url}/  (Ctrl+C stops everything)", flush=True)
            while not stop:
                time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    except ClusterError as exc:
        print(f"cluster: {exc}", file=sys.stderr)
        return 1
    finally:
        print("stopped.", flush=True)
        if not args.keep:
            cluster.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
