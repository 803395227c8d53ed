"""Shared test set-up for the whole suite."""

import os
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

import pytest
from hypothesis import settings

from codeblanks.sandbox import service
from codeblanks.web.pages import pagecache

# Machines here are shared and noisy: no per-example deadline. In CI (CI=true) Hypothesis derives
# its examples from each test's name, so a red run can be replayed; locally they stay random, so
# new cases keep being tried.
settings.register_profile("codeblanks", deadline=None)
settings.register_profile("ci", parent=settings.get_profile("codeblanks"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "codeblanks")

# A command line a test starts runs cold: a warm sandbox server would outlive the test
# (tests/cli/test_warm.py turns it on, in a private folder of its own, and stops it).
os.environ["CODEBLANKS_WARM"] = "0"

# A page part that reads a name its key leaves out fails the test that renders it.
pagecache.strict = True


_TEST_DATABASE = pytest.StashKey[Path]()


def pytest_configure(config):
    """On SQLite the test database is a file in memory (/dev/shm), not SQLite's in-memory
    database: that one is shared between threads through SQLite's shared cache, where a
    second writer fails at once ("database table is locked") instead of waiting, so two
    requests of a browser test writing together could answer 500 (seen once in five runs of
    tests/browser). A file gets what the site runs on, WAL and the busy timeout (config.py).
    pytest-django adds each xdist worker's number to the name."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        folder = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        name = Path(folder or tempfile.gettempdir()) / f"codeblanks-test-{os.getpid()}.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(name)
        config.stash[_TEST_DATABASE] = name


def pytest_unconfigure(config):
    """Django removes the test database's file; its WAL and shared-memory files are ours."""
    if name := config.stash.get(_TEST_DATABASE, None):
        for left in name.parent.glob(name.name + "*"):
            left.unlink(missing_ok=True)


@pytest.fixture
def midday(settings):
    """The site's time zone set to one where it is midday now. A review card due in ten minutes
    is due later today at any hour the suite runs; with the site on UTC, a run in the ten
    minutes before midnight saw it due tomorrow (as it is) and its tests failed (CI, 23:5x)."""
    from django.utils import timezone

    now = timezone.now()
    offset = 12 - now.hour  # hours east of UTC, from -11 to 12
    settings.TIME_ZONE = f"Etc/GMT{-offset:+d}"  # the Etc zones' signs are POSIX's: GMT-3 is UTC+3
    assert timezone.localtime(now).hour == 12


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, and on PostgreSQL its other sessions ended before it is
    dropped: the site's reused threads keep their connections open between requests
    (CONN_MAX_AGE), and PostgreSQL refuses to drop a database someone is connected to (the
    run then ended with a warning and left the database behind)."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.hookimpl(trylast=True)  # after pytest-django orders the tests by their database use
def pytest_collection_modifyitems(items):
    """Run the browser tests last. Playwright's sync API keeps an asyncio event loop running in
    the main thread from its first use to the end of the session, and while it runs, code that
    starts its own loop there (asyncio.run, asgiref's async_to_sync behind Django's test client
    calling async views) refuses to work. Every other test runs before that loop exists."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


# -- Nothing left behind -----------------------------------------------------------------------
# A thread or a process a test starts and leaves running goes on acting in the tests after it
# (a client logging into a closed stream wrote 71 MB of tracebacks once). Each test waits for
# its own to end, up to a hang's time; one still alive then fails the test that started it.
# Pools' idle workers and the process-wide services (started on first use by whichever test
# came first) are kept on purpose, as in a server.
LEFT_BEHIND_S = 60.0
KEPT_THREADS = ("site_", "mail_", "clusters", "sandbox-run_", "asyncio_", "ThreadPoolExecutor-")
# The reading's worker pool (codeblanks.sandbox.workers): its manager and queue threads, and
# multiprocessing's own fork server and resource tracker, are the process's for its lifetime.
KEPT_POOL_THREADS = ("_ExecutorManagerThread", "QueueFeederThread")
KEPT_PROCESSES = ("multiprocessing.forkserver", "multiprocessing.resource_tracker")


def _children() -> set[int]:
    """This process's living children (zombies are already over)."""
    found = set()
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                found.update(int(pid) for pid in f.read().split())
        except OSError:
            continue
    return {pid for pid in found if _state(pid) not in ("Z", "X", None)}


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def _kept(thread: threading.Thread) -> bool:
    if thread.name.startswith(KEPT_THREADS) or thread.name == "QueueFeederThread":
        return True
    if type(thread).__name__ in KEPT_POOL_THREADS:
        return True
    shared = service.shared()
    return shared is not None and thread in shared.service_threads()


def _left(threads_before: set[threading.Thread], children_before: set[int]) -> list[str]:
    shared = service.shared()
    mine = {shared.launcher_pid} if shared is not None else set()
    threads = [t for t in threading.enumerate() if t not in threads_before and not _kept(t)]
    children = {
        pid
        for pid in _children() - children_before - mine
        if not any(kept in _cmdline(pid) for kept in KEPT_PROCESSES)
    }
    return [f"thread {t.name!r} at {_where(t)}" for t in threads if t.is_alive()] + [
        f"process {pid} ({_cmdline(pid)})" for pid in children
    ]


def _where(thread: threading.Thread) -> str:
    """Where a thread left behind is waiting: its innermost frames, so that a red run names
    the code that holds it, not only its name."""
    frame = sys._current_frames().get(thread.ident or -1)
    if frame is None:
        return "(gone)"
    frames = traceback.extract_stack(frame)[-3:]
    return " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(frames))


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")[:120]
    except OSError:
        return "gone"


SNAPSHOT = pytest.StashKey[tuple[set[threading.Thread], set[int]]]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """What runs before the test's own body (its fixtures' threads and processes included)."""
    item.stash[SNAPSHOT] = (set(threading.enumerate()), _children())
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Once its fixtures are torn down: what the body started must have ended."""
    result = yield
    if SNAPSHOT not in item.stash:
        return result
    threads_before, children_before = item.stash[SNAPSHOT]
    if item.get_closest_marker("restarts_services"):
        children_before = _children() | children_before
    deadline = time.monotonic() + LEFT_BEHIND_S
    while (left := _left(threads_before, children_before)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"the test left running: {', '.join(left)}"
    return result


@pytest.fixture(scope="session", autouse=True)
def _flush_postgresql_by_delete():
    """Between transactional tests pytest-django empties every table (Django's ``flush``). On
    PostgreSQL that is one TRUNCATE, which makes new files for each of the 38 tables and their
    indexes: 1-1.7 s a test here, most of the PostgreSQL stage. A DELETE of the few rows a test
    leaves takes 0.1 s and leaves the same empty tables (the foreign keys Django makes are
    deferred to the commit, so the order does not matter; sequences are not reset either way
    unless a test asks, and then TRUNCATE runs as before)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {self.quote_name(t)};" for t in tables]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = truncate
