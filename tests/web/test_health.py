import pytest
from django.db import connection

from codeblanks.sandbox import RunResult

pytestmark = pytest.mark.django_db


def test_healthy(client, sandbox):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "database": "ok", "sandbox": "ok"}
    assert sandbox.codes == ["print(6 * 7)"]


def test_sandbox_down_is_503(client, sandbox):
    sandbox.result = RunResult("sandbox-error")
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json()["sandbox"] == "sandbox-error"


def test_a_full_sandbox_is_still_healthy(client, sandbox):
    sandbox.result = RunResult("busy")
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
