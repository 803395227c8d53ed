"""The deployment of docs/deploy.md, started by deploy/cluster.py: its own PostgreSQL and Redis,
two `codeblanks serve` nodes, and the real HAProxy in front with deploy/haproxy.cfg. Each fault
happens while simulated learners work through the balancer (learners.py), and afterwards every
learner still finds what the site acknowledged: lost acknowledgements must be 0, and every error
a learner saw must say what happened in words."""

from __future__ import annotations

import json
import re
import signal
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from codeblanks.sandbox.testing import wait_until

from .learners import Crowd
from .nodes import Browser

pytestmark = pytest.mark.cluster

AGAIN = "shared cache .* answers again"
ROUTE_AROUND_S = 5.0  # HAProxy checks every second and takes a node out after two failures


@pytest.fixture(scope="module")
def cluster(cluster_module, tmp_path_factory):
    folder = tmp_path_factory.mktemp("cluster")
    # Rate limits on (so Redis is used by every run) but far above what the learners do.
    limits = {
        "CODEBLANKS_RUN_RATE": "100000",
        "CODEBLANKS_RUN_CPU_PER_MINUTE": "86400",
        "CODEBLANKS_RUN_CPU_BURST": "86400",
        "CODEBLANKS_RUNS_AT_ONCE": "100000",
    }
    deployment = cluster_module.Cluster(2, folder=folder, settings=limits)
    with deployment:
        yield deployment
    deployment.cleanup()


@pytest.fixture
def whole(cluster):
    """The cluster with every part running and both nodes in the balancer, whatever the test
    before did to it."""
    if cluster.redis.proc is None:
        cluster.redis.start()
    for node in cluster.nodes:
        if node.proc is None or node.proc.poll() is not None:
            node.start()
    for node in cluster.nodes:
        node.wait_health(200)
    cluster.balancer.wait_states({n.name: "UP" for n in cluster.nodes})
    return cluster


def _log_lines(node, pattern: str) -> list[str]:
    return [
        line
        for line in node.log.read_text(errors="replace").splitlines()
        if re.search(pattern, line)
    ]


def _assert_errors_in_words(crowd: Crowd) -> None:
    unclear = [e for e in crowd.errors() if not e.words]
    assert not unclear, f"errors a learner could not read: {unclear[:3]}"


def test_the_balancer_serves_both_nodes(whole):
    browser = Browser()
    answers = [
        browser.post(f"{whole.url}/api/run", json.dumps({"code": "print(6 * 7)"}).encode())
        for _ in range(6)
    ]
    assert [a.status for a in answers] == [200] * 6
    assert all(a.json()["stdout"] == "42\n" for a in answers)
    # Both nodes served some: HAProxy spreads the requests (leastconn, ties in turn).
    served = {n.name: len(_log_lines(n, r"/api/run")) for n in whole.nodes}
    assert all(served.values()), f"requests per node: {served}"
    home = browser.get(f"{whole.url}/")
    assert home.status == 200 and "CodeBlanks" in home.body


def test_a_killed_node_is_routed_around_and_nothing_acknowledged_is_lost(whole):
    victim, survivor = whole.nodes
    with Crowd(whole.url) as crowd:
        crowd.wait_working()
        victim.kill()
        whole.balancer.wait_states(
            {victim.name: "DOWN", survivor.name: "UP"}, timeout=ROUTE_AROUND_S
        )
        out = time.monotonic()
        # The learners go on, on the survivor alone.
        wait_until(lambda: crowd.acks_between(out + 0.5) >= 5, "runs served by the survivor")
    assert crowd.acks_between(out) > 0, "nobody was served after the node was taken out"
    assert not crowd.errors(since=out + 0.5), "errors after the balancer routed around the node"
    _assert_errors_in_words(crowd)
    assert crowd.lost() == []


@pytest.mark.restarts_services
def test_a_postgresql_restart_fails_in_words_and_the_nodes_reconnect(whole):
    node = whole.nodes[0]
    with Crowd(whole.url) as crowd:
        crowd.wait_working()
        whole.postgres.stop()
        down = time.monotonic()
        try:
            # Straight to a node during the gap: a page in words, JSON for the API, which runs.
            browser = crowd.learners[0].browser  # signed up: its session is in the database
            page = browser.get(f"{node.url}/progress/")
            assert page.status == 503, page.body[:500]
            assert "database is not answering" in page.body and page.headers["Retry-After"]
            run = browser.post(f"{node.url}/api/run", json.dumps({"code": "print(1)"}).encode())
            assert run.status == 200 and run.json()["stdout"] == "1\n"
            assert node.health()[0] == 503
            wait_until(lambda: crowd.errors(since=down), "the learners meet the gap")
        finally:
            whole.postgres.start()
        # Nobody restarts a node: they find the database again by themselves.
        for n in whole.nodes:
            n.wait_health(200, timeout=20)
        whole.balancer.wait_states({n.name: "UP" for n in whole.nodes}, timeout=20)
        back = time.monotonic()
        wait_until(lambda: crowd.acks_between(back) > 0, "a learner served after the gap")
    assert crowd.errors(since=down), "the learners did not meet the gap"
    _assert_errors_in_words(crowd)
    assert crowd.acks_between(back) > 0, "no learner was served after the database came back"
    assert crowd.lost() == []


@pytest.mark.restarts_services
def test_redis_stopped_runs_go_on_and_the_gap_is_logged_once(whole):
    with Crowd(whole.url) as crowd:
        crowd.wait_working()
        whole.redis.stop()
        gone = time.monotonic()
        wait_until(lambda: crowd.acks_between(gone) >= 6, "six runs answered while Redis is away")
        whole.redis.start()
        for node in whole.nodes:
            wait_until(lambda n=node: _log_lines(n, AGAIN), f"{node.name} finds Redis again")
    assert crowd.errors(since=gone) == [], "a learner saw an error while Redis was away"
    assert crowd.lost() == []
    for node in whole.nodes:
        assert len(_log_lines(node, "shared cache .* is not answering")) == 1, node.name
        assert len(_log_lines(node, AGAIN)) == 1, node.name


def test_a_node_started_before_the_migrations_stays_out(cluster_module, tmp_path):
    fresh = cluster_module.Cluster(1, folder=tmp_path, migrate=False)
    with fresh:
        node = fresh.nodes[0]
        body = node.wait_health(503)
        assert json.loads(body)["database"] == "not migrated"
        time.sleep(2.5)  # several health checks
        assert fresh.balancer.states() == {node.name: "DOWN"}
        browser = Browser()
        page = browser.get(f"{fresh.url}/")
        assert page.status == 503 and "back in a moment" in page.body
        turkish = browser.get(f"{fresh.url}/", headers={"Accept-Language": "tr-TR,tr;q=0.9"})
        assert turkish.status == 503 and "birazdan geri dönecek" in turkish.body
        asked = browser.get(f"{fresh.url}/?lang=en", headers={"Accept-Language": "tr"})
        assert "back in a moment" in asked.body  # ?lang= beats the browser, as on the nodes
        asked = browser.get(f"{fresh.url}/?lang=tr")
        assert "<html lang=tr>" in asked.body
        api = browser.post(f"{fresh.url}/api/run", json.dumps({"code": "print(1)"}).encode())
        assert api.status == 503 and api.json()["error"] == "unavailable"
        fresh.migrate()
        node.wait_health(200, timeout=20)
        fresh.balancer.wait_states({node.name: "UP"}, timeout=10)
        assert browser.get(f"{fresh.url}/").status == 200
    fresh.cleanup()


def _json_lines(node) -> list[dict]:
    lines = []
    for line in node.log.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def _metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} ([0-9.e+]+)$", text, re.M)
    assert found, f"no {name} in the metrics"
    return float(found.group(1))


def test_operators_see_metrics_apart_and_json_logs_with_one_request_id(whole):
    node = whole.nodes[0]
    browser = Browser()
    answer = browser.post(f"{node.url}/api/run", json.dumps({"code": "print(6 * 7)"}).encode())
    assert answer.status == 200
    rid = {k.lower(): v for k, v in answer.headers.items()}["x-request-id"]
    # HAProxy's id is the node's id: one name for a request in both logs.
    through = browser.post(f"{whole.url}/api/run", json.dumps({"code": "print(1)"}).encode())
    balancer_id = {k.lower(): v for k, v in through.headers.items()}["x-request-id"]
    assert re.fullmatch(r"[0-9A-F]{16,}", balancer_id), balancer_id
    logged = [
        json.loads(x) for n in whole.nodes for x in n.log.read_text().splitlines() if x[:1] == "{"
    ]
    assert any(x.get("request_id") == balancer_id for x in logged), "the node did not keep it"
    with urllib.request.urlopen(node.metrics_url, timeout=10) as r:  # noqa: S310 (loopback)
        text = r.read().decode()
    assert _metric(text, 'codeblanks_runs_total{verdict="ok"}') >= 1
    assert _metric(text, 'codeblanks_requests_total{status="200"}') >= 1
    assert _metric(text, "codeblanks_run_seconds_count") >= 1
    assert "codeblanks_grade_seconds_bucket" in text or "codeblanks_grade_seconds" in text
    for gauge in ("codeblanks_sandbox_running", "codeblanks_sandbox_waiting",
                  "codeblanks_sandbox_zygote_restarts_total", "codeblanks_busy_total"):  # fmt: skip
        _metric(text, gauge)
    assert _metric(text, "codeblanks_draining") == 0
    # Not public: the balancer only knows the app's port, where /metrics is no page.
    assert browser.get(f"{whole.url}/metrics").status == 404
    # One JSON line for the request, and the sandbox's line for its run, under the same id.
    mine = [line for line in _json_lines(node) if line.get("request_id") == rid]
    assert [line["request"]["status"] for line in mine if "request" in line] == [200]
    assert [line["run"]["verdict"] for line in mine if "run" in line] == ["ok"]
    assert {line["logger"] for line in mine} == {"codeblanks.web.request", "codeblanks.sandbox"}


def test_a_stopping_node_finishes_its_runs_and_the_balancer_moves_on(whole):
    node, other = whole.nodes
    # Asleep 3.5 s (the wall limit is 4 s): in flight through the drain and past it.
    slow = json.dumps({"code": "import time\ntime.sleep(3.5)\nprint('done')"}).encode()
    with Crowd(whole.url) as crowd, ThreadPoolExecutor(1) as pool:
        crowd.wait_working()
        in_flight = pool.submit(Browser().post, f"{node.url}/api/run", slow)
        time.sleep(0.4)
        asked = time.monotonic()
        node.proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        health = node.health()  # at once: the balancer is told
        served = Browser().get(f"{node.url}/")  # yet what comes before it notices is served
        time.sleep(asked + 2.6 - time.monotonic())  # CODEBLANKS_DRAIN_SECONDS=2.5 (cluster.py)
        refused = Browser().get(f"{node.url}/lessons/")  # after it: 503, the slow run goes on
        finished = in_flight.result(timeout=30)
        code = node.proc.wait(timeout=30)
        whole.balancer.wait_states({node.name: "DOWN", other.name: "UP"}, timeout=ROUTE_AROUND_S)
        time.sleep(1.0)
    assert finished.status == 200 and finished.json()["stdout"] == "done\n"
    assert served.status == 200
    assert refused.status == 503 and "restarting" in refused.body
    assert health[0] == 503 and json.loads(health[1]) == {"status": "stopping"}
    assert code == 0
    assert crowd.errors(since=asked) == [], "the balancer did not move the learners on"
    assert crowd.lost() == []
