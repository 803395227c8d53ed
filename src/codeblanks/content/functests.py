"""tests.py → the function tests a lesson declares, read statically (never run here).

A test is a top-level function decorated with ``@test("name", hidden=..., rtol=..., atol=...,
exact=..., unordered=...)``,
every argument a literal, so that the grader and the web know every test's name and whether it
is hidden without running the author's code.
"""

from __future__ import annotations

import ast
import dataclasses
import math
from pathlib import Path

from codeblanks.content.codes import problem
from codeblanks.content.model import FunctionTest, FunctionTests
from codeblanks.content.problems import Problem
from codeblanks.content.pysource import parse

_OPTIONS = {"hidden": bool, "rtol": float, "atol": float, "exact": bool, "unordered": bool}


def read_tests(source: str, path: Path, problems: list[Problem]) -> FunctionTests | None:
    """The tests of ``source`` (the text of ``path``), or None after adding its problems."""
    before = len(problems)
    tree, reason, line = parse(source)
    if tree is None:
        problems.append(problem("content.E041", path, line, f"tests.py: {reason}"))
        return None
    tests: list[FunctionTest] = []
    seen: set[str] = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            if _is_test(decorator):
                found = _declaration(decorator, node.name, path, problems)
                if found is None:
                    continue
                if not found.hidden:  # what the learner may read: the function, decorator and all
                    lines = source.splitlines()[node.decorator_list[0].lineno - 1 : node.end_lineno]
                    found = dataclasses.replace(found, code="\n".join(lines) + "\n")
                if found.name in seen:
                    problems.append(
                        problem(
                            "content.E088",
                            path,
                            decorator.lineno,
                            f"tests.py: two tests are named {found.name!r}",
                        )
                    )
                seen.add(found.name)
                tests.append(found)
    if not tests and len(problems) == before:
        problems.append(problem("content.E086", path, None, "tests.py declares no @test"))
    if len(problems) != before:
        return None
    return FunctionTests(source=source, tests=tuple(tests))


def _is_test(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Name) and target.id == "test") or (
        isinstance(target, ast.Attribute) and target.attr == "test"
    )


def _declaration(
    decorator: ast.expr, function: str, path: Path, problems: list[Problem]
) -> FunctionTest | None:
    def bad(why: str) -> None:
        problems.append(
            problem("content.E087", path, decorator.lineno, f"tests.py, @test of {function}: {why}")
        )

    if not isinstance(decorator, ast.Call) or len(decorator.args) != 1:
        bad('give the test its name: @test("name")')
        return None
    name = _literal(decorator.args[0])
    if not isinstance(name, str) or not name.strip():
        bad("the name must be a non-empty string literal")
        return None
    options: dict[str, object] = {}
    for keyword in decorator.keywords:
        wanted = _OPTIONS.get(keyword.arg or "")
        value = _literal(keyword.value)
        if wanted is None:
            bad(f"unknown option {keyword.arg!r} (allowed: {', '.join(_OPTIONS)})")
            return None
        if wanted is bool and not isinstance(value, bool):
            bad(f"{keyword.arg} must be True or False")
            return None
        if wanted is float:
            if isinstance(value, bool) or not isinstance(value, int | float):
                bad(f"{keyword.arg} must be a number")
                return None
            if not math.isfinite(value) or value < 0:
                bad(f"{keyword.arg} must be a finite number, at least 0")
                return None
            value = float(value)
        options[keyword.arg or ""] = value
    return FunctionTest(name=name, **options)  # type: ignore[arg-type]


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
