"""The sandbox's two module tables (``sandbox/__init__.py`` and ``sandbox/inside/__init__.py``)
name every module of their folder, and only modules that exist: a reader finds each file's
purpose in one place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SANDBOX = Path(__file__).resolve().parents[2] / "src" / "codeblanks" / "sandbox"


@pytest.mark.parametrize("folder", [SANDBOX, SANDBOX / "inside"], ids=["sandbox", "inside"])
def test_the_module_table_names_every_module(folder):
    doc = (folder / "__init__.py").read_text()
    named = set(re.findall(r"^\| ``(\w+)\.py`` \|", doc, re.MULTILINE))
    named |= {f"{d}/" for d in re.findall(r"^\| ``(\w+)/`` \|", doc, re.MULTILINE)}
    present = {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"}
    present |= {f"{p.name}/" for p in folder.iterdir() if (p / "__init__.py").exists()}
    assert named == present, {"missing": present - named, "stale": named - present}
