"""Mutants: small, plausible wrong versions of the sample solution that the validator makes itself.

Each mutant changes one place of the solution the way a learner might get it wrong: the rounding
dropped, the operands of ``@`` swapped, another ``axis=``, ``keepdims`` dropped, a transpose
removed, a division dropped -- or the program replaced by one that prints the expected output as a
constant. A lesson's checks are strong when every mutant is rejected.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from codeblanks.content.pysource import parse_tree
from codeblanks.grading.cases import PARSE_ERRORS

MAX_MUTANTS = 60


@dataclass(frozen=True)
class Mutant:
    kind: str  # stable identifier, e.g. "swap-matmul"
    description: str  # "the operands of `@` swapped" ...
    line: int | None  # the solution's line it changes
    code: str


def _is_call_to(node: ast.AST, names: tuple[str, ...]) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Name) and f.id in names) or (
        isinstance(f, ast.Attribute) and f.attr in names
    )


def _module_call(node: ast.Call) -> bool:
    """``np.round(x)`` rather than the method ``x.round()``."""
    f = node.func
    return isinstance(f, ast.Name) or (
        isinstance(f, ast.Attribute)
        and isinstance(f.value, ast.Name)
        and f.value.id in ("np", "numpy")
    )


def _int_constant(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    ):
        return -node.operand.value
    return None


class _Replace(ast.NodeTransformer):
    """Replace the node ``target`` (found in a copy of the tree) by what ``change`` makes of it."""

    def __init__(self, target: ast.AST, change: Callable[[ast.AST], ast.AST | None]) -> None:
        self.target, self.change = target, change

    def visit(self, node: ast.AST) -> Any:
        if node is self.target:
            return self.change(node)
        return self.generic_visit(node)


def _drop_round(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.Call)
    if _module_call(node) and node.args:
        return node.args[0]
    assert isinstance(node.func, ast.Attribute)
    return node.func.value  # x.round(3) -> x


def _swap_matmul(node: ast.AST) -> ast.AST:
    if isinstance(node, ast.BinOp):
        node.left, node.right = node.right, node.left
    else:
        assert isinstance(node, ast.Call)
        node.args[0], node.args[1] = node.args[1], node.args[0]
    return node


def _other_axis(node: ast.keyword) -> ast.keyword:
    k = _int_constant(node.value)
    node.value = ast.Constant(1 if k == 0 else 0)
    return node


def _drop_transpose(node: ast.AST) -> ast.AST:
    if isinstance(node, ast.Attribute):
        return node.value
    assert isinstance(node, ast.Call)
    if _module_call(node):
        return node.args[0]
    assert isinstance(node.func, ast.Attribute)
    return node.func.value


# A mutation: its kind, where it applies, what it does (in words), and the change it makes.
_Mutation = tuple[str, Callable[[Any], bool], str, Callable[[Any], Any]]


def _rules(tolerant: bool) -> list[_Mutation]:
    def is_round(n: Any) -> bool:
        return bool(
            not tolerant and _is_call_to(n, ("round", "around")) and (n.args or not _module_call(n))
        )

    def is_matmul(n: Any) -> bool:
        return (isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult)) or (
            _is_call_to(n, ("dot", "matmul")) and _module_call(n) and len(n.args) == 2
        )

    def is_axis(n: Any) -> bool:
        return isinstance(n, ast.keyword) and n.arg == "axis" and _int_constant(n.value) is not None

    def is_keepdims(n: Any) -> bool:
        return isinstance(n, ast.Call) and any(
            k.arg == "keepdims" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in n.keywords
        )

    def drop_keepdims(n: Any) -> Any:
        n.keywords = [k for k in n.keywords if k.arg != "keepdims"]
        return n

    def is_transpose(n: Any) -> bool:
        if isinstance(n, ast.Attribute) and n.attr == "T" and isinstance(n.ctx, ast.Load):
            return True
        if _is_call_to(n, ("transpose",)):
            return (_module_call(n) and len(n.args) == 1) or (not _module_call(n) and not n.args)
        return False

    def is_division(n: Any) -> bool:
        return isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div)

    def is_printoptions(n: Any) -> bool:
        return isinstance(n, ast.Expr) and _is_call_to(n.value, ("set_printoptions",))

    return [
        ("drop-rounding", is_round, "the rounding dropped", _drop_round),
        (
            "drop-printoptions",
            lambda n: not tolerant and is_printoptions(n),
            "`np.set_printoptions(...)` dropped",
            lambda n: ast.Pass(),
        ),
        ("swap-matmul", is_matmul, "the operands of the matrix product swapped", _swap_matmul),
        ("change-axis", is_axis, "another `axis=`", _other_axis),
        ("drop-keepdims", is_keepdims, "`keepdims=True` dropped", drop_keepdims),
        ("drop-transpose", is_transpose, "a transpose removed", _drop_transpose),
        ("drop-division", is_division, "a division dropped", lambda n: n.left),
    ]


def _segment(source: str, node: ast.AST) -> str:
    seg = ast.get_source_segment(source, node) or ast.unparse(node)
    seg = " ".join(seg.split())
    return seg if len(seg) <= 50 else seg[:47] + "..."


def _constant_print(solution: str, expected: str) -> str:
    """The solution with its prints removed, printing the expected output as a constant: it
    computes every value exactly as the solution does, but its output ignores the data."""

    class NoPrint(ast.NodeTransformer):
        def visit_Expr(self, node: ast.Expr) -> ast.AST:
            if _is_call_to(node.value, ("print",)):
                return ast.Pass()
            return self.generic_visit(node)

    quiet = ast.fix_missing_locations(NoPrint().visit(parse_tree(solution)))
    return ast.unparse(quiet) + f"\nprint({expected!r}, end='')\n"


def mutants(
    solution: str, expected_output: str, *, tolerant: bool = False, printing: bool = True
) -> Iterator[Mutant]:
    """The mutants of ``solution``, one change each, at most ``MAX_MUTANTS``. With a numeric
    tolerance, rounding mutants are left out: there, rounding differently is allowed. Without
    ``printing`` (a function exercise, whose tests judge the function, not the printout) the
    constant-output mutant is left out: a right function beside a constant print is right."""
    try:
        tree = parse_tree(solution)
    except PARSE_ERRORS:
        return
    if printing:
        yield Mutant(
            "constant-output",
            "a program that prints the expected output as a constant",
            None,
            _constant_print(solution, expected_output),
        )
    count = 1
    seen: set[str] = {solution, ast.unparse(tree)}
    for kind, applies, description, change in _rules(tolerant):
        found = [(i, n) for i, n in enumerate(ast.walk(tree)) if applies(n)]
        found.sort(
            key=lambda item: (getattr(item[1], "lineno", 0), getattr(item[1], "col_offset", 0))
        )
        for index, node in found:
            # A tree of its own, node for node the same: parsing again costs far less than a
            # deep copy.
            twin = parse_tree(solution)
            target = list(ast.walk(twin))[index]
            changed = ast.fix_missing_locations(_Replace(target, change).visit(twin))
            try:
                code = ast.unparse(changed)
            except Exception:  # a change that cannot be written back: skip it
                continue
            if code in seen:
                continue
            seen.add(code)
            line = getattr(node, "lineno", None)
            where = f" (line {line}: `{_segment(solution, node)}`)" if line else ""
            yield Mutant(kind, f"{description}{where}", line, code + "\n")
            count += 1
            if count >= MAX_MUTANTS:
                return
