"""The layers of docs/architecture.md, enforced: each package imports only the layers below it,
and Django stays in ``web`` (the CLI's ``serve`` command is the one door to it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "codeblanks"

# What each layer may import, of codeblanks and of Django.
# ``i18n`` (the current language and the catalogue) is the floor: anything may speak.
ALLOWED = {
    "content": {"content", "i18n"},
    "sandbox": {"sandbox"},
    "grading": {"grading", "content", "sandbox", "i18n"},
    "cli": {"cli", "content", "sandbox", "grading", "i18n"},
    "web": {"web", "content", "sandbox", "grading", "i18n"},
}
DJANGO_DOORS = {"cli/serve.py", "cli/manage.py"}  # import the web app lazily, to start it


def imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def modules(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_what_lies_below(layer):
    wrong = []
    for path in modules(layer):
        rel = path.relative_to(PACKAGE).as_posix()
        for name in imports(path):
            parts = name.split(".")
            if parts[0] == "codeblanks" and len(parts) > 1:
                if parts[1] not in ALLOWED[layer] and rel not in DJANGO_DOORS:
                    wrong.append(f"{rel} imports {name}")
            elif (
                parts[0] in ("django", "django_htmx") and layer != "web" and rel not in DJANGO_DOORS
            ):
                wrong.append(f"{rel} imports {name}")
    assert not wrong, "layer rule broken (see docs/architecture.md):\n" + "\n".join(wrong)


def test_every_layer_has_modules():
    """The rule above would pass vacuously if a layer moved: each must still hold code."""
    for layer in ALLOWED:
        assert len(modules(layer)) >= 2, layer


def test_i18n_imports_no_layer():
    """Every layer may import codeblanks.i18n, so it may import none of them (nor Django)."""
    names = imports(PACKAGE / "i18n.py")
    wrong = [n for n in names if n.startswith(("codeblanks", "django"))]
    assert not wrong, wrong
