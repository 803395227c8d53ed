"""The trust boundary is a folder: what runs inside the sandbox imports only the standard library
and its own siblings, and the sandbox sees exactly that folder of ours."""

from __future__ import annotations

import ast
import glob
import os
import site
import sys
from pathlib import Path

import pytest

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
    assert {"supervisor", "execute", "service"} <= outside
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


def test_only_the_libraries_the_zygote_imports_are_mounted(run):
    listing = run("import os\nprint(sorted(os.listdir('/opt/site-packages')))\n")
    assert listing.verdict == "ok", listing
    names = ast.literal_eval(listing.stdout)
    # NumPy (its package, its bundled libraries, its metadata); no CodeBlanks, no Django...
    assert "numpy" in names and all(n.split("-")[0].startswith("numpy") for n in names), names


def test_no_library_of_ours_is_ever_mounted_whatever_the_configuration_names():
    from codeblanks.sandbox import layout

    paths = layout.libraries(("codeblanks", "codeblanks.web", "numpy", "lessontest", "json"))
    assert paths and all(Path(p).name.split("-")[0].startswith("numpy") for p in paths), paths


def test_folders_of_installed_packages_in_the_visible_trees_are_empty(run):
    """The interpreter's own site-packages (``pip install .`` without a venv puts CodeBlanks
    there) and Debian's dist-packages lie inside trees the root binds whole: a run sees them
    empty."""
    folders = set(site.getsitepackages([sys.base_prefix]))
    for base in (sys.base_prefix, "/usr", "/usr/local"):
        folders.update(glob.glob(f"{base}/lib/python3*/*-packages"))
    full = sorted(f for f in folders if os.path.isdir(f) and os.listdir(f))
    if not full:
        pytest.skip("no folder of installed packages with anything in it on this machine")
    listing = run(
        "import os\n"
        f"for folder in {full!r}:\n"
        "    print(folder, len(os.listdir(folder)) if os.path.isdir(folder) else 'absent')\n"
    )
    assert listing.verdict == "ok", listing
    assert listing.stdout.splitlines() == [f"{f} 0" for f in full]
