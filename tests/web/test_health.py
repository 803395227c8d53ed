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


def test_database_down_is_503(client, sandbox, monkeypatch):
    def broken(*args, **kwargs):
        raise connection.OperationalError("gone")

    monkeypatch.setattr(connection, "cursor", broken)
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json()["database"] == "error"
