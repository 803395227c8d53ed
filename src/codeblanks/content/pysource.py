"""Static facts about a lesson's Python code, read with ``ast`` (never run here)."""

from __future__ import annotations

import ast
import io
import threading
import tokenize
import warnings
from typing import Literal, overload

# CPython 3.11 keeps the AST builder's recursion count per interpreter, not per thread: two
# threads that build trees at once (the web process grades in several) can make either fail
# with "SystemError: AST constructor recursion depth mismatch" (seen under load, reproduced
# with four threads). So every tree the trusted side builds is built under this one lock;
# parsing a program of the size we accept takes well under a millisecond.
_AST_LOCK = threading.Lock()


@overload
def parse_tree(source: str, mode: Literal["exec"] = "exec") -> ast.Module: ...
@overload
def parse_tree(source: str, mode: Literal["eval"]) -> ast.Expression: ...
def parse_tree(source: str, mode: Literal["exec", "eval"] = "exec") -> ast.Module | ast.Expression:
    """``ast.parse``, one thread at a time (see ``_AST_LOCK``); raises as ``ast.parse`` does.

    The standard library also builds trees of its own outside this lock (``traceback`` does,
    to place its carets), so the spurious mismatch is tried again rather than reported."""
    for attempt in range(3):
        try:
            with _AST_LOCK:
                tree = ast.parse(source, mode=mode)
                assert isinstance(tree, ast.Module | ast.Expression)
                return tree
        except SystemError as error:
            if "recursion depth mismatch" not in str(error) or attempt == 2:
                raise
    raise AssertionError  # not reached


def literal_value(text: str) -> object:
    """``ast.literal_eval(text)`` with its tree built by ``parse_tree`` (``ast.literal_eval`` of
    a string builds one outside the lock); raises as ``ast.literal_eval`` does."""
    return ast.literal_eval(parse_tree(text.lstrip(" \t"), mode="eval"))


@overload
def parse(
    source: str, mode: Literal["exec"] = "exec"
) -> tuple[ast.Module | None, str, int | None]: ...
@overload
def parse(source: str, mode: Literal["eval"]) -> tuple[ast.Expression | None, str, int | None]: ...
def parse(
    source: str, mode: Literal["exec", "eval"] = "exec"
) -> tuple[ast.Module | ast.Expression | None, str, int | None]:
    """``(tree, "", None)``, or ``(None, reason, line)`` when ``source`` does not parse."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. SyntaxWarning for invalid escapes
            return parse_tree(source, mode=mode), "", None
    except SyntaxError as error:
        return None, error.msg or "invalid syntax", error.lineno
    except (ValueError, RecursionError, MemoryError) as error:
        return None, type(error).__name__, None


def _bound(node: ast.AST, names: set[str]) -> None:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.add(sub.id)


def top_level_names(tree: ast.Module) -> set[str]:
    """Every name bound in the module's own scope: assignments, loop and ``with`` targets,
    imports, function and class names (including inside top-level ``if``/``for``/``try``)."""
    names: set[str] = set()
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(stmt.name)
            continue
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            for alias in stmt.names:
                names.add((alias.asname or alias.name).split(".", 1)[0])
            continue
        for field_name, value in ast.iter_fields(stmt):
            if field_name in ("body", "orelse", "finalbody", "handlers", "cases"):
                for item in value:
                    if isinstance(item, ast.stmt):
                        stack.append(item)
                    else:  # except handlers and match cases hold statements one level down
                        stack.extend(getattr(item, "body", []))
                        if getattr(item, "name", None):
                            names.add(item.name)
            elif isinstance(value, ast.AST):
                _bound(value, names)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        _bound(item, names)
    return names


def assigned_inputs(tree: ast.Module) -> set[str]:
    """Names given a value by a plain top-level statement ``NAME = ...`` or ``NAME: T = ...``:
    the only form a grading input may take, so that the grader can replace it."""
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif (
            isinstance(stmt, ast.AnnAssign)
            and stmt.value is not None
            and isinstance(stmt.target, ast.Name)
        ):
            names.add(stmt.target.id)
    return names


_SKIP = {tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT}


def tokens(source: str) -> list[tuple[str, object]] | None:
    """The tokens of ``source`` as comparable keys, or None when it does not tokenize.

    Literals compare by value (``4``, ``4.0`` and ``0x4`` are one number; ``'a'`` and ``"a"``
    one string), names and operators by their text; comments count for nothing."""
    keys: list[tuple[str, object]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in _SKIP or token.type == tokenize.COMMENT:
                continue
            if token.type in (tokenize.NUMBER, tokenize.STRING):
                try:
                    value = literal_value(token.string)
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    value = token.string  # an f-string or bytes oddity: compare as text
                keys.append(("literal", value))
            elif token.type == tokenize.NAME:
                keys.append(("name", token.string))
            elif token.type == tokenize.OP:
                keys.append(("op", token.string))
            else:  # ERRORTOKEN: a stray character
                return None
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return keys


def blank_lines(source: str, blank: str) -> list[int]:
    """The lines on which ``blank`` (the starter's ``____``) is still a name, in order; a blank
    inside a string or a comment does not count. (Without the blank's text anywhere there is
    nothing to tokenise: a 64 KiB program takes 0.2 s of Python to.)"""
    lines: list[int] = []
    if not blank or blank not in source:
        return lines
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME and token.string == blank:
                lines.append(token.start[0])
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return lines


def single_token(text: str) -> tuple[str, object] | None:
    """The key of ``text`` when it is exactly one Python token (a literal, a name or an
    operator), else None."""
    found = tokens(text.strip())
    return found[0] if found is not None and len(found) == 1 else None
