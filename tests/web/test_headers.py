"""Headers on every answer: CSP and Permissions-Policy on pages, API answers and static files
alike; HSTS only over HTTPS, and only when the operator turned it on."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from codeblanks.web.door.middleware import CSP, PERMISSIONS_POLICY

from .conftest import HOST
from .test_run import _config

pytestmark = pytest.mark.django_db
PATHS = ["/", "/lessons/first-steps/", "/static/codeblanks/app.css", "/api/lessons", "/nowhere/"]


@pytest.mark.parametrize("path", PATHS)
def test_every_answer_has_csp_and_permissions_policy(client, path):
    r = client.get(path)
    assert r.status_code in (200, 404), path
    assert r["Content-Security-Policy"] == CSP
    assert r["Permissions-Policy"] == PERMISSIONS_POLICY
    assert "camera=()" in PERMISSIONS_POLICY and "microphone=()" in PERMISSIONS_POLICY


def test_hsts_only_over_https_and_only_when_set(client):
    assert "Strict-Transport-Security" not in client.get("/", secure=True)
    with override_settings(SECURE_HSTS_SECONDS=31536000):
        client = Client(HTTP_HOST=HOST)  # SecurityMiddleware reads the setting when it is made
        assert client.get("/", secure=True)["Strict-Transport-Security"] == "max-age=31536000"
        assert "Strict-Transport-Security" not in client.get("/")
        assert client.get("/api/lessons", secure=True)["Strict-Transport-Security"]


def test_the_hsts_setting_is_read_from_the_environment():
    from codeblanks.web import config

    env = {"CODEBLANKS_SECRET_KEY": "k", "CODEBLANKS_DATA_DIR": "/nonexistent"}
    assert config.from_env({**env, "CODEBLANKS_HSTS_SECONDS": "600"}).hsts_seconds == 600
    assert config.from_env(env).hsts_seconds == 0
    assert _config(hsts_seconds=5).hsts_seconds == 5
