"""One core for the web process's threads (web/door/cpus.py, ``CODEBLANKS_WEB_CPU``): a real
``codeblanks serve`` keeps every thread of its one process on one core, and the sandbox's
processes on every core it was given."""

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

import codeblanks
from codeblanks.sandbox.testing import wait_until
from codeblanks.sandbox.workers import _start_worker
from codeblanks.web.config import ConfigError, from_env
from codeblanks.web.door.cpus import chosen, claimed

from .ports import free_port

CPUS = frozenset(os.sched_getaffinity(0))
COURSE = Path(codeblanks.__file__).parent / "courses/python-from-the-first-line"
FIRST = COURSE / "01-print-and-variables"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def test_auto_takes_a_core_by_the_port_where_there_are_two_or_more():
    assert chosen("auto", 8001, frozenset({0, 1})) == 1
    assert chosen("auto", 8002, frozenset({0, 1})) == 0
    assert chosen("auto", 8003, frozenset({2, 5, 7})) == 7
    assert chosen("auto", 8001, frozenset({3})) is None  # one core: nothing to keep
    assert chosen("off", 8001, frozenset({0, 1})) is None
    assert chosen("0", 8001, frozenset({0, 1})) == 0


def test_nodes_of_one_machine_take_a_core_each_while_there_are_cores(tmp_path):
    """Under "auto" a node's core is the port's unless another node holds it; a node that ends
    lets its core go; with every core held the port's again; a named core is never claimed."""
    two, folder = frozenset({0, 1}), str(tmp_path)
    with (
        claimed("auto", 8000, two, folder) as first,
        claimed("auto", 8002, two, folder) as second,
        claimed("auto", 8004, two, folder) as third,
    ):
        assert (first, second, third) == (0, 1, 0)
    with claimed("auto", 8000, two, folder) as first:
        with claimed("auto", 8001, two, folder) as second:  # its own, still free
            assert (first, second) == (0, 1)
        with claimed("auto", 8002, two, folder) as again:  # the one the last node let go
            assert again == 1
    with claimed("1", 8000, two, folder) as named, claimed("1", 8002, two, folder) as twice:
        assert (named, twice) == (1, 1)
    with claimed("auto", 8000, two, folder) as free:  # nothing left held
        assert free == 0
    with claimed("off", 8000, two, folder) as none, claimed("auto", 8000, frozenset({3})) as one:
        assert (none, one) == (None, None)


def test_a_core_the_process_may_not_use_is_refused_in_words(tmp_path):
    here = {"CODEBLANKS_DATA_DIR": str(tmp_path)}
    with pytest.raises(ConfigError, match=r"CODEBLANKS_WEB_CPU='9999': use auto, off or one of"):
        from_env({**here, "CODEBLANKS_WEB_CPU": "9999"})
    with pytest.raises(ConfigError, match="CODEBLANKS_WEB_CPU='fast'"):
        from_env({**here, "CODEBLANKS_WEB_CPU": "fast"})
    assert from_env(here).web_cpu == "auto"
    assert from_env({**here, "CODEBLANKS_WEB_CPU": " OFF "}).web_cpu == "off"


def test_a_reader_starts_even_where_none_of_the_nodes_cores_is_left():
    """A reading worker given only cores that are gone (a container's cpuset shrank) keeps the
    ones it has: failing to start would fail the reading of every long program."""
    before = os.sched_getaffinity(0)
    _start_worker(0, [4000])
    assert os.sched_getaffinity(0) == before


def _allowed(pid: int, task: int | None = None) -> frozenset[int]:
    """The cores a process (or one of its threads) may use; empty once it has ended."""
    try:
        return frozenset(os.sched_getaffinity(task or pid))
    except ProcessLookupError:
        return frozenset()


def _ppid(pid: int) -> int | None:
    """A process's parent; None once it has ended."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (ppid := _ppid(int(entry.name))) is not None:
            children.setdefault(ppid, []).append(int(entry.name))
    found, stack = set(), [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.add(child)
            stack.append(child)
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError):
        return b""


def _every_core_for_the_sandbox(node: int) -> None:
    sandbox = {pid: _allowed(pid) for pid in _descendants(node)}
    assert sandbox, "the node has no sandbox processes"
    assert all(cpus in (CPUS, frozenset()) for cpus in sandbox.values()), sandbox


def graded(port: int) -> bool:
    """Whether the node at ``port`` runs a program (False while it cannot answer yet)."""
    ask = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/run",
        data=json.dumps({"code": "print(6 * 7)"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with DIRECT.open(ask, timeout=60) as answer:
            return json.loads(answer.read()).get("stdout") == "42\n"
    except OSError:
        return False


def _readers(node: int) -> list[int]:
    """The reading pool's workers (sandbox/workers.py): children of its fork server, itself a
    child of the node's process, all of them ``multiprocessing.forkserver``'s command line."""
    pool = [p for p in _descendants(node) if b"forkserver" in _cmdline(p)]
    return [p for p in pool if _ppid(p) not in (node, None)]


def _graded_long(port: int) -> bool:
    """Whether the node grades a lesson's solution too long to read in its own process
    (grading/reading.py, ``READ_HERE_CHARS``): read in the pool's workers."""
    code = FIRST.joinpath("solution.py").read_text() + "# a note kept long on purpose\n" * 120
    ask = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/lessons/py-print-and-variables/grade",
        data=json.dumps({"code": code}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with DIRECT.open(ask, timeout=60) as answer:
        return json.loads(answer.read()).get("verdict") == "correct"


def _serve(tmp: Path, setting: str):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CODEBLANKS_", "DJANGO_"))}
    env.update({"CODEBLANKS_DATA_DIR": str(tmp), "CODEBLANKS_WEB_CPU": setting,
                "CODEBLANKS_DRAIN_SECONDS": "0"})  # fmt: skip
    log = (tmp / "node.log").open("w")
    cli = Path(sys.executable).with_name("codeblanks")
    proc = subprocess.Popen(
        [str(cli), "serve", "--port", str(port), "--workers", "1"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )

    def answering() -> bool:
        assert proc.poll() is None, (tmp / "node.log").read_text()[-3000:]
        return graded(port)

    wait_until(answering, "the node graded a program")
    return proc, port, log


@pytest.mark.skipif(len(CPUS) < 2, reason="one core: there is no other to keep threads off")
@pytest.mark.parametrize("setting", ["auto", "off"])
def test_the_web_threads_keep_one_core_and_the_sandbox_every_core(tmp_path, setting):
    proc, port, log = _serve(tmp_path, setting)
    try:
        said = re.search(r"web threads on core (\d+)", (tmp_path / "node.log").read_text())
        # The port's core, unless another node of this machine holds it (the suite's nodes may:
        # the claims themselves are the test above)
        assert (said is not None) == (setting == "auto")
        tasks = [int(t) for t in os.listdir(f"/proc/{proc.pid}/task")]
        held = {_allowed(proc.pid, t) for t in tasks} - {frozenset()}
        expected = {frozenset({int(said.group(1))})} if said else {CPUS}
        assert held == expected and held <= {frozenset({c}) for c in CPUS} | {CPUS}, (port, held)
        _every_core_for_the_sandbox(proc.pid)
        # A zygote started again is started by a thread that keeps one core: it takes them all
        # back (inside/namespaces.py).
        zygotes = [p for p in _descendants(proc.pid) if b"zygote.py" in _cmdline(p)]
        assert zygotes, "no zygote found"
        for zygote in zygotes:  # the zygote and its children (a child may end meanwhile)
            with contextlib.suppress(ProcessLookupError):
                os.kill(zygote, signal.SIGKILL)
        wait_until(lambda: graded(port), "the node graded a program again")
        restarted = [p for p in _descendants(proc.pid) if b"zygote.py" in _cmdline(p)]
        assert set(restarted) - set(zygotes), "the sandbox graded without a new zygote"
        _every_core_for_the_sandbox(proc.pid)
        # The pool that reads long programs is started by a held thread too: its workers take
        # every core back (sandbox/workers.py).
        assert _graded_long(port), (tmp_path / "node.log").read_text()[-3000:]
        readers = _readers(proc.pid)
        assert readers, "no reading worker found"
        assert {_allowed(p) for p in readers} - {frozenset()} == {CPUS}, readers
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
