"""Units a reader can hold (docs/architecture.md): no function over 80 lines, no class over 250,
anywhere in CodeBlanks' own code. A unit's size runs from its ``def`` or ``class`` line to its
last line, docstring and comments included (decorators not). The courses' programs are lesson
material, not our code, and are not measured. Nor a function with more than 15 paths through it
(ruff's C901, mccabe, set in pyproject.toml: ``make lint`` checks it, and so does this file)."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "codeblanks"
MAX_FUNCTION = 80
MAX_CLASS = 250
MAX_COMPLEXITY = 15


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "courses" not in p.relative_to(PACKAGE).parts)


def oversized(tree: ast.AST, where: str) -> list[str]:
    """Each function over ``MAX_FUNCTION`` and class over ``MAX_CLASS`` lines in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            limit, kind = MAX_FUNCTION, "function"
        elif isinstance(node, ast.ClassDef):
            limit, kind = MAX_CLASS, "class"
        else:
            continue
        size = (node.end_lineno or node.lineno) - node.lineno + 1
        if size > limit:
            found.append(f"{where}:{node.lineno} {kind} {node.name} has {size} lines (> {limit})")
    return found


def test_no_function_over_80_lines_nor_class_over_250():
    too_long = []
    for path in sources():
        where = path.relative_to(PACKAGE).as_posix()
        too_long += oversized(ast.parse(path.read_text(), str(path)), where)
    assert not too_long, "split these units:\n" + "\n".join(too_long)


def test_the_measure_finds_a_long_function_and_a_long_class():
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    code = f"def long():\n{body}\n\nclass Long:\n" + "\n".join(
        f"    def m{i}(self):\n        return {i}\n" for i in range(84)
    )
    found = oversized(ast.parse(code), "example.py")
    assert [f.split(" has ")[0] for f in found] == [
        "example.py:1 function long",
        "example.py:83 class Long",
    ]
    assert not oversized(ast.parse("def short():\n" + "\n".join(body.splitlines()[:79])), "s.py")


def too_complex(path: Path) -> list[str]:
    """Ruff's C901 findings for ``path``, under the project's own settings (pyproject.toml)."""
    found = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "C901", "--output-format", "concise"]
        + ["--no-cache", "--exit-zero", "--quiet", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in found.stdout.splitlines() if "C901" in line]


def test_no_function_over_15_paths():
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert "C901" in settings["select"]  # so that `make lint` says it too
    assert settings["mccabe"]["max-complexity"] == MAX_COMPLEXITY
    tangled = too_complex(PACKAGE)
    assert not tangled, "split these units into named helpers:\n" + "\n".join(tangled)


def test_the_complexity_check_finds_a_tangled_function(tmp_path):
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(MAX_COMPLEXITY))
    (tmp_path / "tangled.py").write_text(f"def tangled(x):\n{branches}\n    return -1\n")
    found = too_complex(tmp_path / "tangled.py")
    assert len(found) == 1 and f"`tangled` is too complex (16 > {MAX_COMPLEXITY})" in found[0]
    short = "\n".join(branches.splitlines()[:-2])
    (tmp_path / "tangled.py").write_text(f"def fine(x):\n{short}\n    return -1\n")
    assert too_complex(tmp_path / "tangled.py") == []
