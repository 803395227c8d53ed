"""Horizontal bar charts as inline SVG, drawn on the server (no script, no network): one bar
per row, its count at its end. Accessible: ``role="img"`` with a label that reads out every
bar, and every text escaped (labels are learners' answers)."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

ROW = 26  # px per bar
LABEL_CHARS = 34  # a longer label is cut with "…" (the full text is in the table beside it)
WIDTH = 360


def _short(text: str) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= LABEL_CHARS else one_line[: LABEL_CHARS - 1] + "…"


def bar_chart(title: str, rows: list[tuple[str, int]]) -> SafeString:
    """An SVG of ``rows`` (label, count), scaled to the largest count."""
    top = max((n for _, n in rows), default=0) or 1
    height = ROW * max(len(rows), 1) + 4
    spoken = "; ".join(f"{label}: {n}" for label, n in rows) or "—"
    parts = [
        f'<svg class="bar-chart" role="img" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" preserveAspectRatio="xMinYMin meet" '
        f'aria-label="{escape(title)}: {escape(spoken)}">',
        f"<title>{escape(title)}</title>",
    ]
    for i, (label, n) in enumerate(rows):
        y = i * ROW + 2
        bar = round((WIDTH - 190) * n / top)
        parts += [
            f'<text x="0" y="{y + 16}" class="bar-label">{escape(_short(label))}</text>',
            f'<rect x="180" y="{y + 3}" width="{max(bar, 1)}" height="{ROW - 8}" class="bar"/>',
            f'<text x="{186 + bar}" y="{y + 16}" class="bar-count">{n}</text>',
        ]
    parts.append("</svg>")
    return mark_safe("".join(parts))
