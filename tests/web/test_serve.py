"""`codeblanks serve`: uvicorn with the ASGI app, migrations in local mode, the URL printed."""

import dataclasses

import pytest

from codeblanks.web.door import serve as serve_module


@pytest.fixture
def started(monkeypatch):
    calls = []
    monkeypatch.setattr(serve_module, "_run", lambda app, **kw: calls.append((app, kw)))
    return calls


def test_local_mode_migrates_and_prints_the_url(started, monkeypatch, capsys, settings, tmp_path):
    settings.CODEBLANKS = dataclasses.replace(
        settings.CODEBLANKS,
        database_url=f"sqlite:///{tmp_path}/db.sqlite3",
        data_dir=tmp_path,
        web_workers=1,  # this process (door/workers.py: several, tests/web/test_workers.py)
    )
    migrated = []
    monkeypatch.setattr("django.core.management.call_command", lambda *a, **kw: migrated.append(a))
    serve_module.serve(host="127.0.0.1", port=8123)
    ((app, kw),) = started
    from codeblanks.web.door.asgi import application

    assert app is application and kw["host"] == "127.0.0.1" and kw["port"] == 8123
    assert not kw["proxy_headers"]  # no proxy is trusted unless one is named
    assert migrated == [("migrate",)]
    assert "http://127.0.0.1:8123/" in capsys.readouterr().out


def test_shared_database_needs_a_secret_key(started, settings):
    settings.CODEBLANKS = dataclasses.replace(
        settings.CODEBLANKS, database_url="postgresql://x@db/y", secret_key_from_env=False
    )
    with pytest.raises(SystemExit) as stop:
        serve_module.serve()
    assert "CODEBLANKS_SECRET_KEY" in str(stop.value) and started == []
