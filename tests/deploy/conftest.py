"""Fixtures for the deployment tests: a fresh PostgreSQL database, a Redis database of our own,
and `codeblanks serve` nodes that are always stopped. Both skip, saying so, only when nothing
answers on 127.0.0.1 (PostgreSQL on 5432, Redis on 6379)."""

from __future__ import annotations

import os
import secrets
import subprocess
import urllib.parse

import pytest

# tests/web/ports.py: the one way a test picks a port, and deploy/cluster.py as a module.
from web.ports import cluster_module as load_cluster_module
from web.ports import free_port

from .nodes import CODEBLANKS, Node

# The PostgreSQL server: the one the suite runs on (`make test` sets CODEBLANKS_DATABASE_URL),
# else CI's. The test makes a database of its own there and drops it afterwards.
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
# A Redis database number nothing else here uses; flushed before and after.
REDIS_URL = "redis://127.0.0.1:6379/13"


def _server_url() -> str:
    url = os.environ.get("CODEBLANKS_DATABASE_URL", "")
    return url if url.startswith(("postgresql:", "postgres:")) else DEFAULT_PG


@pytest.fixture
def pg_url():
    """A fresh, empty PostgreSQL database (its URL); dropped afterwards."""
    import psycopg
    from psycopg import sql

    server = _server_url()
    try:
        admin = psycopg.connect(server, connect_timeout=3, autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"no PostgreSQL answers at {server} ({str(exc).strip()[:200]})")
    name = f"codeblanks_multinode_{secrets.token_hex(4)}"
    with admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            parts = urllib.parse.urlsplit(server)
            yield urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
        finally:
            # FORCE: a node killed mid-request may leave a connection behind (PostgreSQL 13+).
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@pytest.fixture
def redis_url():
    """A Redis database of our own, empty before and after the test (its URL)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_timeout=3, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.skip(f"no Redis answers at {REDIS_URL} ({exc})")
    client.flushdb()
    try:
        yield REDIS_URL
    finally:
        client.flushdb()
        client.close()


# No balancer watches these nodes: without the drain (5 s by default) a node stops at once.
NO_DRAIN = {"CODEBLANKS_DRAIN_SECONDS": "0"}


@pytest.fixture
def start_node(tmp_path):
    """``start_node(name, env) -> Node``: `codeblanks serve` on a free loopback port."""
    started: list[Node] = []

    def start(name: str, env: dict[str, str]) -> Node:
        port = free_port()
        log = tmp_path / f"{name}.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [*CODEBLANKS, "serve", "--host", "127.0.0.1", "--port", str(port)],
                env={**NO_DRAIN, **env},
                cwd=tmp_path,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        node = Node(name, port, log, proc)
        started.append(node)
        return node

    try:
        yield start
    finally:
        for node in started:
            node.stop()


@pytest.fixture(scope="session")
def cluster_module():
    """The deploy script's module; skips, naming what is missing, without its tools."""
    module = load_cluster_module()
    try:
        for tool, dirs in (("initdb", ("/usr/lib/postgresql/*/bin",)), ("haproxy", ("/usr/sbin",))):
            module.find_tool(tool, *dirs)
        module.find_tool("redis-server")
    except module.ClusterError as missing:
        pytest.skip(str(missing))
    return module
