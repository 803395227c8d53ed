"""What the benchmarks that talk to a real node share (crowd.py, capacity.py, api_run.py,
cluster.py): ``codeblanks serve`` started as a process of its own (from this tree or from a
checkout of another commit), a small keep-alive HTTP/1.1 client with cookies, and the CPU of
the server's whole process tree read from /proc.

The client runs in the benchmark's process; the server is a separate process tree (serve ->
the sandbox's launcher -> zygote -> children), so the server's CPU from /proc never includes
the client's, and every request crosses a real loopback socket and uvicorn's HTTP layer.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from codeblanks.sandbox.idle import read_stat

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
# The crowd is one machine: no per-address limits (the rate, the CPU meter, runs at once).
UNLIMITED = {
    "CODEBLANKS_RUN_RATE": "0",
    "CODEBLANKS_RUN_CPU_PER_MINUTE": "0",
    "CODEBLANKS_RUNS_AT_ONCE": "0",
}


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def deploy_module():
    """deploy/cluster.py, the operator's script, imported by its path (it is not a package)."""
    name = "codeblanks_cluster"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "deploy" / "cluster.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def free_port() -> int:
    """Below the kernel's ephemeral range, where no outgoing connection takes it (see there)."""
    return deploy_module().free_port()


def source_address(n: int) -> str:
    """Learner ``n``'s own loopback address (127.x.y.z are all this machine's): the sandbox
    shares itself between client addresses, and a real crowd does not come from one."""
    return f"127.{n // 65536 % 256 + 1}.{n // 256 % 256}.{n % 256}"


# ---- the server's CPU, from /proc ------------------------------------------------------------


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def tree_pids(pid: int) -> list[int]:
    """``pid`` and every live descendant (through /proc/<pid>/task/*/children)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                with contextlib.suppress(OSError):
                    todo += [int(k) for k in (task / "children").read_text().split()]
    return found


def tree_cpu_ms(pid: int) -> float:
    """utime + stime + cutime + cstime of every live process of ``pid``'s tree, in ms: a process
    is counted while it lives, and in its parent's reaped-children time once reaped, so the
    difference of two samples is what the whole tree used between them."""
    used = 0
    for p in tree_pids(pid):
        with contextlib.suppress(OSError, IndexError):
            fields = _stat(p)
            used += sum(int(fields[i]) for i in (11, 12, 13, 14))
    return used * 1000 / TICK


def machine_cpu() -> tuple[int, int]:
    """(busy, all) jiffies of every core from /proc/stat: the whole machine (the client, the
    nodes and anything else), so a figure can say how loaded the machine was while it was made."""
    idle, total = read_stat(Path("/proc/stat").read_text())
    return total - idle, total


def busy_share(before: tuple[int, int]) -> float:
    """The machine's busy share of its CPU since ``before`` (a ``machine_cpu()``)."""
    (busy0, all0), (busy1, all1) = before, machine_cpu()
    return (busy1 - busy0) / max(all1 - all0, 1)


# ---- a node ----------------------------------------------------------------------------------


@dataclass
class Served:
    url: str
    pid: int  # the serve process: the root of the server's tree
    data: str
    label: str

    def cpu_ms(self) -> float:
        return tree_cpu_ms(self.pid)

    def own_cpu_ms(self) -> float:
        """The serve process's own utime + stime (every thread of it: the web side while it
        is one process), without its children."""
        fields = _stat(self.pid)
        return (int(fields[11]) + int(fields[12])) * 1000 / TICK


@contextlib.contextmanager
def serve(
    src: Path | None = None,
    label: str = "this tree",
    env: dict | None = None,
    python: str | None = None,
):
    """``codeblanks serve`` on a free loopback port with SQLite in a temporary directory and the
    rate limit off (the caller's other CODEBLANKS_* settings pass on), from ``src`` (a tree's
    ``src/`` folder: this one by default, or a checkout of another commit), run with ``python``
    (this virtualenv's by default); stopped at the end, its logged errors and warnings printed
    (``_report_log``)."""
    src = src or ROOT / "src"
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="codeblanks-bench-") as data:
        full_env = {
            # The caller's settings pass on (CODEBLANKS_SANDBOX_WARM_UP=never ...), not its
            # database: the node's is its own.
            **{k: v for k, v in os.environ.items() if k != "CODEBLANKS_DATABASE_URL"},
            "CODEBLANKS_DATA_DIR": data,
            **UNLIMITED,
            "PYTHONPATH": str(src),
            **(env or {}),
        }
        log = open(Path(data) / "serve.log", "wb")  # noqa: SIM115 (closed below)
        proc = subprocess.Popen(
            [python or sys.executable, "-m", "codeblanks.cli.main", "serve", "--port", str(port)],
            env=full_env,
            cwd=data,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                if proc.poll() is not None:
                    raise SystemExit(f"codeblanks serve ({label}) exited:\n{_tail(data)}")
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                    break
                time.sleep(0.2)
            else:
                raise SystemExit(
                    f"codeblanks serve ({label}) did not start in 90 s:\n{_tail(data)}"
                )
            yield Served(url, proc.pid, data, label)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()
            _report_log(data, label, proc.pid)


def _report_log(data: str, label: str, pid: int) -> None:
    """Print what the node logged beyond its request lines, read from the whole log (a crowd's
    node writes tens of MB of them): its errors, and its warnings except the stop's own. When there
    are any, the log is kept outside the node's folder, which goes with it, and its path said."""
    errors: collections.deque[str] = collections.deque(maxlen=20)
    warnings: collections.deque[str] = collections.deque(maxlen=20)
    counts = collections.Counter[str]()
    path = Path(data) / "serve.log"
    with contextlib.suppress(OSError), path.open(errors="replace") as lines:
        for line in lines:
            if "Traceback" in line or '"level": "error"' in line or line.startswith("ERROR"):
                errors.append(line.rstrip()[:4000])
                counts["errors"] += 1
            elif '"level": "warning"' in line and '"message": "stopping:' not in line:
                warnings.append(line.rstrip()[:4000])
                counts["warnings"] += 1
    for kind, found in (("errors", errors), ("warnings", warnings)):
        if found:  # the node's own errors count too
            shown = f", the last {len(found)}" if counts[kind] > len(found) else ""
            print(f"the node ({label}) logged {counts[kind]} {kind}{shown}:\n" + "\n".join(found))
    if errors or warnings:
        kept = Path(tempfile.gettempdir()) / f"codeblanks-bench-node-{pid}.log"
        with contextlib.suppress(OSError):
            shutil.copyfile(path, kept)
            print(f"the node's ({label}) whole log is kept in {kept}")


def _tail(data: str, size: int = 2000) -> str:
    with contextlib.suppress(OSError):
        return (Path(data) / "serve.log").read_text(errors="replace")[-size:]
    return ""


@contextlib.contextmanager
def checkout(commit: str) -> Iterator[Path]:
    """``git archive COMMIT`` unpacked in a temporary folder, its translations compiled as
    ``make install`` does; yields its ``src/`` (to run with this virtualenv)."""
    with tempfile.TemporaryDirectory(prefix="codeblanks-baseline-") as folder:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        src = Path(folder) / "src"
        subprocess.run(
            [sys.executable, "-m", "codeblanks.i18n"],
            env={**os.environ, "PYTHONPATH": str(src)},
            cwd=folder,
            capture_output=True,
            check=False,
        )
        yield src


@dataclass(frozen=True)
class Tree:
    """Code to serve: its ``src/`` folder, the interpreter to run it with, and a label."""

    src: Path
    python: str
    label: str


@contextlib.contextmanager
def baseline(spec: str) -> Iterator[Tree]:
    """The tree to compare with: ``spec`` is a folder (another checkout, run with its own
    ``.venv`` when it has one, else with this virtualenv) or a commit (``checkout``)."""
    folder = Path(spec)
    if (folder / "src" / "codeblanks").is_dir():
        venv = folder / ".venv" / "bin" / "python"
        python = str(venv) if venv.exists() else sys.executable
        yield Tree(folder / "src", python, f"baseline {folder}")
        return
    with checkout(spec) as src:
        yield Tree(src, sys.executable, f"baseline {spec[:10]}")


def describe(commit: str, where: Path = ROOT) -> str:
    if (Path(commit) / "src").is_dir():
        where, commit = Path(commit), "HEAD"
    done = subprocess.run(
        ["git", "-C", str(where), "log", "-1", "--format=%h %s", commit],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip()[:70] or commit


# ---- a minimal HTTP/1.1 client (keep-alive, one connection per learner) ----------------------


class Connection:
    """One keep-alive connection from ``source`` (a local address, None: any); with
    ``cookies``, it keeps the cookies the server sets and sends them back, as a browser does."""

    def __init__(self, base_url: str, source: str | None = None, cookies: bool = False) -> None:
        url = urllib.parse.urlsplit(base_url)
        self.host, self.port = url.hostname or "127.0.0.1", url.port or 80
        self.source = source
        self.prefix = url.path.rstrip("/")
        self.cookies: dict[str, str] | None = {} if cookies else None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict | None = None
    ) -> tuple[int, bytes]:
        for attempt in (0, 1):  # a kept-alive connection the server closed: open a new one
            if self.writer is None:
                local = (self.source, 0) if self.source else None
                self.reader, self.writer = await asyncio.open_connection(
                    self.host, self.port, local_addr=local
                )
            head = [f"{method} {self.prefix}{path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
            head += [f"{k}: {v}" for k, v in (headers or {}).items()]
            if self.cookies:
                head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
            head += [f"Content-Length: {len(body)}", "", ""]
            try:
                self.writer.write("\r\n".join(head).encode() + body)
                await self.writer.drain()
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt:
                    raise
        raise AssertionError

    async def _response(self) -> tuple[int, bytes]:
        assert self.reader is not None
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        parts = status_line.split()
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
            # out of step with the server (an answer read short): the caller drops the connection
            raise ValueError(f"not an HTTP status line: {status_line[:100]!r}")
        status = int(parts[1])
        length: int | None = None
        close = chunked = False
        while (line := await self.reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif name == "connection" and value.lower() == "close":
                close = True
            elif name == "set-cookie" and self.cookies is not None:
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        if chunked:
            body = await self._chunks()
        elif length is None and status >= 200 and status not in (204, 304):
            body, close = await self.reader.read(), True  # the body runs to the close
        else:
            body = await self.reader.readexactly(length or 0)
        if close:
            await self.close()
        return status, body

    async def _chunks(self) -> bytes:
        assert self.reader is not None
        body = b""
        while size := int((await self.reader.readline()).split(b";")[0].strip() or b"0", 16):
            body += await self.reader.readexactly(size)
            await self.reader.readline()  # the chunk's CRLF
        while (await self.reader.readline()) not in (b"\r\n", b"\n", b""):  # trailers
            pass
        return body

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None
