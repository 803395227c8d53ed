"""Helpers for the deployment tests: app nodes started with `codeblanks serve` and migrated with
`codeblanks manage migrate`, as an operator would (docs/deploy.md), and an HTTP client with a cookie
jar, like a browser's. Everything talks to 127.0.0.1 only and every wait is bounded."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path

import pytest

from codeblanks.sandbox.testing import PATIENCE_S

# A node imports numpy and starts its sandbox, then its web workers import
# Django and the lessons again, before it is healthy: on a loaded machine that is a minute.
START_TIMEOUT_S = PATIENCE_S
REQUEST_TIMEOUT_S = 30.0  # the first grading of a lesson also computes its reference
STOP_TIMEOUT_S = 10.0
# Straight to 127.0.0.1, whatever http_proxy/https_proxy the environment names.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _tool(script: str, module: str) -> list[str]:
    """The installed console script beside this Python, else the same thing through -m."""
    path = Path(sys.executable).with_name(script)
    return [str(path)] if path.exists() else [sys.executable, "-m", module]


CODEBLANKS = _tool("codeblanks", "codeblanks.cli.main")


def node_env(settings: dict[str, str]) -> dict[str, str]:
    """This process's environment without any CODEBLANKS_*/Django variable, plus ``settings``.
    Each node runs one web process, as deploy/cluster.py places nodes on one machine (several
    nodes, each a core's worth); tests/web/test_workers.py holds a node of several."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CODEBLANKS_", "DJANGO_"))}
    return {**env, "CODEBLANKS_WEB_WORKERS": "1", **settings}


def migrate(env: dict[str, str], cwd: Path) -> None:
    """docs/deploy.md, step 3: once per release, before the nodes serve."""
    done = subprocess.run(
        [*CODEBLANKS, "manage", "migrate", "--noinput"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"migrate failed:\n{done.stdout}\n{done.stderr}"


@dataclass
class Node:
    """One `codeblanks serve` process on 127.0.0.1."""

    name: str
    port: int
    log: Path
    proc: subprocess.Popen = field(repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except FileNotFoundError:
            return ""

    def wait_healthy(self, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        last = "no answer yet"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(
                    f"node {self.name} exited with {self.proc.returncode} before it was "
                    f"healthy; its output:\n{self.output()}"
                )
            try:
                with DIRECT.open(f"{self.url}/healthz", timeout=5) as r:
                    if r.status == 200:
                        return
                    last = f"{r.status} {r.read()[:300]!r}"
            except urllib.error.HTTPError as exc:
                last = f"{exc.code} {exc.read()[:300]!r}"
            except OSError as exc:
                last = repr(exc)
            time.sleep(0.2)
        pytest.fail(
            f"node {self.name} ({self.url}) not healthy after {timeout:.0f} s (last: {last}); "
            f"its output:\n{self.output()}"
        )

    def stop(self) -> None:
        """SIGTERM (uvicorn shuts down gracefully), then SIGKILL; the node runs in a process
        group of its own, so nothing it started outlives it."""
        if self.proc.poll() is None:
            _signal_group(self.proc, signal.SIGTERM)
            try:
                self.proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                _signal_group(self.proc, signal.SIGKILL)
                self.proc.wait(timeout=STOP_TIMEOUT_S)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)  # start_new_session: the group's id is the node's pid


@dataclass
class Response:
    status: int
    body: str
    headers: Message  # read without regard to case, as HTTP names are (None when absent)

    def json(self):
        return json.loads(self.body)


class _NoRaise(urllib.request.HTTPErrorProcessor):
    """Hand back every response as it is: 4xx/5xx are answers to check, redirects not followed."""

    def http_response(self, request, response):
        return response


class Browser:
    """An HTTP client with one cookie jar, like a browser talking to several nodes through one
    load balancer (cookies do not depend on the port)."""

    def __init__(self) -> None:
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),
            urllib.request.HTTPCookieProcessor(self.cookies),
            _NoRaise(),
        )

    def request(self, method, url, data=None, headers=None) -> Response:
        if isinstance(data, dict):
            data = urllib.parse.urlencode(data).encode()
            headers = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
        with self.opener.open(req, timeout=REQUEST_TIMEOUT_S) as r:
            return Response(r.status, r.read().decode("utf-8", "replace"), r.headers)

    def get(self, url, **kw) -> Response:
        return self.request("GET", url, **kw)

    def post(self, url, data=None, **kw) -> Response:
        return self.request("POST", url, data=data, **kw)


def csrf_token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, "no CSRF token in the page"
    return found.group(1)
