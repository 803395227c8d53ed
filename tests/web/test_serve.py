"""`codeblanks serve`: uvicorn with the ASGI app, migrations in local mode, the URL printed."""

import dataclasses
import gc
import subprocess
import sys

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


@pytest.mark.parametrize("reload", [False, True])
def test_a_server_loads_the_courses_before_it_takes_a_connection(monkeypatch, reload):
    """A web worker that loaded the courses on its first requests kept them waiting while it
    parsed: the draining server loads them in its startup, before it listens, and then freezes
    them out of the collector (not under --reload, whose catalogue is replaced on an edit)."""
    import asyncio
    import importlib
    import socket

    import uvicorn

    from codeblanks.web.door.drainingserver import DrainingServer

    async def app(scope, receive, send):  # never called: nothing connects
        raise AssertionError(scope)

    server = DrainingServer(uvicorn.Config(app, lifespan="off", log_level="error"), 1.0, 1.0)
    listening_when_loaded = []
    monkeypatch.setattr(
        importlib.import_module("codeblanks.content.catalog"),  # the module, not the function
        "load_every_language",
        lambda: listening_when_loaded.append(list(getattr(server, "servers", []))),
    )
    monkeypatch.setattr(importlib.import_module("codeblanks.content.catalog")._Reload, "on", reload)
    settled = []  # the collector is set after the load, not here in the test's own process
    monkeypatch.setattr(
        importlib.import_module("codeblanks.web.door.heap"),
        "settle",
        lambda young: settled.append((young, len(listening_when_loaded))),
    )
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))

        async def start_and_stop():
            server.config.load()
            server.lifespan = server.config.lifespan_class(server.config)  # as uvicorn's _serve
            await server.startup(sockets=[sock])
            listening = list(server.servers)
            await server.shutdown(sockets=[sock])
            return listening

        listening = asyncio.run(start_and_stop())
    assert listening_when_loaded == [[]]  # loaded once, before any listening server
    assert settled == [(0 if reload else 5000, 1)]  # then frozen (CODEBLANKS_GC_YOUNG)
    assert listening  # and then it listened


@pytest.mark.parametrize("young", [5000, 0])
def test_the_collector_freezes_what_is_loaded_and_looks_at_young_objects_less_often(young):
    """In a fresh interpreter (the test's own would stay frozen): with a young threshold the
    objects alive at start are frozen out of the collector; 0 leaves Python's own settings."""
    probe = (
        "import gc\n"
        "from codeblanks.web.door import heap\n"
        "kept = [[i] for i in range(5000)]\n"
        f"heap.settle({young})\n"
        "print(gc.get_threshold(), gc.get_freeze_count() >= 5000)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    ).stdout.split()
    default = gc.get_threshold()  # Python's (the suite leaves the collector alone)
    if young:
        assert shown == [f"({young},", f"{default[1]},", f"{default[2]})", "True"]
    else:
        assert shown == [f"({default[0]},", f"{default[1]},", f"{default[2]})", "False"]
