"""Settings are declared once (codeblanks.web.config) and every one is documented."""

import os
import re
from pathlib import Path

import pytest
from django.db import connection

from codeblanks.web import config

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "settings.md").read_text()


def test_every_declared_setting_is_documented():
    names = [s.name for s in config.SETTINGS] + list(config.OTHER_SETTINGS)
    missing = [n for n in names if f"`{n}`" not in DOC]
    assert not missing, f"add these to docs/settings.md: {missing}"


def test_every_codeblanks_variable_in_the_source_is_documented():
    used = set()
    for path in (ROOT / "src" / "codeblanks").rglob("*.py"):
        used |= set(re.findall(r"CODEBLANKS_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_*{])", path.read_text()))
    missing = sorted(n for n in used if f"`{n}`" not in DOC)
    assert not missing, f"add these to docs/settings.md: {missing}"


def test_defaults_are_local_sqlite_in_the_data_dir(tmp_path):
    c = config.from_env({"CODEBLANKS_DATA_DIR": str(tmp_path)})
    assert c.local and c.database_url == f"sqlite:///{tmp_path / 'codeblanks.sqlite3'}"
    assert config.database(c.database_url)["NAME"] == str(tmp_path / "codeblanks.sqlite3")
    assert (
        c.run_rate == 0
        and c.run_cpu_per_minute == 12
        and c.runs_at_once == 2
        and c.max_code_bytes == 65536
        and not c.debug
    )
    assert config.cache(c.cache_url)["BACKEND"].endswith("LocMemCache")


def test_sqlite_keeps_a_write_ahead_log(tmp_path, django_db_blocker):
    """Each commit appends to the log (no rollback journal made and deleted per commit), and
    readers do not wait for a writer; durability stays FULL."""
    import sqlite3

    from django.db.backends.sqlite3.base import DatabaseWrapper

    settings = config.database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    wrapper = DatabaseWrapper({**settings, "TIME_ZONE": None,
                               "CONN_HEALTH_CHECKS": False, "AUTOCOMMIT": True,
                               "ATOMIC_REQUESTS": False, "TEST": {}})  # fmt: skip
    with django_db_blocker.unblock(), wrapper.cursor() as cursor:
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 2  # FULL
        wrapper.close()
    assert settings["CONN_MAX_AGE"] == 600  # kept between a thread's requests
    assert "CONN_MAX_AGE" not in config.database("postgresql://h/db")  # one per request there
    plain = sqlite3.connect(tmp_path / "db.sqlite3")
    assert plain.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    plain.close()


def test_secret_key_is_generated_once_and_kept(tmp_path):
    first = config.from_env({"CODEBLANKS_DATA_DIR": str(tmp_path)})
    again = config.from_env({"CODEBLANKS_DATA_DIR": str(tmp_path)})
    assert len(first.secret_key) > 40 and first.secret_key == again.secret_key
    assert not first.secret_key_from_env
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    given = config.from_env(
        {"CODEBLANKS_DATA_DIR": str(tmp_path), "CODEBLANKS_SECRET_KEY": "k" * 50}
    )
    assert given.secret_key == "k" * 50 and given.secret_key_from_env


def test_postgresql_url_is_parsed(tmp_path):
    db = config.database("postgresql://ann:p%40ss@db.example:6543/learn?sslmode=require")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == (
        "ann",
        "p@ss",
        "db.example",
        "6543",
        "learn",
    )
    # A database that is away is told within seconds; the URL may say otherwise.
    assert db["OPTIONS"] == {"connect_timeout": "5", "sslmode": "require"}
    assert config.database("postgresql://h/db?connect_timeout=1")["OPTIONS"] == {
        "connect_timeout": "1"
    }
    c = config.from_env(
        {"CODEBLANKS_DATA_DIR": str(tmp_path), "CODEBLANKS_DATABASE_URL": "postgresql://x@h/db"}
    )
    assert not c.local


@pytest.mark.parametrize(
    "env",
    [
        {"CODEBLANKS_DATABASE_URL": "mysql://x/y"},
        {"CODEBLANKS_DATABASE_URL": "postgresql://host/"},
        {"CODEBLANKS_CACHE_URL": "memcached://x"},
        {"CODEBLANKS_RUN_RATE": "many"},
        {"CODEBLANKS_MAX_CODE_BYTES": "0"},
        {"CODEBLANKS_DEBUG": "perhaps"},
    ],
)
def test_bad_values_name_the_variable(tmp_path, env):
    with pytest.raises(config.ConfigError) as err:
        config.from_env({"CODEBLANKS_DATA_DIR": str(tmp_path), **env})
    assert next(iter(env)) in str(err.value)


def test_redis_cache_url():
    assert config.cache("redis://cache:6379/1") == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://cache:6379/1",
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }


@pytest.mark.django_db
@pytest.mark.postgres
def test_database_follows_the_environment():
    """The suite runs on whatever CODEBLANKS_DATABASE_URL names (PostgreSQL in `make test`)."""
    url = os.environ.get("CODEBLANKS_DATABASE_URL", "sqlite:")
    expected = "postgresql" if url.startswith(("postgresql:", "postgres:")) else "sqlite"
    assert connection.vendor == expected
