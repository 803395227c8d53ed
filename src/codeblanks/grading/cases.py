"""The cases a program is graded on: the visible one (the code as written) and one per variant,
made by giving the exercise's declared inputs other values.

Substitution works on the syntax tree: for each input ``X`` the value of the first top-level
``X = ...`` assignment is replaced by the variant's expression. Only that span of text changes, and
the new text has as many lines as the old (a value written over several lines is replaced by one
line and blank lines inside its brackets), so the rest of the program -- and every line number the
learner sees in an error -- stays as written.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from codeblanks.content.model import BlankQuestion, Lesson, Variant
from codeblanks.content.pysource import parse_tree
from codeblanks.grading.counting import counted, counting_values
from codeblanks.grading.functests import with_tests
from codeblanks.i18n import ngettext

VISIBLE = "visible"
# What parsing a learner's text may raise: a syntax error, null bytes (older 3.11 releases),
# nesting too deep for the parser or for a walk over the tree.
PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)
_BREAK = re.compile(r"\r\n|\r|\n")  # the line ends the parser knows


@dataclass(frozen=True)
class Case:
    name: str  # "visible" or the variant's name
    code: str
    stdin: str = ""  # what the program reads as its standard input (``input()``)


@dataclass(frozen=True)
class MissingInputs:
    """The program has no top-level ``NAME = ...`` for these inputs, so a variant cannot be made."""

    names: tuple[str, ...]

    def message(self) -> str:
        lines = ", ".join(f"`{n} = …`" for n in self.names)
        return ngettext(
            "Keep {lines} as a top-level assignment: the grader gives this line other data to "
            "check that your program computes its result rather than knowing it. Rename your "
            "own variables instead.",
            "Keep {lines} as a top-level assignment: the grader gives these lines other data to "
            "check that your program computes its result rather than knowing it. Rename your "
            "own variables instead.",
            len(self.names),
        ).format(lines=lines)


def find_assignments(tree: ast.Module, names: tuple[str, ...]) -> dict[str, ast.expr]:
    """The value node of the first top-level assignment to each of ``names``."""
    found: dict[str, ast.expr] = {}
    for node in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        if value is None:
            continue
        for target in targets:
            if isinstance(target, ast.Name) and target.id in names and target.id not in found:
                found[target.id] = value
    return found


def _offsets(code: str) -> list[int]:
    """Byte offset of the start of each line, with lines ended as the parser ends them."""
    # one pass from break to break: a pattern for a whole line would scan a long last line
    # without a break again from each of its characters (quadratic: minutes for 64 KiB)
    starts, total, last = [0], 0, 0
    for end in (m.end() for m in _BREAK.finditer(code)):
        total += len(code[last:end].encode())
        starts.append(total)
        last = end
    return starts


def substitute(
    code: str,
    values: dict[str, str],
    tree: ast.Module | None = None,
    starts: list[int] | None = None,
) -> str | MissingInputs | SyntaxError:
    """``code`` with the value of each input's top-level assignment replaced by its expression.

    Expressions are the lesson author's and see NumPy as ``np`` even if the program imported it
    under another name. Returns ``MissingInputs`` when the program has no such assignment and the
    ``SyntaxError`` when it does not parse (its visible run then reports the error). ``tree``
    and ``starts`` (``_offsets(code)``) are the caller's when it substitutes more than once."""
    if not values:
        return code
    if tree is None:
        try:
            tree = parse_tree(code)
        except PARSE_ERRORS as exc:
            return exc if isinstance(exc, SyntaxError) else SyntaxError(str(exc))
    found = find_assignments(tree, tuple(values))
    missing = tuple(n for n in values if n not in found)
    if missing:
        return MissingInputs(missing)
    raw = code.encode()
    starts = starts or _offsets(code)
    spans = []
    for name, node in found.items():
        start = starts[node.lineno - 1] + node.col_offset
        end_line = node.end_lineno or node.lineno  # set on every node the parser makes
        end = starts[end_line - 1] + (node.end_col_offset or 0)
        expr = " ".join(values[name].split("\n"))
        # Inside the call's brackets the line breaks are free: the learner's lines keep their
        # numbers in every case.
        pad = "\n" * (end_line - node.lineno)
        spans.append((start, end, f'(lambda np: ({expr}))(__import__("numpy"){pad})'.encode()))
    for start, end, text in sorted(spans, reverse=True):
        raw = raw[:start] + text + raw[end:]
    return raw.decode()


def case_stdin(lesson: Lesson, variant: Variant | None = None) -> str:
    """The standard input of the visible case, or of ``variant`` (the visible case's unless
    it gives its own)."""
    own = variant.stdin if variant is not None else None
    return lesson.exercise.stdin if own is None else own


def cases_for(lesson: Lesson, code: str) -> tuple[list[Case], MissingInputs | None]:
    """The visible case and one case per variant; variants that cannot be made are left out and
    the missing inputs returned (a syntax error leaves only the visible case). A function
    exercise's tests run on the visible case, after the program. The inputs a task rule counts
    are wrapped in every case (``counting.py``)."""
    stdin = case_stdin(lesson)
    cases = [Case(VISIBLE, with_tests(lesson, code), stdin)]
    missing: MissingInputs | None = None
    variants = lesson.exercise.grading.variants
    names = counted(lesson)
    if not variants and not names:
        return cases, None
    try:
        tree = parse_tree(code)
    except PARSE_ERRORS:
        return cases, None
    own = {
        name: ast.get_source_segment(code, node) or "None"
        for name, node in find_assignments(tree, names).items()
    }
    starts = _offsets(code)  # the same for every substitution
    if own:
        made = substitute(code, counting_values(lesson, {}, own), tree, starts)
        if isinstance(made, str):
            cases[0] = Case(VISIBLE, with_tests(lesson, made), stdin)
    for variant in variants:
        made = substitute(code, counting_values(lesson, variant.values, own), tree, starts)
        if isinstance(made, MissingInputs):
            missing = made
        elif isinstance(made, str):
            cases.append(Case(variant.name, made, case_stdin(lesson, variant)))
    return cases, missing


# A grade that makes variants reads (parses, and substitutes into once per variant) the program
# first: each started PARSE_UNIT bytes past the first costs one more program of the run rate.
PARSE_UNIT = 16 * 1024


def programs_for(lesson: Lesson, code: str = "") -> int:
    """The most programs of the learner's that one grade of ``lesson`` runs: the visible case and
    one per variant, and the reading of a long ``code`` (see ``PARSE_UNIT``). The web charges
    this against the run rate before grading, so a rate counts work, not requests. (The
    reference runs are the lesson's own, cached once per version; the rare re-run of a failed
    ``@`` case for its shapes is not charged.)"""
    variants = len(lesson.exercise.grading.variants)
    size = len(code.encode("utf-8", "surrogatepass"))
    reading = max(0, (size - 1) // PARSE_UNIT) if variants else 0
    return 1 + variants + reading


def programs_for_blank(question: BlankQuestion) -> int:
    """The programs of the learner's that one answer to a blank question runs: one, and for a
    value blank one more per variant setup (its answer is checked under each)."""
    return 1 + (len(question.variants) if question.check == "value" else 0)
