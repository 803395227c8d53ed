"""The startup line names the SQLite file as its path is (the learner trial's F18 saw
``sqlite //<checkout>/data/…``, a doubled slash), absolute or relative."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from codeblanks.web.door.serve import _what


@pytest.mark.parametrize(
    ("url", "shown"),
    [("sqlite:////srv/data/codeblanks.sqlite3", "database sqlite /srv/data/codeblanks.sqlite3;"),
     ("sqlite:///data/codeblanks.sqlite3", "database sqlite data/codeblanks.sqlite3;"),
     ("postgresql://u:p@db:5433/cb", "database postgresql db:5433/cb;")],
)  # fmt: skip
def test_the_startup_line_names_the_database_as_it_is(url, shown):
    config = SimpleNamespace(database_url=url, cache_url="locmem://", local=False)
    assert _what(config, "").startswith(shown)
