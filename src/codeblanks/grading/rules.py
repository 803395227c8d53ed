"""Task rules (``[[grading.rules]]``): what the task says the learner's code must or must not
use, and how much work it may do, checked after the program is otherwise right. The feedback
quotes the task's own sentence, then says what in the program breaks it.

Only the learner's own lines are read: a construct the starter already has on a line of the same
text (the given loop of a KV cache, a helper's code) is the lesson's, not the learner's.

What the rules read in the program (``Facts``) is found in one reading of its tree, with the
program's cases, in the reading's worker process (``reading.py``). A required construct counts
only where it ran: the cases of a lesson that requires one carry a line tracer (``traced``), and
the construct must sit on a line that ran, in the function (or lambda, comprehension) it belongs
to. Code run from text (``exec``, ``eval``...) cannot be checked at all: a lesson with rules
refuses it.
"""

from __future__ import annotations

import ast
import contextlib
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from codeblanks.content.model import Lesson, Rule
from codeblanks.content.pysource import parse_tree
from codeblanks.grading.cases import PARSE_ERRORS, VISIBLE, Case
from codeblanks.grading.counting import count_name
from codeblanks.grading.pydata import Unreadable, captured, literal
from codeblanks.i18n import gettext as _
from codeblanks.sandbox import RunResult
from codeblanks.sandbox.inside.wire import PRIVATE_END

_LOOPS = {
    "for": (ast.For, ast.AsyncFor),
    "while": (ast.While,),
    "comprehension": (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp),
}
_LOOPS["loop"] = _LOOPS["for"] + _LOOPS["while"] + _LOOPS["comprehension"]
# Code made from text at run time, which no rule can read: refused wherever a lesson has rules.
_DYNAMIC = frozenset({"exec", "eval", "compile", "__import__", "__builtins__"})
# ... and modules that run text or bytes as code, or any module but the standard library's and
# NumPy (a file the program wrote itself, say).
_RUNNERS = frozenset({"builtins", "code", "codeop", "runpy", "importlib", "pickle", "marshal",
                      "ctypes"})  # fmt: skip
_KNOWN = (sys.stdlib_module_names - _RUNNERS) | {"numpy"}
_COMPS = {
    ast.ListComp: "<listcomp>",
    ast.SetComp: "<setcomp>",
    ast.DictComp: "<dictcomp>",
    ast.GeneratorExp: "<genexpr>",
}
# Where a node's code runs: the (co_name, co_firstlineno) of its code object.
Scope = tuple[str, int]
MODULE: Scope = ("<module>", 1)
# The variable a traced run leaves the lines it ran in: {(co_name, co_firstlineno, line)}.
RAN = "__ran_lines__"


@dataclass(frozen=True)
class Broken:
    """A rule the program breaks: the learner's sentence, and where."""

    message: str
    line: int | None = None
    case: str = VISIBLE


@dataclass(frozen=True)
class Use:
    """Where the learner's own code uses a construct: its line and the code it runs in."""

    line: int
    scope: Scope


@dataclass(frozen=True)
class Facts:
    """What the rules read in a program: each construct a rule names, where the learner's own
    lines use it (None: the program does not parse); and the learner's code run from text."""

    uses: dict[str, tuple[Use, ...]] | None
    dynamic: tuple[tuple[int, str], ...] = ()

    def lines(self, construct: str) -> list[int] | None:
        if self.uses is None:
            return None
        return sorted({use.line for use in self.uses.get(construct, ())})

    def watch(self, lesson: Lesson) -> frozenset[int]:
        """The lines a run must say it ran: where a required construct is."""
        required = {c for rule in lesson.exercise.grading.rules for c in rule.require}
        uses = self.uses or {}
        return frozenset(use.line for c in required for use in uses.get(c, ()))


# No construct a rule names has more parts than this ("np.linalg.norm" has three). A longer
# chain matches none, and is not walked: walking it from each of its nodes took a 4 KiB program
# of 2,000 attributes 189 ms (quadratic), 35 ms with the bound.
_MOST_PARTS = 8


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        if len(parts) == _MOST_PARTS:
            return None
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _matches(node: ast.AST, construct: str) -> bool:
    if construct in _LOOPS:
        return isinstance(node, _LOOPS[construct])
    if construct == "@":
        return isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return False
    name = _dotted(node)
    return name == construct or (construct.startswith("np.") and name == "numpy" + construct[2:])


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    """The code object's first line: its first decorator's, as CPython counts it."""
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _inner(node: ast.AST) -> tuple[Scope | None, list[ast.AST], list[ast.AST]]:
    """The code object ``node`` makes (None: none), the children that run in it, and those that
    run where ``node`` is (defaults, decorators, a comprehension's first iterable)."""
    children = list(ast.iter_child_nodes(node))
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        inside: list[ast.AST] = list(node.body)
        scope = (node.name, _first_line(node))
    elif isinstance(node, ast.Lambda):
        inside, scope = [node.body], ("<lambda>", node.lineno)
    elif isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
        inside = [n for n in children if not isinstance(n, ast.comprehension)]
        for i, gen in enumerate(node.generators):
            inside += [gen.target, *gen.ifs] + ([gen.iter] if i else [])
        return (_COMPS[type(node)], node.lineno), inside, [node.generators[0].iter]
    else:
        return None, [], children
    ids = {id(n) for n in inside}
    return scope, inside, [n for n in children if id(n) not in ids]


def _scoped(tree: ast.Module) -> Iterator[tuple[ast.AST, Scope]]:
    """Every node of ``tree`` with the code object it runs in."""
    stack: list[tuple[ast.AST, Scope]] = [(tree, MODULE)]
    while stack:
        node, scope = stack.pop()
        yield node, scope
        inner, inside, outside = _inner(node)
        stack += [(n, inner or scope) for n in inside]
        stack += [(n, scope) for n in outside]


def _dynamic(node: ast.AST, modules: set[str]) -> str | None:
    """What ``node`` runs from text, or reaches a module's names by text with, or imports that
    no rule can read: its name."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
        unknown = [n for n in names if (n or "").split(".")[0] not in _KNOWN]
        if unknown or (isinstance(node, ast.ImportFrom) and node.level):
            return f"import {unknown[0] if unknown else '.'}"
    if isinstance(node, ast.Name) and node.id in _DYNAMIC:
        return node.id
    if isinstance(node, ast.Attribute) and node.attr in _DYNAMIC - {"compile"}:
        return node.attr
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and node.args
        and (_dotted(node.args[0]) or "").split(".")[0] in modules
    ):
        return "getattr"
    return None


def _imported(tree: ast.Module) -> set[str]:
    """The names the program binds by importing (modules, or names from them)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
    return names


def _line_text(lines: list[str], line: int) -> str:
    return lines[line - 1].strip() if line <= len(lines) else ""


def _found(tree: ast.Module, code: str, constructs: list[str]) -> dict[str, list[tuple[str, Use]]]:
    """For each construct (and ``"dynamic:NAME"`` for code run from text), where ``tree`` uses
    it: (the text of its line, the use), in order."""
    lines = code.splitlines()
    modules = _imported(tree)
    found: dict[str, set[tuple[str, Use]]] = {c: set() for c in constructs}
    for node, scope in _scoped(tree):
        # Every construct is a statement or an expression: each has a line.
        if not isinstance(node, ast.stmt | ast.expr):
            continue
        use = Use(node.lineno, scope)
        for construct in constructs:
            if _matches(node, construct):
                found[construct].add((_line_text(lines, use.line), use))
        if (name := _dynamic(node, modules)) is not None:
            found.setdefault(f"dynamic:{name}", set()).add((_line_text(lines, use.line), use))
    return {c: sorted(uses, key=lambda u: (u[1].line, u[1].scope)) for c, uses in found.items()}


def _named(lesson: Lesson) -> list[str]:
    """Every construct the lesson's rules name, a loop as each of its kinds."""
    named: list[str] = []
    for rule in lesson.exercise.grading.rules:
        for construct in (*rule.forbid, *rule.require):
            kinds = ("for", "while", "comprehension") if construct == "loop" else (construct,)
            named += [k for k in kinds if k not in named]
    return named


def facts(code: str, starter: str, constructs: list[str]) -> Facts:
    """What the rules read in ``code``: the learner's own uses of ``constructs`` (a use on a
    line of the same text as one of the starter's is the starter's), and of code run from text.
    One parse of each program."""
    try:
        tree = parse_tree(code)
    except PARSE_ERRORS:
        return Facts(None)
    given: dict[str, Counter[str]] = {}
    # a starter that does not parse (a blank in an odd place): all of the code is theirs
    with contextlib.suppress(*PARSE_ERRORS):
        for construct, uses in _found(parse_tree(starter), starter, constructs).items():
            given[construct] = Counter(text for text, _ in uses)
    own: dict[str, list[Use]] = {}
    for construct, uses in _found(tree, code, constructs).items():
        theirs = given.get(construct, Counter())
        own[construct] = []
        for text, use in uses:
            if theirs[text] > 0:
                theirs[text] -= 1
            else:
                own[construct].append(use)
    dynamic = sorted(
        (use.line, c.removeprefix("dynamic:"))
        for c, uses in own.items()
        if c.startswith("dynamic:")
        for use in uses
    )
    kept = {c: tuple(uses) for c, uses in own.items() if not c.startswith("dynamic:")}
    return Facts(kept, tuple(dynamic))


def lesson_facts(lesson: Lesson, code: str) -> Facts:
    """``facts`` for the constructs ``lesson``'s rules name (none when it has no rules)."""
    if not lesson.exercise.grading.rules:
        return Facts({})
    return facts(code, lesson.exercise.starter, _named(lesson))


def own_uses(code: str, starter: str, construct: str) -> list[int] | None:
    """The lines of ``code`` that use ``construct`` and are not the starter's own (None: it does
    not parse)."""
    return facts(code, starter, [construct]).lines(construct)


# Runs inside the sandbox before the learner's program (a private setup: ``wire.PRIVATE_END``):
# a line tracer for the learner's file only, keeping the watched lines that ran, with the code
# object they ran in. The set stays in the tracer's closure while the program runs, and is put in
# its globals (``RAN``) as the program's module frame returns: an assignment of the program's
# own is overwritten. Runs of a lesson without a required construct carry none and pay nothing.
_TRACER = """
def _trace(filename, watch, where):
    ran = set()

    def line(frame, event, arg):
        if event == "line" and frame.f_lineno in watch:
            code = frame.f_code
            ran.add((code.co_name, code.co_firstlineno, frame.f_lineno))
        elif event == "return" and frame.f_code.co_name == "<module>":
            where[{ran!r}] = set(ran)
        return line

    def call(frame, event, arg):
        return line if frame.f_code.co_filename == filename else None

    __import__("sys").settrace(call)


_trace({filename!r}, {watch!r}, globals())
del _trace
"""


def traced(cases: list[Case], filename: str, watch: frozenset[int]) -> list[Case]:
    """``cases`` reporting which of the ``watch`` lines of ``filename`` ran (no lines: as is)."""
    if not watch:
        return cases
    setup = _TRACER.format(ran=RAN, filename=filename, watch=set(watch))
    return [Case(c.name, setup + PRIVATE_END + c.code, c.stdin) for c in cases]


def ran(runs: dict[str, RunResult]) -> set[tuple[str, int, int]]:
    """The watched lines the runs say ran, in any case (forged or missing reports: none)."""
    found: set[tuple[str, int, int]] = set()
    for run in runs.values():
        text = run.values.get(RAN)
        try:
            value = literal(captured(text)) if isinstance(text, str) else set()
        except (Unreadable, ValueError):
            continue
        if isinstance(value, set):
            found |= {
                v
                for v in value
                if isinstance(v, tuple)
                and len(v) == 3
                and isinstance(v[0], str)
                and type(v[1]) is int
                and type(v[2]) is int
            }
    return found


def _what(construct: str) -> str:
    names = {
        "for": _("a `for` loop"),
        "while": _("a `while` loop"),
        "comprehension": _("a comprehension (a loop inside brackets)"),
    }
    return names.get(construct) or f"`{construct}`"


def _says(rule: Rule) -> str:
    return _("The task says: “{rule}”").format(rule=rule.text.strip())


def _dynamic_break(lesson: Lesson, found: Facts) -> Broken | None:
    """Code run from text cannot be held to the task: refused, quoting the first rule."""
    if not found.dynamic:
        return None
    line, name = found.dynamic[0]
    said = _(
        "Your program uses `{name}` on line {line}: code reached or run through text cannot be "
        "checked against the task. Write the code out."
    ).format(name=name, line=line)
    return Broken(f"{_says(lesson.exercise.grading.rules[0])} {said}", line)


def _runs_anywhere(uses: tuple[Use, ...], done: set[tuple[str, int, int]]) -> bool:
    return any((*use.scope, use.line) in done for use in uses)


def static_break(
    lesson: Lesson,
    code: str,
    found: Facts | None = None,
    done: set[tuple[str, int, int]] | None = None,
) -> Broken | None:
    """The first rule whose ``require`` or ``forbid`` the learner's own lines break, after code
    run from text. ``found``: the program's facts, when read already; ``done``: the watched lines
    that ran (None: not traced, a use anywhere counts)."""
    found = found if found is not None else lesson_facts(lesson, code)
    if (broken := _dynamic_break(lesson, found)) is not None:
        return broken
    uses = found.uses
    for rule in lesson.exercise.grading.rules:
        for forbidden in rule.forbid:
            # a loop is named as what it is: a `for`, a `while` or a comprehension
            kinds = ("for", "while", "comprehension") if forbidden == "loop" else (forbidden,)
            hits = [(line, c) for c in kinds for line in found.lines(c) or ()]
            if hits:
                line, construct = min(hits)
                said = _("Your program has {what} on line {line}.").format(
                    what=_what(construct), line=line
                )
                return Broken(f"{_says(rule)} {said}", line)
        for construct in rule.require:
            if uses is None:
                continue  # it does not parse: its run said so
            mine = uses.get(construct, ())
            if not mine:
                said = _("Your program does not use {what}.").format(what=_what(construct))
                return Broken(f"{_says(rule)} {said}")
            if done is not None and not _runs_anywhere(mine, done):
                said = _(
                    "Your program has {what} on line {line}, but that code never runs: the "
                    "result must be computed with it."
                ).format(what=_what(construct), line=mine[0].line)
                return Broken(f"{_says(rule)} {said}", mine[0].line)
    return None


def _count(run: RunResult, name: str) -> int | None:
    value = run.values.get(count_name(name))
    try:
        return int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return None


def count_break(
    lesson: Lesson, runs: dict[str, RunResult], solution: dict[str, RunResult]
) -> Broken | None:
    """The first case on which the learner's program multiplies a counted input with more rows
    than the solution does there (cases not counted in both runs are skipped)."""
    for rule in lesson.exercise.grading.rules:
        for name in rule.count:
            for case, run in runs.items():
                theirs = solution.get(case)
                mine = _count(run, name)
                limit = None if theirs is None else _count(theirs, name)
                if mine is None or limit is None or mine <= limit:
                    continue
                where = (
                    _("on the visible data")
                    if case == VISIBLE
                    else _("on the hidden case “{case}”").format(case=case)
                )
                said = _(
                    "Your program multiplies `{name}` with {mine} rows {where}, where {limit} "
                    "are enough: it computes something again."
                ).format(name=name, mine=mine, where=where, limit=limit)
                return Broken(f"{_says(rule)} {said}", None, case)
    return None


def rule_break(
    lesson: Lesson,
    code: str,
    runs: dict[str, RunResult],
    solution: dict[str, RunResult],
    found: Facts | None = None,
) -> Broken | None:
    """The first task rule the program breaks, if any: what it uses, then how much it does. A
    required construct counts where the runs (traced: ``traced``) say it ran."""
    rules = lesson.exercise.grading.rules
    if not rules:
        return None
    done = ran(runs) if any(rule.require for rule in rules) else None
    return static_break(lesson, code, found, done) or count_break(lesson, runs, solution)
