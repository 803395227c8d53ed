"""The trust boundary is a folder: what runs inside the sandbox imports only the standard library
and its own siblings, and the sandbox sees exactly that folder of ours."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import codeblanks.sandbox.inside as inside

INSIDE = Path(inside.__file__).parent


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            names.add("<relative import>")
    return names


def test_the_inside_imports_only_the_standard_library_and_itself():
    siblings = {p.stem for p in INSIDE.glob("*.py")}
    wrong = []
    for path in sorted(INSIDE.glob("*.py")):
        for name in _imports(path):
            if name not in sys.stdlib_module_names and name not in siblings:
                wrong.append(f"{path.name} imports {name}")
    assert not wrong, "the sandbox's inside must use the standard library only:\n" + "\n".join(
        wrong
    )
    assert {"zygote", "runner", "namespaces", "kernel", "wire"} <= siblings


def test_the_trusted_side_stays_outside():
    outside = {p.stem for p in INSIDE.parent.glob("*.py")}
    assert {"supervisor", "outcome", "service"} <= outside
    assert not (outside & {p.stem for p in INSIDE.glob("*.py")} - {"__init__"})


def test_the_sandbox_sees_that_folder_alone(run):
    listing = run(
        "import os\n"
        "print(sorted(n for n in os.listdir('/opt/codeblanks') if n.endswith('.py')))\n"
        "print(sorted(os.listdir('/opt')))\n"
    )
    assert listing.verdict == "ok", listing
    files, opt = listing.stdout.splitlines()
    assert files == str(sorted(p.name for p in INSIDE.glob("*.py")))
    assert opt == "['codeblanks', 'site-packages']"
