"""`codeblanks serve --workers 2` as it runs for real (door/workers.py): two web processes on one
port, one sandbox and one cache in their parent, a drain on SIGTERM, a dead worker replaced."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from codeblanks.content.catalog import catalog
from codeblanks.sandbox.testing import PATIENCE_S, wait_until

from .ports import free_port

RUN_RATE = 4  # programs a minute for one address, counted by the node, not by a worker
# A course whose sample solution always fails: each grade of its lesson is left unjudged and
# counted as a failed reference, in the worker that graded it.
COURSE = Path(__file__).resolve().parents[1] / "content" / "fixtures" / "valid"
FAILING_SOLUTION = "a = 2\nb = 3\ntotal = a + b\nraise RuntimeError('the sample solution fails')\n"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Node:
    def __init__(self, tmp: Path, **env: str) -> None:
        self.port = free_port()
        self.log = tmp / "node.log"
        environ = {
            k: v
            for k, v in os.environ.items()
            if k not in ("CODEBLANKS_DATABASE_URL", "DJANGO_SETTINGS_MODULE")
            and not k.startswith("CODEBLANKS_CACHE")
        }
        environ.update({"CODEBLANKS_DATA_DIR": str(tmp), "CODEBLANKS_DRAIN_SECONDS": "1", **env})
        cli = Path(sys.executable).with_name("codeblanks")
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [str(cli), "serve", "--port", str(self.port), "--workers", "2"],
                env=environ,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: the test can see every process of it
            )

    def get(self, path: str) -> tuple[int, dict]:
        return self.request(path)

    def request(self, path: str, body: dict | None = None, client: str = "") -> tuple[int, dict]:
        """One request on a connection of its own (the kernel picks the worker each time);
        ``client``: the address it is from, as a trusted proxy would say."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Connection": "close"}
        if client:
            headers["X-Forwarded-For"] = client
        ask = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, headers=headers
        )
        try:
            with DIRECT.open(ask, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"{}")

    def answering(self) -> int | None:
        """The pid of the worker that answered /healthz 200, None if none did."""
        try:
            status, body = self.get("/healthz")
        except OSError:
            return None
        return body.get("worker") if status == 200 else None

    def group(self) -> set[int]:
        """Every live process of the node's group (the node, its workers, its sandbox's)."""
        found = set()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.getpgid(int(entry.name)) == self.proc.pid:
                        state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                        if state != "Z":
                            found.add(int(entry.name))
                except (ProcessLookupError, FileNotFoundError):
                    continue
        return found

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def _both_workers(node: Node) -> set[int]:
    seen: set[int] = set()

    def two() -> bool:
        assert node.proc.poll() is None, node.output()
        if (worker := node.answering()) is not None:
            seen.add(worker)
        return len(seen) == 2

    wait_until(two, "both workers answered /healthz")
    return seen


@pytest.fixture(scope="module")
def node(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("workers")
    failing = tmp / "courses" / "failing"
    shutil.copytree(COURSE, failing)
    (failing / "01-sum" / "solution.py").write_text(FAILING_SOLUTION)
    metrics_port = free_port()
    running = Node(
        tmp,
        CODEBLANKS_RUN_RATE=str(RUN_RATE),
        CODEBLANKS_FORWARDED_ALLOW_IPS="127.0.0.1",  # each test its own client address
        CODEBLANKS_COURSES=str(failing),
        CODEBLANKS_METRICS_LISTEN=f"127.0.0.1:{metrics_port}",
    )
    running.metrics_port = metrics_port
    try:
        _both_workers(running)
        yield running
    finally:
        running.stop()


def test_two_workers_answer_and_a_graded_run_passes(node):
    lesson = next(iter(catalog().lessons()))
    status, graded = node.request(
        f"/api/lessons/{lesson.id}/grade", {"code": lesson.exercise.solution}, client="10.0.0.1"
    )
    assert status == 200, graded
    assert graded["verdict"] == "correct", graded
    status, health = node.get("/healthz")
    assert status == 200 and health["sandbox"] == "ok"


def _metric(node: Node, name: str) -> float:
    """The sum of ``name``'s samples on the node's metrics port, over all their labels (0
    before anything was counted)."""
    with DIRECT.open(f"http://127.0.0.1:{node.metrics_port}/metrics", timeout=60) as r:
        text = r.read().decode()
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith((name + " ", name + "{"))
    )


def test_the_nodes_metrics_count_what_every_worker_graded(node):
    """The grades happen in the workers and the metrics port is the parent's: each failed
    reference is counted in the worker that met it, and the port serves the sum (it used to
    serve the parent's own count, always 0)."""
    before = _metric(node, "codeblanks_reference_failures_total")
    requests_before = _metric(node, "codeblanks_requests_total")
    code = "a = 2\nb = 3\ntotal = a + b\nprint(total)\n"
    grades = 4  # each on a connection of its own: the kernel spreads them over the workers
    for i in range(grades):
        status, graded = node.request("/api/lessons/sum-two/grade", {"code": code}, f"10.0.2.{i}")
        assert graded.get("verdict") == "sandbox-error", (status, graded)
    assert _metric(node, "codeblanks_reference_failures_total") == before + grades
    assert _metric(node, "codeblanks_requests_total") >= requests_before + grades


def test_the_run_rate_is_the_nodes_not_each_workers(node):
    """Each request on a connection of its own, so the kernel spreads them over both workers:
    with a count per worker, 2 * RUN_RATE would pass. The rate is counted by the minute: a
    burst that crossed into the next minute is tried again from a fresh address."""
    for attempt in range(3):
        minute = int(time.time() // 60)
        client = f"10.0.1.{attempt}"
        answers = [
            node.request("/api/run", {"code": "print(1)"}, client=client)
            for _ in range(2 * RUN_RATE)
        ]
        if int(time.time() // 60) == minute:
            break
    statuses = [status for status, _ in answers]
    assert statuses == [200] * RUN_RATE + [429] * RUN_RATE, answers
    assert {body["error"] for status, body in answers if status == 429} == {"rate-limited"}


def test_sighup_replaces_every_worker_and_the_node_never_stops_answering(node):
    old = _both_workers(node)
    node.proc.send_signal(signal.SIGHUP)
    answers: list[tuple[int, int | None]] = []
    new: set[int] = set()

    def replaced() -> bool:
        status, body = node.get("/healthz")  # a refused connection would raise here
        answers.append((status, body.get("worker")))
        if status == 200 and body["worker"] not in old:
            new.add(body["worker"])
        gone = not old & node.group()
        return len(new) == 2 and gone

    # Two workers start one after the other: twice the patience of one.
    wait_until(replaced, "two new workers answer and the old ones have exited", 2 * PATIENCE_S)
    assert {status for status, _ in answers} == {200}, answers
    assert "stopping: /healthz answers 503" not in node.output()  # retired, not drained


def test_a_worker_that_dies_is_replaced(node):
    first = _both_workers(node)
    victim = min(first)
    os.kill(victim, signal.SIGKILL)
    now: set[int] = set()

    def replaced() -> bool:
        if (worker := node.answering()) is not None and worker not in first:
            now.add(worker)
        return bool(now)

    wait_until(replaced, "a new worker answered in place of the one killed")
    assert now.pop() != victim
    assert victim not in node.group()


def test_sigterm_drains_every_worker_and_leaves_nothing_behind(tmp_path):
    """Nothing: no worker, and none of the processes a worker started (the pool that reads
    programs and its fork server, started by the grades)."""
    node = Node(tmp_path)
    try:
        workers = _both_workers(node)
        lesson = next(iter(catalog().lessons()))
        for _ in range(4):  # on connections of their own: both workers, most likely
            status, graded = node.request(
                f"/api/lessons/{lesson.id}/grade", {"code": lesson.exercise.solution}
            )
            assert status == 200 and graded["verdict"] == "correct", graded
        node.proc.send_signal(signal.SIGTERM)
        wait_until(lambda: node.get("/healthz")[0] == 503, "/healthz answers 503 (stopping)")
        assert node.proc.wait(timeout=120) == 0, node.output()
        wait_until(lambda: not node.group(), "no process of the node is left")
        assert not workers & node.group()
        log = node.output()
        # Each worker drained (draining.py) and ended with nothing in flight.
        assert log.count("stopping: /healthz answers 503") == 2, log
        assert log.count("stopping: nothing left in flight") == 2, log
    finally:
        node.stop()
