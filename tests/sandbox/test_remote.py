"""A web worker's runs through the node's socket (sandbox/remote.py) to a real sandbox: what
comes back is what the sandbox gave, values and the caller's ``stop`` included."""

from __future__ import annotations

import asyncio
import json
import socket
import threading

import numpy as np
import pytest

from codeblanks import inline
from codeblanks.sandbox import remote
from codeblanks.sandbox.result import RunLimits, RunRequest, RunResult
from codeblanks.sandbox.service import cpu_tally

FAST = RunLimits(wall_s=2.0, cpu_s=2.0)


@pytest.fixture
def parent(sandbox, tmp_path):
    """The parent's side, as door/workers.py serves it: a thread per connection."""
    path = str(tmp_path / "node.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(8)

    def answer(conn):
        with conn:
            remote.answer_run(sandbox, conn, remote.receive(conn))

    def accept():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield remote.RemoteSandbox(path, sandbox.slots)
    listener.shutdown(socket.SHUT_RDWR)
    listener.close()


def test_a_run_and_its_values_cross_whole(parent):
    code = "import numpy as np\nA = np.arange(6).reshape(2, 3) * 1.5\nB = {'k': 1}\nprint('hi')"
    with cpu_tally() as used:
        (result,) = asyncio.run(
            parent.arun_cases(RunRequest((code,), limits=FAST, capture=("A", "B")))
        )
    assert result.verdict == "ok" and result.stdout == "hi\n"
    assert isinstance(result.values["A"], np.ndarray)
    np.testing.assert_array_equal(result.values["A"], np.arange(6).reshape(2, 3) * 1.5)
    assert json.loads(result.values["B"]) == {"$": "dict", "v": [["k", 1]]}  # lessontest's JSON
    assert used == [result.cpu_ms / 1000]  # the web's CPU meter is charged in the worker


def test_driven_on_a_thread_a_run_goes_through_the_socket_there(parent):
    """The page's Run drives the tutor in its site thread (codeblanks.inline): a worker's run
    then talks to the parent from that thread, with no event loop, and comes back the same."""
    request = RunRequest(("print('hi')", "print('again')"), limits=FAST, stop=lambda i, r: False)
    results = inline.drive(parent.arun_cases(request))
    assert [(r.verdict, r.stdout) for r in results] == [("ok", "hi\n"), ("ok", "again\n")]


def test_an_array_crosses_without_a_syntax_tree(monkeypatch):
    """``np.load`` reads a header with ``ast.literal_eval``, outside the lock CPython 3.11
    needs around syntax trees (content/pysource.py): under a crowd of workers one Run failed
    with "AST constructor recursion depth mismatch". The worker reads the parent's arrays as
    the sandbox reads a child's, without one."""

    def no_tree(*args, **kwargs):
        raise SystemError("AST constructor recursion depth mismatch (before=111, after=26)")

    monkeypatch.setattr("ast.literal_eval", no_tree)
    sent = RunResult(verdict="ok", values={"A": np.arange(6.0).reshape(2, 3), "B": "x"})
    got = remote.decode_result(json.loads(json.dumps(remote.encode_result(sent))))
    np.testing.assert_array_equal(got.values["A"], np.arange(6.0).reshape(2, 3))
    assert got.values["B"] == "x"


def test_the_callers_stop_is_asked_after_each_case(parent):
    asked = []

    def stop(index, result):
        asked.append((index, result.stdout))
        return index == 1

    codes = ("print(0)", "print(1)", "print(2)")
    results = parent.run_request(RunRequest(codes, limits=FAST, stop=stop))
    assert [r.stdout for r in results] == ["0\n", "1\n"]
    assert asked[:2] == [(0, "0\n"), (1, "1\n")]


def test_a_parent_that_is_gone_is_a_sandbox_error_not_an_exception(tmp_path):
    gone = remote.RemoteSandbox(str(tmp_path / "nobody.sock"), 1)
    assert gone.run("print(1)").verdict == "sandbox-error"
    (result,) = asyncio.run(gone.arun_cases(RunRequest(("print(1)",))))
    assert result.verdict == "sandbox-error"
