"""Worked examples prove themselves: the ```python blocks of a lesson's explanation run, in
order, as one program in the sandbox (later blocks see the names of earlier ones), and a ```text
block written right after one of them must be exactly what that block printed. A number in the
prose that nobody ran is how a course teaches a wrong fact; this makes `codeblanks check` run it.

A fence whose info string is ``python skip`` is shown but not run (a deliberate error, a
fragment). Problem codes (docs/authoring.md): grading.E030 a block fails to run, grading.E031 a
block prints something other than the text block after it.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem
from codeblanks.grading.codes import problem
from codeblanks.grading.reference import run_one
from codeblanks.sandbox import RunLimits
from codeblanks.sandbox.result import Runner

# A line no example prints: separates the blocks' outputs in the one run.
_MARK = "\x1ecodeblanks-example-block\x1e"
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_LIMITS = RunLimits(wall_s=10.0)  # a few blocks of small NumPy: generous, yet bounded


@dataclass(frozen=True)
class Block:
    """One fenced block: its language word, the rest of its info string, its text, and the
    1-based line of its opening fence in the Markdown file."""

    lang: str
    flags: tuple[str, ...]
    code: str
    line: int


@dataclass(frozen=True)
class Example:
    """A ``python`` block to run and, when a ``text`` block follows it directly, its output."""

    block: Block
    expected: Block | None


def fenced_blocks(markdown: str) -> list[Block]:
    """The top-level fenced code blocks of CommonMark text, in order."""
    blocks: list[Block] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening or ("`" in opening.group(3) and opening.group(2)[0] == "`"):
            i += 1
            continue
        indent, fence, info = len(opening.group(1)), opening.group(2), opening.group(3).split()
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            closing = _FENCE.match(lines[j])
            if (
                closing
                and closing.group(2)[0] == fence[0]
                and len(closing.group(2)) >= len(fence)
                and not closing.group(3).strip()
            ):
                break
            body.append(_dedent(lines[j], indent))
            j += 1
        lang = info[0].lower() if info else ""
        blocks.append(Block(lang, tuple(info[1:]), "\n".join(body), i + 1))
        i = j + 1
    return blocks


def _dedent(line: str, indent: int) -> str:
    """The line without the fence's indentation (at most ``indent`` leading spaces)."""
    drop = len(line) - len(line.lstrip(" "))
    return line[min(drop, indent) :]


def examples(markdown: str) -> list[Example]:
    """The blocks to run, each with the ``text`` block that directly follows it, if any."""
    blocks = fenced_blocks(markdown)
    found = []
    for k, block in enumerate(blocks):
        if block.lang != "python" or "skip" in block.flags:
            continue
        after = blocks[k + 1] if k + 1 < len(blocks) else None
        adjacent = (
            after is not None
            and after.lang == "text"
            and _only_blank_between(markdown, block, after)
        )
        found.append(Example(block, after if adjacent else None))
    return found


def _only_blank_between(markdown: str, block: Block, after: Block) -> bool:
    lines = markdown.splitlines()
    closing = block.line + block.code.count("\n") + 1  # 0-based index of the closing fence
    return all(not line.strip() for line in lines[closing + 1 : after.line - 1])


def program(found: list[Example]) -> str:
    """One program: each block, preceded by a line that prints the separator."""
    parts = [f"print({_MARK!r})\n{ex.block.code}\n" for ex in found]
    return "".join(parts)


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


async def aprove_examples(
    lesson: Lesson, sandbox: Runner, gate: asyncio.Semaphore | None = None
) -> list[Problem]:
    """Problems with the worked examples of ``lesson``'s explanation (none when all agree);
    ``gate``: the one its lesson's other proofs go through."""
    found = examples(lesson.explanation_md)
    if not found:
        return []
    path = lesson.path / "explanation.md"
    run = await run_one(
        sandbox,
        program(found),
        filename="explanation.py",
        limits=_LIMITS,
        capture=(),
        gate=gate,
        patient=True,
    )
    outputs = run.stdout.split(_MARK + "\n")[1:]
    problems = []
    for ex, out in zip(found, outputs, strict=False):
        if ex.expected is not None and _normalise(out) != _normalise(ex.expected.code):
            problems.append(
                problem(
                    "grading.E031",
                    path,
                    ex.expected.line,
                    f"the code block at line {ex.block.line} prints {_quote(out)}, "
                    f"not what the text block after it shows",
                )
            )
    if not run.ok:
        failed = found[max(len(outputs) - 1, 0)].block
        last = run.stderr.strip().splitlines()[-1:] or [run.verdict]
        problems.append(
            problem(
                "grading.E030",
                path,
                failed.line,
                f"the code block at line {failed.line} does not run ({last[0][:200]})",
            )
        )
    return problems


def _quote(text: str) -> str:
    text = _normalise(text)
    shown = text if len(text) <= 160 else text[:157] + "..."
    return "nothing" if not text else "“" + shown.replace("\n", "⏎") + "”"
