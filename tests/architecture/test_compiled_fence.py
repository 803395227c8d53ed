"""The fence around ``web/learner/compiled.py`` (Django's private compiler API, signals and
``pre_save`` skipped): one module, ``web/learner/statements.py``, holds every statement built
with it, so what is compiled, and what a new signal receiver must be checked against, is in one
place (docs/architecture.md)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "codeblanks"
COMPILED = "codeblanks.web.learner.compiled"
STATEMENTS = "web/learner/statements.py"


def _imports_compiled(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import) and any(a.name == COMPILED for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == COMPILED:
            return True
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "codeblanks.web.learner"
            and any(a.name == "compiled" for a in node.names)
        ):
            return True
    return False


def test_only_the_statements_module_uses_compiled():
    users = sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if _imports_compiled(path)
    )
    assert users == [STATEMENTS], users


def test_the_django_pin_says_why_it_holds():
    """``django<6`` is load-bearing for compiled.py: the pin says so, where it is raised."""
    root = PACKAGE.parents[1]
    pins = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(pin.replace(" ", "").startswith("django>=5.2,<6") for pin in pins), pins
    text = (root / "pyproject.toml").read_text()
    assert "compiled.py" in text[: text.index('"django>=')], "the pin's comment names compiled.py"
