import asyncio
import os

import pytest
from django.db import connection

from codeblanks.sandbox import RunResult
from codeblanks.sandbox.testing import FakeRunner
from codeblanks.web.views import health

pytestmark = pytest.mark.django_db


def test_healthy(client, sandbox):
    r = client.get("/healthz")
    assert r.status_code == 200
    data = r.json()
    assert data.pop("sandbox_checked_s_ago") >= 0  # just checked
    assert data.pop("worker") == os.getpid()  # which web process answered
    assert data == {"status": "ok", "database": "ok", "sandbox": "ok"}
    assert sandbox.codes == ["print(6 * 7)"]


class Clock:
    """``health.monotonic``, moved by hand."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_flood_of_probes_costs_one_sandbox_run(client, sandbox, monkeypatch):
    """Security review S6: every probe ran a program, unmetered, for anyone. Now the sandbox is
    checked at most once every CHECK_EVERY_S seconds, and the answer says how long ago."""
    clock = Clock()
    monkeypatch.setattr(health, "monotonic", clock)
    answers = []
    for i in range(50):
        clock.now = 1000.0 + i * health.CHECK_EVERY_S / 50
        answers.append(client.get("/healthz").json())
    assert sandbox.codes == ["print(6 * 7)"]
    assert {a["sandbox"] for a in answers} == {"ok"}
    assert answers[-1]["sandbox_checked_s_ago"] == pytest.approx(0.98 * health.CHECK_EVERY_S)
    clock.now = 1000.0 + health.CHECK_EVERY_S
    sandbox.answer = RunResult("sandbox-error")  # broken since: the next check says so
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json()["sandbox"] == "sandbox-error"
    assert r.json()["sandbox_checked_s_ago"] == 0.0
    assert client.get("/healthz").status_code == 503  # from state: still one run per period
    assert sandbox.codes == ["print(6 * 7)"] * 2


def test_probes_during_a_check_wait_for_no_run_of_their_own(monkeypatch, async_client):
    """Probes arriving while the one check runs answer at once (none ran yet: "checking", 503)
    and start no run: only that check's."""

    async def scenario():
        sandbox = FakeRunner(hold=True)  # its check waits until the test lets it end
        monkeypatch.setattr(health, "get_sandbox", lambda: sandbox)
        first = asyncio.create_task(async_client.get("/healthz"))
        await sandbox.asked.wait()
        others = await asyncio.gather(*(async_client.get("/healthz") for _ in range(20)))
        sandbox.release()
        return sandbox, await first, others

    sandbox, first, others = asyncio.run(scenario())
    assert sandbox.codes == ["print(6 * 7)"]
    assert first.status_code == 200 and first.json()["sandbox"] == "ok"
    assert {(r.status_code, r.json()["sandbox"]) for r in others} == {(503, "checking")}


def test_sandbox_down_is_503(client, sandbox):
    sandbox.answer = RunResult("sandbox-error")
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json()["sandbox"] == "sandbox-error"


def test_a_full_sandbox_is_still_healthy(client, sandbox):
    sandbox.answer = RunResult("busy")
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json()["sandbox"] == "busy"


def test_database_down_is_503(client, sandbox, monkeypatch):
    def broken(*args, **kwargs):
        raise connection.OperationalError("gone")

    monkeypatch.setattr(connection, "cursor", broken)
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json()["database"] == "error"


@pytest.mark.django_db(transaction=True)
def test_unmigrated_database_is_503(client, sandbox, monkeypatch):
    """A node started before `migrate` must not be put behind the load balancer."""
    from django.apps import apps
    from django.core.management import call_command

    from codeblanks.web.views import health

    label = apps.get_containing_app_config("codeblanks.web.models").label
    monkeypatch.setattr(health, "_migrated", False)
    call_command("migrate", label, "zero", verbosity=0)
    try:
        r = client.get("/healthz")
        assert r.status_code == 503 and r.json()["database"] == "not migrated"
    finally:
        call_command("migrate", verbosity=0)  # every app: teaching depends on it
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json()["database"] == "ok"
