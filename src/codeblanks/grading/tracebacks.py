"""Friendly errors: a traceback cut down to the learner's own file, and the common errors of array
code explained in plain words.

The sandbox's stderr holds Python's traceback, which also lists the frames of the platform that
ran the program and of the libraries it called. The learner only needs their own lines: those are
kept (with the source line filled in from their code), the rest is hidden, and the last error is
explained: a name not defined (with a "did you mean"), shapes that do not align in ``@`` (both
shapes shown, from the variables the run left behind), an axis or index that does not exist.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import itertools
import keyword
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from codeblanks.content.pysource import parse_tree
from codeblanks.grading.cases import PARSE_ERRORS
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext

_HEADER = "Traceback (most recent call last):"
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]*)", line (?P<line>\d+)(?:, in (?P<func>.*))?$')
# Whatever a run writes is read with bounds: a number longer than this is no number (int() of
# 5,000 digits raises), and a name longer than this gets no "did you mean" (difflib's ratio is
# quadratic in the lengths; a misspelt name is short).
MAX_DIGITS = 9
MAX_GUESS_CHARS = 100


def _number(digits: str | None) -> int | None:
    """``digits`` as an int, or None when there are too many of them to be a real count."""
    if not digits or len(digits.lstrip("-")) > MAX_DIGITS:
        return None
    return int(digits)


_EXC = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?:: (?P<msg>.*))?$", re.S)


@dataclass(frozen=True)
class Frame:
    file: str
    line: int | None  # None: the number printed was not a plausible line number
    func: str | None
    extra: tuple[str, ...] = ()  # the indented lines printed under it (source, ^^^ markers)


@dataclass(frozen=True)
class FriendlyError:
    text: str  # the traceback with the learner's frames only
    where: str | None  # "model.py, line 14"
    line: int | None
    error_type: str | None
    message: str | None
    explanation: tuple[str, ...] = field(default_factory=tuple)
    # the explanation without its first sentence, the one that says where the error is
    hints: tuple[str, ...] = field(default_factory=tuple)


def parse(stderr: str) -> tuple[list[Frame], str | None, str | None, str]:
    """Frames, exception type and message of the last traceback in ``stderr``, and the text that
    came before it (output the program wrote to stderr itself)."""
    at = stderr.rfind(_HEADER)
    if at >= 0:
        before, lines = stderr[:at], stderr[at + len(_HEADER) :].split("\n")[1:]
    else:
        # A syntax error is reported before anything runs: a frame and the error, no header.
        all_lines = stderr.split("\n")
        first = next((i for i, line in enumerate(all_lines) if _FRAME.match(line)), None)
        if first is None:
            return [], None, None, stderr
        before, lines = "\n".join(all_lines[:first]), all_lines[first:]
    frames: list[Frame] = []
    i = 0
    while i < len(lines):
        m = _FRAME.match(lines[i])
        if m:
            extra = []
            j = i + 1
            while j < len(lines) and lines[j].startswith(" ") and not _FRAME.match(lines[j]):
                extra.append(lines[j])
                j += 1
            func = m.group("func")
            frames.append(Frame(m.group("file"), _number(m.group("line")), func, tuple(extra)))
            i = j
            continue
        if lines[i].startswith(" ") or not lines[i].strip():
            i += 1
            continue
        break
    rest = "\n".join(lines[i:]).strip("\n")
    m = _EXC.match(rest)
    if not m:
        return frames, None, rest or None, before
    return frames, m.group("type"), m.group("msg"), before


def _same_file(a: str, filename: str) -> bool:
    return a == filename or a.rsplit("/", 1)[-1] == filename


def friendly(
    stderr: str,
    code: str,
    filename: str,
    values: dict[str, Any] | None = None,
    given: tuple[str, ...] | None = None,
) -> FriendlyError:
    """The learner's view of a failed run's stderr. ``given``: the lesson's inputs when the run
    was a hidden case (None: the visible one, where a size typed in is still right)."""
    frames, etype, msg, before = parse(stderr)
    if etype is None and not frames:
        return FriendlyError(stderr, None, None, None, None, ())
    source = code.replace("\r\n", "\n").split("\n")
    mine = [f for f in frames if _same_file(f.file, filename)]
    out = [_HEADER] if mine else []
    for f in mine:
        frame = f'  File "{filename}", line {f.line or "?"}' + (f", in {f.func}" if f.func else "")
        out.append(frame)
        if f.extra:
            out += list(f.extra)
        elif f.line and 0 < f.line <= len(source) and source[f.line - 1].strip():
            out.append("    " + source[f.line - 1].strip())
    short = (etype or "").rsplit(".", 1)[-1]
    out.append(f"{short}: {msg}" if msg else short)
    text = (before.rstrip("\n") + "\n" if before.strip() else "") + "\n".join(out)
    last = mine[-1] if mine else None
    line = last.line if last else None
    where = f"{filename}, line {line}" if line else None
    located = []
    if line:
        src = source[line - 1].strip() if 0 < line <= len(source) else ""
        if src:
            located.append(
                _("Error at {file}, line {line}: `{source}`.").format(
                    file=filename, line=line, source=src
                )
            )
        else:
            located.append(_("Error at {file}, line {line}.").format(file=filename, line=line))
    module_level = last is not None and last.func in (None, "<module>")
    hints = _explain(short, msg or "", code, line, values if module_level else None)
    if given is not None and hints and (typed := typed_size(msg or "", code, given)):
        hints[-1] = f"{hints[-1]} {typed}"
    return FriendlyError(text, where, line, short, msg, tuple(located + hints), tuple(hints))


def _explain(
    etype: str, msg: str, code: str, line: int | None, values: dict[str, Any] | None
) -> list[str]:
    """What the error means in plain words: the first explainer that knows it, or nothing."""
    for explainer in _EXPLAINERS:
        found = explainer(etype, msg, code, line, values)
        if found is not None:
            return found
    return []


def _name_error(
    etype: str, msg: str, code: str, line: int | None, values: dict[str, Any] | None
) -> list[str] | None:
    m = re.match(r"name '(\w+)' is not defined", msg) if etype == "NameError" else None
    if not m:
        return None
    name = m.group(1)
    text = _(
        "`{name}` is not defined at that point: it is misspelt, or used before the line "
        "that gives it a value."
    ).format(name=name)
    guess = _did_you_mean(name, code)
    if guess:
        text += " " + _("Did you mean `{guess}`?").format(guess=guess)
    elif name == "np":
        text += " " + _("Add `import numpy as np` at the top.")
    return [text]


def _shape_error(
    etype: str, msg: str, code: str, line: int | None, values: dict[str, Any] | None
) -> list[str] | None:
    """NumPy's ValueErrors about shapes: ``@``, ``dot`` and broadcasting."""
    if etype != "ValueError":
        return None
    if msg.startswith("matmul:"):
        return [_matmul(msg, code, line, values)]
    m = re.search(r"shapes (\([\d, ]*\)) and (\([\d, ]*\)) not aligned", msg)
    if "not aligned" in msg and m:
        return [
            _(
                "The shapes {left} and {right} do not align: a matrix product needs the last "
                "axis of the left array to be as long as the first axis of the right."
            ).format(left=m.group(1), right=m.group(2))
        ]
    if "could not be broadcast" not in msg:
        return None
    return [broadcast_message(_shapes(msg), code, line)]


# NumPy names at most 32 operands of at most 64 axes; a message past that is no NumPy's (a
# program can raise any text), and reading it whole would cost quadratic time.
MAX_SHAPES, MAX_AXES = 32, 64


def _shapes(msg: str) -> list[str]:
    """The shapes a broadcasting error names, as written: at most ``MAX_SHAPES``."""
    found = itertools.islice(re.finditer(r"\(([\d, ]*)\)", msg), MAX_SHAPES)
    return [m.group(1) for m in found]


def _dims(shape: str) -> tuple[int, ...]:
    parts = shape.split(",", MAX_AXES)[:MAX_AXES]
    return tuple(n for part in parts if (n := _number(part.strip())) is not None)


def broadcast_message(shapes: list[str], code: str, line: int | None) -> str:
    """Why arrays of ``shapes`` could not be combined, naming what the program did where it can
    tell: ``*`` where the shapes align for ``@``, a reduction that lost its axis; else only the
    rule. (A size typed in shows only on a hidden case: ``typed_size``.)"""
    dims = [_dims(s) for s in shapes]
    listed = ""
    for shape in dims:
        text = str(shape)
        listed = text if not listed else _("{first} and {second}").format(first=listed, second=text)
    rule = (
        _(
            "These arrays cannot be combined element by element (shapes {shapes}): NumPy lines "
            "their axes up from the right and each pair must be equal or 1."
        ).format(shapes=listed)
        if dims
        else _(
            "These arrays cannot be combined element by element: NumPy lines their axes up "
            "from the right and each pair must be equal or 1."
        )
    )
    cause = _broadcast_cause(dims, code, line)
    return f"{rule} {cause}" if cause else rule


def _broadcast_cause(dims: list[tuple[int, ...]], code: str, line: int | None) -> str | None:
    try:
        tree = parse_tree(code)
    except PARSE_ERRORS:
        return None
    on_line = [
        n
        for n in ast.walk(tree)
        if line is not None
        and getattr(n, "lineno", 0) <= line <= (getattr(n, "end_lineno", 0) or 0)
    ]
    two = len(dims) == 2 and len(dims[0]) == 2 and len(dims[1]) == 2
    if two and dims[0][1] == dims[1][0]:
        for node in on_line:
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Mult)
                and not isinstance(node.left, ast.Constant)
                and not isinstance(node.right, ast.Constant)
            ):
                return _(
                    "`{expr}` multiplies element by element; these shapes fit a matrix "
                    "product: did you mean `@`?"
                ).format(expr=ast.unparse(node))
    # a reduction on the line, or in the assignment of a name the line uses
    used = {n.id for n in on_line if isinstance(n, ast.Name)}
    sources = [n for n in on_line if isinstance(n, ast.Call)] + [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id in used for t in node.targets)
    ]
    for source in sources:
        if any(isinstance(c, ast.Call) and _reduces(c) for c in ast.walk(source)):
            return _("A sum or max without `keepdims=True` loses an axis: is that the cause?")
    return None


def typed_size(msg: str, code: str, given: tuple[str, ...]) -> str | None:
    """On a hidden case, a broadcasting error whose clashing sizes include a size the program
    types in (``n = 4``, ``np.ones((4, 4))``): the visible data had that size, this case has
    another. ``given``: the lesson's inputs, whose lines the case replaces."""
    if "could not be broadcast" not in msg:
        return None
    sizes = _conflicting([_dims(s) for s in _shapes(msg)])
    for node in _walk(code):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name not in _SIZED or (name == "arange" and len(node.args) != 1):
                continue
            shape: list[ast.AST] = list(node.args if name == "reshape" else node.args[:1])
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            if any(isinstance(t, ast.Name) and t.id in given for t in node.targets):
                continue
            shape = [node.value]
        else:
            continue
        for arg in (n for part in shape for n in ast.walk(part)):
            if isinstance(arg, ast.Constant) and type(arg.value) is int and arg.value in sizes:
                return _(
                    "Line {line} types in the size {size} (`{source}`): with other data the "
                    "arrays have other sizes. Take the size from the data (`len(...)`, "
                    "`.shape`)."
                ).format(line=node.lineno, size=arg.value, source=ast.unparse(node))
    return None


def _conflicting(dims: list[tuple[int, ...]]) -> set[int]:
    """The sizes of the axes that do not match, lined up from the right."""
    found: set[int] = set()
    for i in range(1, max((len(d) for d in dims), default=0) + 1):
        column = {d[-i] for d in dims if len(d) >= i} - {1}
        if len(column) > 1:
            found |= column
    return found


# NumPy's calls that make an array of a given size
_SIZED = frozenset(
    {"ones", "zeros", "eye", "full", "empty", "arange", "reshape", "tri", "identity"}
)
_REDUCTIONS = frozenset({"sum", "max", "min", "mean", "prod", "std", "var"})


def _reduces(node: ast.Call) -> bool:
    """A reduction called without ``keepdims=True``."""
    name = node.func.attr if isinstance(node.func, ast.Attribute) else ""
    keeps = any(k.arg == "keepdims" for k in node.keywords)
    return name in _REDUCTIONS and not keeps


def _axis_error(
    etype: str, msg: str, code: str, line: int | None, values: dict[str, Any] | None
) -> list[str] | None:
    if "AxisError" not in etype:
        return None
    m = re.search(r"axis (-?\d+) is out of bounds for array of dimension (\d+)", msg)
    axis, ndim = (_number(m.group(1)), _number(m.group(2))) if m else (None, None)
    if axis is None or ndim is None:
        return None
    return [
        ngettext(
            "There is no axis {axis}: the array has {ndim} axis, numbered 0 to {last} "
            "(or -1 for the last one).",
            "There is no axis {axis}: the array has {ndim} axes, numbered 0 to {last} "
            "(or -1 for the last one).",
            ndim,
        ).format(axis=axis, ndim=ndim, last=ndim - 1)
    ]


def _index_error(
    etype: str, msg: str, code: str, line: int | None, values: dict[str, Any] | None
) -> list[str] | None:
    if etype != "IndexError":
        return None
    m = re.search(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", msg)
    if m and None not in (_number(m.group(1)), _number(m.group(2)), _number(m.group(3))):
        size = int(m.group(3))
        return [
            ngettext(
                "Index {index} does not exist along axis {axis}, which has only {size} entry "
                "(numbered 0 to {last}).",
                "Index {index} does not exist along axis {axis}, which has only {size} "
                "entries (numbered 0 to {last}).",
                size,
            ).format(index=m.group(1), axis=m.group(2), size=m.group(3), last=size - 1)
        ]
    if "tuple index out of range" in msg:
        return [_("A `.shape[...]` or tuple index asks for an axis the value does not have.")]
    return None


def _other_error(
    etype: str, msg: str, code: str, line: int | None, values: dict[str, Any] | None
) -> list[str] | None:
    """The kinds that need one sentence each."""
    if etype in ("SyntaxError", "IndentationError", "TabError"):
        return [
            _(
                "Python cannot read this line ({error}); nothing ran. Check brackets, colons, "
                "quotes and indentation."
            ).format(error=msg or etype)
        ]
    if etype == "EOFError":
        return [
            _(
                "Your program asked for more input than this case gives: `input()` found no "
                "line left to read. Read as many lines as the task says the input has."
            )
        ]
    if etype == "ZeroDivisionError":
        return [_("A division by zero: check what the divisor is on this line.")]
    if etype in ("ModuleNotFoundError", "ImportError"):
        return [_("Only the Python standard library and NumPy are available here.")]
    if etype == "TypeError" and (
        "'float' object cannot be interpreted as an integer" in msg
        or msg.startswith("slice indices must be integers")
        or "expected a sequence of integers or a single integer, got '" in msg
    ):
        return [
            _(
                "A size, count or index must be a whole number (an int), but this line gives "
                "a float: `/` always makes a float. Use `//`, or `int(...)`."
            )
        ]
    if etype == "TypeError" and "not callable" in msg:
        return [
            _(
                "Something used as a function is not one: a missing operator, or a variable "
                "that shadows a function's name?"
            )
        ]
    return None


_NO_ATTRIBUTE = re.compile(
    r"(?:module '(?P<module>[\w.]+)'|'(?P<kind>[\w.]+)' object) "
    r"has no attribute '(?P<name>\w+)'"
)


def _attribute_error(
    etype: str, msg: str, code: str, line: int | None, values: dict[str, Any] | None
) -> list[str] | None:
    """An attribute misspelt (``np.sofmax``, ``words.apend``): "did you mean", among the
    attributes the object's kind has and the ones the program names."""
    m = _NO_ATTRIBUTE.fullmatch(msg)
    if etype != "AttributeError" or m is None or len(m["name"]) > MAX_GUESS_CHARS:
        return None
    known = set(dir(_KINDS.get(m["module"] or m["kind"] or "", object)))
    known |= {n.attr for n in _walk(code) if isinstance(n, ast.Attribute)}
    known |= {n.name for n in _walk(code) if isinstance(n, ast.FunctionDef)}
    candidates = sorted(
        n for n in known - {m["name"]} if not n.startswith("_") and len(n) <= MAX_GUESS_CHARS
    )
    close = difflib.get_close_matches(m["name"], candidates, n=1, cutoff=0.7)
    if not close:
        return None
    return [
        _("`{name}` does not exist here. Did you mean `{guess}`?").format(
            name=m["name"], guess=close[0]
        )
    ]


def _builtin_index(
    etype: str, msg: str, code: str, line: int | None, values: dict[str, Any] | None
) -> list[str] | None:
    """``E[id]`` for ``E[ids]``: a built-in function's name used as an index."""
    if etype != "IndexError" or "are valid indices" not in msg or line is None:
        return None
    mine = _names_in(code)
    for node in _walk(code):
        if (
            isinstance(node, ast.Subscript)
            and node.lineno <= line <= (node.end_lineno or node.lineno)
            and isinstance(node.slice, ast.Name)
            and hasattr(builtins, node.slice.id)
        ):
            name = node.slice.id
            stored = {
                n.id
                for n in _walk(code)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
            if name in stored:
                return None  # the program's own `id`: NumPy's words are right
            close = difflib.get_close_matches(name, sorted(mine - {name}), n=1, cutoff=0.6)
            text = _(
                "`{name}` here is Python's built-in `{name}`, not a value of your program."
            ).format(name=name)
            if close:
                text += " " + _("Did you mean `{guess}`?").format(guess=close[0])
            return [text]
    return None


def _walk(code: str) -> list[ast.AST]:
    try:
        return list(ast.walk(parse_tree(code)))
    except PARSE_ERRORS:
        return []


# the kinds of objects whose attributes an AttributeError can be checked against
_KINDS: dict[str, object] = {
    "numpy": np,
    "numpy.ndarray": np.ndarray,
    "list": list,
    "str": str,
    "dict": dict,
    "set": set,
    "tuple": tuple,
    "int": int,
    "float": float,
    "numpy.random": np.random,
    "numpy.random._generator.Generator": np.random.Generator,
    "numpy.linalg": np.linalg,
}

_Explainer = Callable[[str, str, str, int | None, dict[str, Any] | None], list[str] | None]
# In this order: the first that knows the error explains it.
_EXPLAINERS: tuple[_Explainer, ...] = (
    _name_error,
    _shape_error,
    _axis_error,
    _builtin_index,
    _index_error,
    _attribute_error,
    _other_error,
)


def _names_in(code: str) -> set[str]:
    try:
        tree = parse_tree(code)
    except PARSE_ERRORS:
        return set(re.findall(r"[A-Za-z_]\w*", code))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def _did_you_mean(name: str, code: str) -> str | None:
    if len(name) > MAX_GUESS_CHARS:
        return None
    names = {n for n in _names_in(code) if len(n) <= MAX_GUESS_CHARS}
    candidates = (names | set(dir(builtins))) - {name} - set(keyword.kwlist)
    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.7)
    if close:
        return close[0]
    lowered = {c.lower(): c for c in candidates}
    return lowered.get(name.lower())


# The most ``@`` operands a re-run captures: a shape error names two of them, and the sandbox
# reports a bounded number of values (a program with thousands of them must still be explained).
MAX_OPERANDS = 32


def matmul_operands(code: str, line: int | None = None) -> tuple[str, ...]:
    """Names used as operands of ``@`` (also as ``name.T``) on ``line`` (None: anywhere), in the
    order they appear, at most ``MAX_OPERANDS``: the run captures them so that a shape error can
    show both shapes."""
    try:
        tree = parse_tree(code)
    except PARSE_ERRORS:
        return ()
    names: dict[str, tuple[int, int]] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)):
            continue
        if line is not None and not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        for side in (node.left, node.right):
            if isinstance(side, ast.Attribute) and side.attr == "T":
                side = side.value
            if isinstance(side, ast.Name):
                where = (side.lineno, side.col_offset)
                names[side.id] = min(names.get(side.id, where), where)
    return tuple(sorted(names, key=names.__getitem__)[:MAX_OPERANDS])


def error_line(stderr: str, filename: str) -> int | None:
    """The line of ``filename`` the last traceback in ``stderr`` ends at (None: not known)."""
    frames = [f for f in parse(stderr)[0] if _same_file(f.file, filename)]
    return frames[-1].line if frames else None


def _shape_of(node: ast.expr, values: dict[str, Any]) -> tuple[int, ...] | None:
    transposed = False
    if isinstance(node, ast.Attribute) and node.attr == "T":
        node, transposed = node.value, True
    if isinstance(node, ast.Name) and node.id in values:
        shape = getattr(values[node.id], "shape", None)
        if shape is not None:
            return tuple(shape[::-1]) if transposed else tuple(shape)
    return None


def _aligned(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    if not a or not b:
        return False
    return a[-1] == (b[0] if len(b) == 1 else b[-2])


def _matmul(msg: str, code: str, line: int | None, values: dict[str, Any] | None) -> str:
    m = re.search(r"size (\d+) is different from (\d+)", msg)
    right_k, left_k = (m.group(1), m.group(2)) if m else ("?", "?")
    general = _(
        "The shapes in `@` do not align: the left array's last axis has {left} entries but the "
        "right array's first axis has {right}. For `(n, k) @ (k, m)` the two k must be equal."
    ).format(left=left_k, right=right_k)
    if not values or line is None:
        return general
    try:
        tree = parse_tree(code)
    except PARSE_ERRORS:
        return general
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.MatMult)
            and node.lineno <= line <= (node.end_lineno or node.lineno)
        ):
            a, b = _shape_of(node.left, values), _shape_of(node.right, values)
            if a is None or b is None or _aligned(a, b):
                continue
            left, right = ast.unparse(node.left), ast.unparse(node.right)
            kb = b[0] if len(b) == 1 else b[-2]
            return _(
                "`{left} @ {right}` cannot be computed: `{left}` has shape {left_shape} and "
                "`{right}` has shape {right_shape}. `@` needs the last axis of the left "
                "({left_k}) to equal the first axis of the right ({right_k}) — should one of "
                "them be transposed (`.T`)?"
            ).format(left=left, right=right, left_shape=a, right_shape=b, left_k=a[-1], right_k=kb)
    return general
