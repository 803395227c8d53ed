"""Broken characters in lesson texts: control characters and backslash sequences that no
renderer understands.

Both come from text that went through a string escape on its way into a file: ``"\\text"``
written in a Python or TOML string turns into a TAB followed by ``ext``, and KaTeX then shows
"ext" where the author meant a word in upright type. A learner sees nonsense and the file looks
almost right, so ``codeblanks check`` refuses them (content.E113, content.E114).
"""

from __future__ import annotations

import re
from pathlib import Path

from codeblanks.content.codes import problem
from codeblanks.content.problems import Problem

# Every control character but the newline (a TAB included: lesson texts indent with spaces).
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.DOTALL)
_COMMAND = re.compile(r"\\([A-Za-z]+)")

# The TeX commands lesson maths may use (KaTeX knows them all). A command outside this list is
# most often a typo or an escape gone wrong; add it here when it is really meant.
TEX_COMMANDS = frozenset(
    """
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi
    pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi
    Psi Omega
    text textbf textit mathrm mathbf mathit mathbb mathcal operatorname mathbin mathrel boldsymbol
    frac tfrac dfrac sqrt sum prod int lim max min arg argmax argmin exp log ln sin cos tan tanh
    cdot cdots ldots dots vdots ddots times div pm mp approx sim simeq equiv neq ne le leq ge geq
    ll gg in notin subset subseteq cup cap infty partial nabla to gets mapsto rightarrow leftarrow
    Rightarrow Leftarrow Leftrightarrow longrightarrow iff implies forall exists
    left right big Big bigg Bigg lVert rVert lvert rvert langle rangle lfloor rfloor lceil rceil
    vert Vert mid quad qquad hat bar tilde vec dot ddot overline underline top intercal prime
    circ odot otimes oplus star ast begin end matrix pmatrix bmatrix cases displaystyle
    """.split()  # noqa: SIM905 (a word list is easier to read and extend than a list literal)
)


def control_problems(text: str, path: Path, what: str) -> list[Problem]:
    """content.E113 for the first control character in ``text`` (one per text is enough to
    send the author to the file)."""
    found = CONTROL.search(text)
    if found is None:
        return []
    line = text.count("\n", 0, found.start()) + 1
    shown = f"U+{ord(found.group()):04X}"
    near = text[found.end() : found.end() + 12].split("\n")[0]
    return [
        problem(
            "content.E113",
            path,
            line,
            f"{what} holds the control character {shown} (before {near!r})",
        )
    ]


def markdown_problems(text: str | None, path: Path) -> list[Problem]:
    """The broken characters of one Markdown file: control characters, and outside code a
    backslash before a letter that is neither a known TeX command in maths nor anything
    Markdown understands in prose (Markdown escapes only punctuation)."""
    if text is None:
        return []
    found = control_problems(text, path, path.name)
    if found:
        return found
    prose = _without_code(text)
    for math in _MATH.finditer(prose):
        group = 1 if math.group(1) is not None else 2
        for command in _COMMAND.finditer(math.group(group)):
            if command.group(1) not in TEX_COMMANDS:
                line = prose.count("\n", 0, math.start(group) + command.start()) + 1
                return [_unknown(path, line, command.group(), "maths")]
    outside = _MATH.sub(lambda math: re.sub(r"[^\n]", " ", math.group()), prose)
    stray = _COMMAND.search(outside)
    if stray is not None:
        line = outside.count("\n", 0, stray.start()) + 1
        return [_unknown(path, line, stray.group(), "prose")]
    return []


def _unknown(path: Path, line: int, sequence: str, where: str) -> Problem:
    return problem(
        "content.E114",
        path,
        line,
        f"{path.name}: the {where} holds {sequence!r}, which no renderer knows",
    )


def _without_code(text: str) -> str:
    """``text`` with fenced code blocks and inline code spans blanked (lines kept in place)."""
    lines = []
    fence = ""
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(2).startswith(fence):
                fence = ""
            lines.append("")
            continue
        if opened:
            fence = opened.group(2)
            lines.append("")
            continue
        lines.append(_INLINE_CODE.sub(lambda code: " " * len(code.group()), line))
    return "\n".join(lines)
