"""Several app nodes behind a load balancer, with real parts (docs/deploy.md, "Several nodes"):
two `codeblanks serve` processes share one PostgreSQL database, one secret key and one Redis.

A learner signs up and solves the QKV lesson on node A; node B knows them (session in
PostgreSQL, same key), shows the lesson solved and their code saved. The run rate is one count
for both nodes (Redis): RATE runs spread over A and B pass, the next one on either is refused,
and of BURST runs sent to both at once exactly RATE pass. Neither node writes to its disk."""

from __future__ import annotations

import html
import json
import re
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from codeblanks.content import catalog

from .nodes import Browser, Node, csrf_token, migrate, node_env

pytestmark = pytest.mark.postgres

LESSON = "query-key-value"
RATE = 4
BURST = 3 * RATE


@pytest.fixture
def two_nodes(pg_url, redis_url, start_node, tmp_path):
    shared = {
        "CODEBLANKS_DATABASE_URL": pg_url,
        "CODEBLANKS_SECRET_KEY": secrets.token_urlsafe(50),
        "CODEBLANKS_CACHE_URL": redis_url,
        "CODEBLANKS_RUN_RATE": str(RATE),
        "CODEBLANKS_RUNS_AT_ONCE": "0",  # 12 at once below: the count alone is under test
        "CODEBLANKS_SANDBOX_SLOTS": "2",
    }
    envs = {}
    for name in ("a", "b"):
        data = tmp_path / f"data-{name}"
        envs[name] = node_env({**shared, "CODEBLANKS_DATA_DIR": str(data)})
    migrate(envs["a"], tmp_path)
    a, b = start_node("a", envs["a"]), start_node("b", envs["b"])
    a.wait_healthy()
    b.wait_healthy()
    return a, b


def _lesson_row(page: str, title: str) -> str:
    rows = [r for r in re.findall(r"<tr>.*?</tr>", page, re.S) if f">{title}</a>" in r]
    assert len(rows) == 1, f"no single progress row for {title!r}"
    return rows[0]


def _api_run(node: Node) -> tuple[str, int, str]:
    answer = Browser().post(f"{node.url}/api/run", json.dumps({"code": "print(6 * 7)"}).encode())
    return node.name, answer.status, answer.body


def _in_one_minute(counts: redis.Redis, runs):
    """``runs()`` on a fresh count. Counts are per clock minute: if the minute turned while it
    ran, once more (it takes a second or two)."""
    for _attempt in range(2):
        counts.flushdb()
        minute = int(time.time() // 60)
        answers = runs()
        if int(time.time() // 60) == minute:
            break
    return answers


def _editor_code(page: str) -> str:
    found = re.search(r'<textarea[^>]*name="code"[^>]*>\n?(.*?)</textarea>', page, re.S)
    assert found, "no editor on the lesson page"
    return html.unescape(found.group(1))


def test_two_nodes_share_learners_progress_and_the_run_rate(two_nodes, redis_url, tmp_path):
    a, b = two_nodes
    lesson = catalog().lesson(LESSON)
    browser = Browser()
    username = f"learner{secrets.token_hex(3)}"

    # Sign up on node A.
    form = browser.get(f"{a.url}/accounts/signup/")
    assert form.status == 200
    password = secrets.token_urlsafe(12)
    signed_up = browser.post(
        f"{a.url}/accounts/signup/",
        {
            "csrfmiddlewaretoken": csrf_token(form.body),
            "username": username,
            "password1": password,
            "password2": password,
        },
    )
    assert signed_up.status == 302, signed_up.body[:2000]

    # Solve the lesson on node A, as the Run button does (htmx, the form's CSRF token).
    page = browser.get(f"{a.url}/lessons/{LESSON}/")
    assert page.status == 200 and username in page.body
    run = browser.post(
        f"{a.url}/lessons/{LESSON}/run",
        {"csrfmiddlewaretoken": csrf_token(page.body), "code": lesson.exercise.solution},
        headers={"HX-Request": "true", "HX-Current-URL": f"{a.url}/lessons/{LESSON}/"},
    )
    assert run.status == 200, run.body[:2000]
    assert 'data-verdict="correct"' in run.body, run.body[:2000]

    # Node B: the same learner (session and signing key shared), the lesson solved, the code kept.
    progress = browser.get(f"{b.url}/progress/")
    assert progress.status == 200
    assert username in progress.body, "node B does not know the learner who signed up on A"
    assert "Solved" in _lesson_row(progress.body, lesson.title)
    on_b = browser.get(f"{b.url}/lessons/{LESSON}/")
    assert on_b.status == 200
    assert _editor_code(on_b.body) == lesson.exercise.solution

    # The run rate is one count for both nodes (Redis): RATE runs over A and B, then 429 on each.
    counts = redis.Redis.from_url(redis_url, socket_timeout=3)
    answers = _in_one_minute(counts, lambda: [_api_run(node) for node in (a, b) * (RATE // 2 + 1)])
    statuses = [(name, status) for name, status, _ in answers]
    assert statuses == [(("a", "b")[i % 2], 200) for i in range(RATE)] + [("a", 429), ("b", 429)]
    assert all(json.loads(body)["stdout"] == "42\n" for _, _, body in answers[:RATE])
    assert all(json.loads(body)["error"] == "rate-limited" for _, _, body in answers[RATE:])
    assert counts.dbsize() > 0, "the nodes counted runs somewhere other than the shared Redis"

    # And when the runs arrive at once on both nodes, still exactly RATE pass: the count is atomic.
    with ThreadPoolExecutor(max_workers=BURST) as pool:
        burst = _in_one_minute(
            counts, lambda: list(pool.map(_api_run, [(a, b)[i % 2] for i in range(BURST)]))
        )
    statuses = [(name, status) for name, status, _ in burst]
    passed = [status for _, status in statuses if status != 429]
    assert passed == [200] * RATE, f"{len(passed)} of {BURST} passed, not {RATE}: {statuses}"

    # Nothing lives on a node: outside local mode its data directory is never even created.
    assert not list(tmp_path.glob("data-*"))
