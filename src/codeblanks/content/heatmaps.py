"""A lesson's ```heatmap code blocks: a literal 2-D list drawn as a picture in the explanation.

    ```heatmap
    title: The causal mask of four tokens
    [[0, "-inf", "-inf"], [0, 0, "-inf"], [0, 0, 0]]
    ```

An optional first line ``title: ...``, then a Python literal: a list of rows of equal length,
each a list of numbers (``True``/``False`` too); infinities and NaN are written as the strings
``"inf"``, ``"-inf"`` and ``"nan"`` (a literal cannot hold them). Parsed here, in the content
layer, so that ``codeblanks check`` reports a broken block (content.E112) with its file and line
before the web app ever draws one (web/pages/heatmap.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from codeblanks.content.codes import problem
from codeblanks.content.problems import Problem
from codeblanks.content.pysource import literal_value

LANGUAGE = "heatmap"
MOST_CELLS = 64 * 64  # a block larger than this is refused (only 16 x 16 are ever drawn)
_WORDS = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*heatmap\s*$")


class HeatmapBlockError(ValueError):
    """What is wrong with a block, in words for the lesson's author."""


@dataclass(frozen=True)
class HeatmapBlock:
    title: str
    rows: tuple[tuple[bool | int | float, ...], ...]


def _cell(value: object, i: int, j: int) -> bool | int | float:
    if isinstance(value, str) and value in _WORDS:
        return _WORDS[value]
    if isinstance(value, bool | int | float):
        return value
    raise HeatmapBlockError(
        f'row {i}, column {j} holds {value!r}: write a number, True/False, "inf", "-inf" or "nan"'
    )


def parse_block(text: str) -> HeatmapBlock:
    """The block's title and rows; ``HeatmapBlockError`` says what is wrong."""
    lines = text.strip().splitlines()
    title = ""
    if lines and lines[0].strip().lower().startswith("title:"):
        title = lines[0].split(":", 1)[1].strip()
        lines = lines[1:]
    body = "\n".join(lines).strip()
    if not body:
        raise HeatmapBlockError("the block holds no list of rows")
    try:
        value = literal_value(body)  # its tree built under the one lock (pysource.py)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as err:
        raise HeatmapBlockError(
            f"the rows are not a Python literal ({type(err).__name__})"
        ) from None
    if not isinstance(value, list | tuple) or not value:
        raise HeatmapBlockError("write a non-empty list of rows, e.g. [[1, 0], [0, 1]]")
    if not all(isinstance(row, list | tuple) and row for row in value):
        raise HeatmapBlockError("every row must be a non-empty list of numbers")
    width = len(value[0])
    for i, row in enumerate(value):
        if len(row) != width:
            raise HeatmapBlockError(f"row {i} has {len(row)} cells, but row 0 has {width}")
    if len(value) * width > MOST_CELLS:
        raise HeatmapBlockError(f"the block has more than {MOST_CELLS} cells")
    rows = tuple(tuple(_cell(v, i, j) for j, v in enumerate(row)) for i, row in enumerate(value))
    return HeatmapBlock(title, rows)


def _blocks(markdown: str) -> Iterator[tuple[int, str]]:
    """(line number of the opening fence, the block's text) for each ```heatmap block."""
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, start, body = opening.group(1), i + 1, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        yield start, "\n".join(body)
        i += 1


def heatmap_problems(markdown: str | None, path: Path) -> list[Problem]:
    """content.E112 for every broken ```heatmap block of ``markdown`` (the file at ``path``)."""
    problems = []
    for line, text in _blocks(markdown or ""):
        try:
            parse_block(text)
        except HeatmapBlockError as err:
            problems.append(problem("content.E112", path, line, f"heatmap block: {err}"))
    return problems
