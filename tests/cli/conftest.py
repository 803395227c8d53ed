from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parents[1] / "content" / "fixtures"


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch) -> Path:
    """A copy of the valid tiny course (lesson `sum-two`), loaded beside the built-in ones."""
    course = Path(shutil.copytree(FIXTURES / "valid", tmp_path / "tiny"))
    monkeypatch.setenv("CODEBLANKS_COURSES", str(course))
    return course


@pytest.fixture
def learner_home(tmp_path, monkeypatch):
    """A learner of their own: data and config folders, no server set, in a fresh folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("CODEBLANKS_SERVER", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(autouse=True)
def english_environment(monkeypatch):
    """The learner's commands speak the environment's language: the tests start from none
    (English), whatever the machine running them says; a test that wants Turkish asks for it."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
