"""Horizontal bar charts as inline SVG, drawn on the server (no script, no network): one bar
per row, its count at its end. Accessible: ``role="img"`` with a label that reads out every
bar, and every text escaped (labels are learners' answers). Everything stays inside the view
box: a long label wraps onto a second line (then is cut with "…"; the full text is
in the table beside it), and the bars are scaled so the largest count still fits after its bar."""

from __future__ import annotations

import textwrap

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 360
LINE = 16  # px per line of a label, at the stylesheet's 13 px
PAD = 10  # px above and below a row's lines
LINE_CHARS = 20  # what fits in the label column (BAR_X px) at 13 px, most letters
LINES = 2  # a label wraps onto at most this many lines
BAR_X = 180
DIGIT = 9  # px per digit of a count (Chromium draws 13 px digits about 8.3 px wide)
GAP = 6  # px between a bar and its count


def label_lines(text: str) -> list[str]:
    """The label on at most ``LINES`` lines of ``LINE_CHARS``; the last cut with "…"."""
    one_line = " ".join(text.split()) or "—"
    lines = textwrap.wrap(one_line, LINE_CHARS, break_long_words=True, break_on_hyphens=False)
    if len(lines) > LINES:
        lines = lines[:LINES]
        lines[-1] = lines[-1][: LINE_CHARS - 1] + "…"
    return lines


def bar_chart(title: str, rows: list[tuple[str, int]]) -> SafeString:
    """An SVG of ``rows`` (label, count), scaled to the largest count."""
    top = max((n for _, n in rows), default=0) or 1
    room = WIDTH - BAR_X - GAP - DIGIT * max(len(str(n)) for n in [top, *(n for _, n in rows)])
    wrapped = [label_lines(label) for label, _ in rows]
    heights = [LINE * len(lines) + PAD for lines in wrapped]
    height = sum(heights) + 4 if rows else LINE + PAD
    spoken = "; ".join(f"{label}: {n}" for label, n in rows) or "—"
    parts = [
        f'<svg class="bar-chart" role="img" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" preserveAspectRatio="xMinYMin meet" '
        f'aria-label="{escape(title)}: {escape(spoken)}">',
        f"<title>{escape(title)}</title>",
    ]
    y = 2
    for (_label, n), lines, h in zip(rows, wrapped, heights, strict=True):
        bar = round(room * n / top)
        middle = y + h / 2
        first = middle - LINE * (len(lines) - 1) / 2 + 5  # the baseline of the first line
        spans = "".join(
            f'<tspan x="0" y="{first + LINE * i:g}">{escape(line)}</tspan>'
            for i, line in enumerate(lines)
        )
        parts += [
            f'<text class="bar-label">{spans}</text>',
            f'<rect x="{BAR_X}" y="{middle - 9:g}" width="{max(bar, 1)}" height="18" class="bar"/>',
            f'<text x="{BAR_X + bar + GAP}" y="{middle + 5:g}" class="bar-count">{n}</text>',
        ]
        y += h
    parts.append("</svg>")
    return mark_safe("".join(parts))
