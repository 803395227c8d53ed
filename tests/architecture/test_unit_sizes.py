"""Units a reader can hold (docs/architecture.md): no function over 80 lines, no class over 250,
anywhere in CodeBlanks' own code. A unit's size runs from its ``def`` or ``class`` line to its
last line, docstring and comments included (decorators not). The courses' programs are lesson
material, not our code, and are not measured."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "codeblanks"
MAX_FUNCTION = 80
MAX_CLASS = 250


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
