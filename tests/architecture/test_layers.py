"""The layers of docs/architecture.md, enforced: each package imports only the layers below it,
and Django stays in ``web`` (the CLI's ``serve`` command is the one door to it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "codeblanks"

# What each layer may import, of codeblanks and of Django.
# ``i18n`` (the current language and the catalogue) is the floor: anything may speak. So is
# ``inline`` (a coroutine driven on a thread without an event loop) for the layers that await.
ALLOWED = {
    "content": {"content", "i18n"},
    "sandbox": {"sandbox", "inline"},
    "grading": {"grading", "content", "sandbox", "i18n", "inline"},
    "learning": {"learning", "grading", "content", "sandbox", "i18n", "inline"},
    "cli": {"cli", "learning", "content", "sandbox", "grading", "i18n", "inline"},
    "web": {"web", "learning", "content", "sandbox", "grading", "i18n", "inline"},
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
                # a door may reach the web app too, and nothing else beyond its layer's own
                allowed = ALLOWED[layer] | ({"web"} if rel in DJANGO_DOORS else set())
                if parts[1] not in allowed:
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


@pytest.mark.parametrize("floor", ["i18n.py", "inline.py"])
def test_the_floor_imports_no_layer(floor):
    """Every layer may import codeblanks.i18n (and those that await, codeblanks.inline), so they
    may import none of them (nor Django)."""
    names = imports(PACKAGE / floor)
    wrong = [n for n in names if n.startswith(("codeblanks", "django"))]
    assert not wrong, wrong


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def loaded_on_import(path: Path) -> set[str]:
    """What importing ``path`` imports at once: its module-level imports (a function's own
    import runs later, when nothing is half loaded; ``if TYPE_CHECKING:`` never runs)."""
    names: set[str] = set()
    body = list(ast.parse(path.read_text(), str(path)).body)
    while body:
        node = body.pop()
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
            body += node.body + node.orelse
        elif isinstance(node, ast.Try):
            body += node.body + node.orelse + node.finalbody
    return names


def test_the_layers_form_no_loop():
    """The layer table itself is a ladder: no layer may reach one that may reach it."""
    edges = {layer: allowed - {layer} for layer, allowed in ALLOWED.items()}
    assert _a_loop(edges) is None


def test_the_import_graph_has_no_loop():
    """No module of ours reaches itself through what it imports when it is loaded: each layer
    is a ladder inside too."""
    ours = {
        _module_name(p): p
        for p in PACKAGE.rglob("*.py")
        if "courses" not in p.parts and "migrations" not in p.parts and "inside" not in p.parts
    }
    edges = {
        name: {
            found
            for imported in loaded_on_import(path)
            if (found := _nearest(imported, ours)) is not None
            and not (name + ".").startswith(found + ".")  # itself, or its own package
        }
        for name, path in ours.items()
    }
    loop = _a_loop(edges)
    assert loop is None, "import loop: " + " -> ".join(loop or [])


WEB = "codeblanks.web"


def every_import(path: Path) -> set[str]:
    """Everything ``path`` may ever import, wherever the statement stands: at the top, in a
    function's body (run later, but still a tie between the two modules), under ``if``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def web_graph() -> dict[str, set[str]]:
    """web/'s modules (its migrations aside), each with the modules of web/ it imports anywhere."""
    ours = {
        _module_name(p): p for p in (PACKAGE / "web").rglob("*.py") if "migrations" not in p.parts
    }
    return {
        name: {
            found
            for imported in every_import(path)
            if (found := _nearest(imported, ours)) is not None
            and not (name + ".").startswith(found + ".")
        }
        for name, path in ours.items()
    }


def test_web_has_no_loop_even_through_imports_in_functions():
    """An import moved into a function's body hides a loop from the loader but not from the
    reader: the modules still need each other. None is left in web/ (docs/architecture.md)."""
    loops = _loops(web_graph())
    assert not loops, "import loops in web/ (imports in functions counted):\n" + "\n".join(
        " <-> ".join(sorted(loop)) for loop in loops
    )


def test_the_learner_store_never_imports_teaching():
    """What a learner's run writes does not load the teachers' app: teaching plugs into the
    store (``store.attempt_notes``, wired in ``web/apps.py``), never the other way round."""
    graph = web_graph()
    learner = [name for name in graph if (name + ".").startswith(f"{WEB}.learner.")]
    assert len(learner) >= 5, learner  # the rule would pass vacuously if the package moved
    seen, todo, wrong = set(learner), list(learner), []
    while todo:  # what the learner package reaches, through any module of web/
        name = todo.pop()
        for nxt in graph[name]:
            if nxt.startswith(f"{WEB}.teaching"):
                wrong.append(f"{name} imports {nxt}")
            elif nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert not wrong, "the learner's store reaches the teaching app:\n" + "\n".join(sorted(wrong))


def _loops(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected parts of ``edges`` with more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = set()
            while True:
                top = stack.pop()
                part.add(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(part)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def _nearest(imported: str, ours: dict[str, Path]) -> str | None:
    """The module of ours that ``import imported`` loads last (a name in a package: the package)."""
    parts = imported.split(".")
    while parts:
        if ".".join(parts) in ours:
            return ".".join(parts)
        parts.pop()
    return None


def _a_loop(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``edges`` (depth-first, three colours), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None
