"""Task rules (``[[grading.rules]]``): what the task says the learner's code must or must not
use, and how much work it may do, checked after the program is otherwise right. The feedback
quotes the task's own sentence, then says what in the program breaks it.

Only the learner's own lines are read: a construct the starter already has on a line of the same
text (the given loop of a KV cache, a helper's code) is the lesson's, not the learner's.
"""

from __future__ import annotations

import ast
import contextlib
from collections import Counter
from dataclasses import dataclass

from codeblanks.content.model import Lesson, Rule
from codeblanks.content.pysource import parse_tree
from codeblanks.grading.cases import PARSE_ERRORS, VISIBLE
from codeblanks.grading.counting import count_name
from codeblanks.i18n import gettext as _
from codeblanks.sandbox import RunResult

_LOOPS = {
    "for": (ast.For, ast.AsyncFor),
    "while": (ast.While,),
    "comprehension": (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp),
}
_LOOPS["loop"] = _LOOPS["for"] + _LOOPS["while"] + _LOOPS["comprehension"]


@dataclass(frozen=True)
class Broken:
    """A rule the program breaks: the learner's sentence, and where."""

    message: str
    line: int | None = None
    case: str = VISIBLE


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
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


def _uses(tree: ast.Module, lines: list[str], construct: str) -> list[tuple[int, str]]:
    """Where ``tree`` uses ``construct``: (line, the text of that line), in order."""
    found = []
    for node in ast.walk(tree):
        # Every construct is a statement or an expression: each has a line.
        if isinstance(node, ast.stmt | ast.expr) and _matches(node, construct):
            line = node.lineno
            found.append((line, lines[line - 1].strip() if line <= len(lines) else ""))
    return sorted(set(found))


def own_uses(code: str, starter: str, construct: str) -> list[int] | None:
    """The lines of ``code`` that use ``construct`` and are not the starter's own (None: it does
    not parse)."""
    try:
        tree = parse_tree(code)
    except PARSE_ERRORS:
        return None
    given: Counter[str] = Counter()
    # a starter that does not parse (a blank in an odd place): all of the code is theirs
    with contextlib.suppress(*PARSE_ERRORS):
        tree_given = parse_tree(starter)
        given.update(text for _, text in _uses(tree_given, starter.splitlines(), construct))
    lines = []
    for line, text in _uses(tree, code.splitlines(), construct):
        if given[text] > 0:
            given[text] -= 1
        else:
            lines.append(line)
    return lines


def _what(construct: str) -> str:
    names = {
        "for": _("a `for` loop"),
        "while": _("a `while` loop"),
        "comprehension": _("a comprehension (a loop inside brackets)"),
    }
    return names.get(construct) or f"`{construct}`"


def _says(rule: Rule) -> str:
    return _("The task says: “{rule}”").format(rule=rule.text.strip())


def static_break(lesson: Lesson, code: str) -> Broken | None:
    """The first rule whose ``require`` or ``forbid`` the learner's own lines break."""
    starter = lesson.exercise.starter
    for rule in lesson.exercise.grading.rules:
        for forbidden in rule.forbid:
            # a loop is named as what it is: a `for`, a `while` or a comprehension
            kinds = ("for", "while", "comprehension") if forbidden == "loop" else (forbidden,)
            found = [(line, c) for c in kinds for line in own_uses(code, starter, c) or ()]
            if found:
                line, construct = min(found)
                said = _("Your program has {what} on line {line}.").format(
                    what=_what(construct), line=line
                )
                return Broken(f"{_says(rule)} {said}", line)
        for construct in rule.require:
            if own_uses(code, starter, construct) == []:
                said = _("Your program does not use {what}.").format(what=_what(construct))
                return Broken(f"{_says(rule)} {said}")
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
    lesson: Lesson, code: str, runs: dict[str, RunResult], solution: dict[str, RunResult]
) -> Broken | None:
    """The first task rule the program breaks, if any: what it uses, then how much it does."""
    if not lesson.exercise.grading.rules:
        return None
    return static_break(lesson, code) or count_break(lesson, runs, solution)
