""" "Fill in the line" review cards: one line of a solved lesson's solution with one
part blanked, asked in the review queue beside the lesson's own questions.

The card is a ``BlankQuestion`` made from the lesson when it is read, never stored, so it follows
the lesson's language and any edit to its solution, and it is judged exactly as the lesson's blank
questions are (``grading/blanks.py``): a line of the program's top level by value, after the
solution as setup (any expression giving the same value passes); a line inside a function, whose
names exist only when it is called, by its text.
"""

from __future__ import annotations

import ast
import zlib
from dataclasses import dataclass

from codeblanks.content.model import BLANK, BlankQuestion, Lesson, Question
from codeblanks.content.pysource import parse_tree
from codeblanks.i18n import gettext as _
from codeblanks.learning.answers import question_get

LINE_ID = "fill-the-line"  # the card's question id; no lesson question may take it
LONG = 40  # a right-hand side longer than this has a part of it blanked, not the whole


@dataclass(frozen=True)
class _Pick:
    line: str  # the solution's line, without indentation or comment
    part: str  # the part blanked
    top: bool  # at the program's top level (checked by value)
    comment: str  # the line's comment, a clue in the prompt
    starred: bool  # the starter had a blank on this line


def _segment(source: str, node: ast.AST) -> str:
    return ast.get_source_segment(source, node) or ""


def _part(source: str, value: ast.expr) -> str:
    """What to blank of a right-hand side: all of it when short, else its longest piece."""
    whole = _segment(source, value)
    if len(whole) <= LONG:
        return whole
    nodes = [n for n in ast.walk(value) if isinstance(n, ast.expr) and not _trivial(n)]
    pieces = [_segment(source, n) for n in nodes]
    pieces = [p for p in pieces if 3 <= len(p) <= LONG and "\n" not in p]
    return max(pieces, key=len, default=whole)


def _trivial(value: ast.expr) -> bool:
    """A name or a literal (data, an empty list): nothing worth recalling."""
    if isinstance(value, ast.Name):
        return True
    try:
        ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _comment(text: str) -> str:
    """The comment at the end of ``text`` (a '#' outside any string), stripped."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return text[i + 1 :].strip()
    return ""


def _picks(solution: str, starred: set[str]) -> list[_Pick]:
    try:
        tree = parse_tree(solution)
    except (SyntaxError, ValueError):
        return []
    lines = solution.splitlines()
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value, name = node.value, getattr(targets[0], "id", "")
            by_value = isinstance(node, ast.Assign) and bool(name)
            if len(targets) != 1 or (id(node) in top and not by_value):
                continue  # a top-level line is checked by value: one name to read it from
        elif isinstance(node, ast.Return) and node.value is not None:
            value, name = node.value, ""
        else:
            continue
        if node.lineno != node.end_lineno or _trivial(value):
            continue
        tail = lines[node.lineno - 1].encode()[node.end_col_offset :].decode(errors="replace")
        statement = _segment(solution, node)
        part = _part(solution, value)
        if not part or BLANK in statement or statement.count(part) != 1:
            continue
        out.append(_Pick(statement, part, id(node) in top, _comment(tail),
                         name in starred))  # fmt: skip
    return out


def _starred(starter: str) -> set[str]:
    """The names the starter's blanked lines assign (``X = ____``): the lesson's key lines."""
    names = set()
    for line in starter.splitlines():
        head, sep, _rest = line.partition("=")
        if sep and BLANK in line and head.strip().isidentifier():
            names.add(head.strip())
    return names


def line_card(lesson: Lesson) -> BlankQuestion | None:
    """The lesson's "fill in the line" card (None: its solution has no line to ask). The line is
    one the starter left blank when there is one, at the top level before one in a function;
    among equals, one chosen by the lesson's uuid, so it is the same every time."""
    exercise = lesson.exercise
    picks = _picks(exercise.solution, _starred(exercise.starter))
    if not picks:
        return None
    best = max((p.starred, p.top) for p in picks)
    picks = [p for p in picks if (p.starred, p.top) == best]
    pick = picks[zlib.crc32(lesson.uuid.encode()) % len(picks)]
    code = pick.line.replace(pick.part, BLANK, 1)
    if pick.comment:
        prompt = _("Fill in this line of the lesson's program (it says: %(comment)s).")
    else:
        prompt = _("Fill in this line of the lesson's program.")
    explanation = _("The lesson's program has: `%(line)s`") % {"line": pick.line}
    return BlankQuestion(
        id=LINE_ID,
        prompt=prompt % {"comment": pick.comment} if pick.comment else prompt,
        code=code,
        answer=pick.part,
        explanation=explanation,
        check="value" if pick.top else "exact",
    )


def card_question(lesson: Lesson, question_id: str) -> Question | None:
    """The question a review card asks: the lesson's own, or its "fill in the line"."""
    if question_id == LINE_ID:
        return line_card(lesson)
    return question_get(lesson.questions, question_id)
