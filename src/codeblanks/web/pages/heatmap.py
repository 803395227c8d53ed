"""2-D arrays as pictures: heatmaps drawn on the server as inline SVG, no network.

Colour-blind-safe scales: viridis for values of one sign, purple-white-orange (ColorBrewer's
PuOr) when they take both signs, and both sides of a comparison share one scale. A cell that
differs from the other side carries a shape (a ring and a slash), never only a colour. NaN and
infinities get a grey cell with a glyph. Every value is in the cell's ``<title>`` (hover) and
in ``data-value``, which static/codeblanks/heatmap.js shows in the figure's readout on hover
and on keyboard focus (arrow keys move between cells). Text parts follow the page's colour
scheme (``currentColor``); the data colours are the same in both.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from codeblanks.content.heatmaps import HeatmapBlock
from codeblanks.grading.arrays import CAP, ArrayPair, ArraySide

Number = bool | int | float
UNIT = 24  # a cell's side in SVG units
MARGIN = 22  # room for the row and column numbers

VIRIDIS: tuple[str, ...] = (
    "#440154",
    "#482878",
    "#3e4989",
    "#31688e",
    "#26828e",
    "#1f9e89",
    "#35b779",
)
VIRIDIS += ("#6ece58", "#fde725")
PUOR: tuple[str, ...] = ("#2d004b", "#542788", "#8073ac", "#b2abd2", "#d8daeb", "#f7f7f7")
PUOR += ("#fee0b6", "#fdb863", "#e08214", "#b35806", "#7f3b08")
NONFINITE_FILL = "#c8c8c8"


@dataclass(frozen=True)
class Scale:
    low: float
    high: float
    diverging: bool

    def colour(self, value: float) -> str:
        stops = PUOR if self.diverging else VIRIDIS
        # halves first: the span of values near the float's limits overflows to inf
        span = self.high / 2 - self.low / 2
        t = (value / 2 - self.low / 2) / span if span > 0 else 0.5
        t = min(max(t, 0.0), 1.0) if math.isfinite(t) else 0.5
        x = t * (len(stops) - 1)
        i = min(int(x), len(stops) - 2)
        a, b = _rgb(stops[i]), _rgb(stops[i + 1])
        mix = [round(p + (q - p) * (x - i)) for p, q in zip(a, b, strict=True)]
        return "#{:02x}{:02x}{:02x}".format(*mix)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[k : k + 2], 16) for k in (1, 3, 5))  # type: ignore[return-value]


def as_float(value: Number | str) -> float:
    """A cell as a float; the JSON spellings "nan", "inf", "-inf" too."""
    return float(value)


def scale_for(*grids: Sequence[Sequence[Number | str]]) -> Scale:
    """One scale for all ``grids``, from their finite values: diverging and centred on 0 when
    they take both signs."""
    finite = [f for g in grids for row in g for v in row if math.isfinite(f := as_float(v))]
    if not finite:
        return Scale(0.0, 1.0, False)
    low, high = min(finite), max(finite)
    if low < 0 < high:
        reach = max(-low, high)
        return Scale(-reach, reach, True)
    return Scale(low, high, False)


def show(value: Number | str) -> str:
    """A cell's value in words: ints as they are, floats to four significant digits."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    number = as_float(value)
    if math.isnan(number):
        return "nan"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return f"{number:.4g}"


def _glyph(value: float) -> str:
    return "NaN" if math.isnan(value) else ("∞" if value > 0 else "−∞")


def _numbers(count: int, horizontal: bool) -> list[str]:
    step = 1 if count <= 8 else 2  # every other index when 16 would crowd
    out = []
    for k in range(0, count, step):
        middle = MARGIN + k * UNIT + UNIT / 2
        if horizontal:
            out.append(f'<text x="{middle:g}" y="{MARGIN - 7}" text-anchor="middle">{k}</text>')
        else:
            out.append(f'<text x="{MARGIN - 5}" y="{middle + 4:g}" text-anchor="end">{k}</text>')
    return out


def heatmap_svg(
    cells: Sequence[Sequence[Number | str]],
    *,
    label: str,
    name: str,
    scale: Scale | None = None,
    marks: Sequence[Sequence[bool]] | None = None,
    other: Sequence[Sequence[Number | str]] | None = None,
    other_word: str = "",
) -> SafeString:
    """``cells`` (rows of numbers, at most ``CAP`` x ``CAP`` drawn) as an ``<svg role="img">``
    labelled ``label``. ``marks``: cells to mark as different; ``other``: the compared array,
    whose value each cell's title quotes after ``other_word`` ("expected")."""
    rows = [list(r[:CAP]) for r in cells[:CAP]]
    scale = scale or scale_for(rows)
    height, width = len(rows), max((len(r) for r in rows), default=0)
    w, h = MARGIN + width * UNIT + 2, MARGIN + height * UNIT + 2
    zoom = 2 if max(width, height) <= 4 else 1.5 if max(width, height) <= 8 else 1  # CSS shrinks
    parts = [
        f'<svg class="heatmap-svg" role="img" aria-label="{escape(label)}" '
        f'viewBox="0 0 {w} {h}" width="{w * zoom:g}" height="{h * zoom:g}" '
        'xmlns="http://www.w3.org/2000/svg">',
        '<g class="heatmap-index" aria-hidden="true">',
        *_numbers(width, True),
        *_numbers(height, False),
        "</g>",
    ]
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            parts.append(_cell(i, j, value, scale, name, marks, other, other_word))
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _cell(i, j, value, scale, name, marks, other, other_word) -> str:
    x, y = MARGIN + j * UNIT, MARGIN + i * UNIT
    number = as_float(value)
    words = f"{name}[{i}, {j}] = {show(value)}"
    if other is not None and i < len(other) and j < len(other[i]):
        words += f" ({other_word} {show(other[i][j])})"
    marked = bool(marks and i < len(marks) and j < len(marks[i]) and marks[i][j])
    fill = scale.colour(number) if math.isfinite(number) else NONFINITE_FILL
    attrs = f'data-row="{i}" data-col="{j}" data-value="{escape(words)}"'
    out = [
        f'<g class="cell{" differs" if marked else ""}" {attrs}>',
        f"<title>{escape(words)}</title>",
        f'<rect x="{x}" y="{y}" width="{UNIT}" height="{UNIT}" fill="{fill}"/>',
    ]
    if not math.isfinite(number):
        out.append(
            f'<text class="glyph" x="{x + UNIT / 2:g}" y="{y + UNIT / 2 + 4:g}" '
            f'text-anchor="middle">{_glyph(number)}</text>'
        )
    if marked:  # a ring and a slash, black over white: seen on any fill, without colour
        box = f'x="{x + 3}" y="{y + 3}" width="{UNIT - 6}" height="{UNIT - 6}"'
        slash = f'x1="{x + 5}" y1="{y + UNIT - 5}" x2="{x + UNIT - 5}" y2="{y + 5}"'
        out.append(
            f'<rect class="mark-under" {box}/><rect class="mark" {box}/>'
            f'<line class="mark-under" {slash}/><line class="mark" {slash}/>'
        )
    out.append("</g>")
    return "".join(out)


def shape_words(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ")"


def cut_note(shape: Sequence[int]) -> str:
    """What is left out of an array larger than ``CAP`` x ``CAP``; empty when nothing is."""
    rows, cols = shape
    if rows <= CAP and cols <= CAP:
        return ""
    return _(
        "Only the first {rows} rows and {cols} columns of the {shape} array are drawn."
    ).format(rows=min(rows, CAP), cols=min(cols, CAP), shape=shape_words(shape))


@dataclass(frozen=True)
class Picture:
    caption: str
    svg: SafeString
    cut: str = ""
    low: str = ""  # the scale's ends, for the legend
    high: str = ""
    diverging: bool = False
    note: str = ""  # instead of a picture: why there is none


@dataclass(frozen=True)
class PairPicture:
    name: str
    mine: Picture
    expected: Picture
    differing: int  # cells marked (of those drawn); -1: the shapes differ


def _legend(scale: Scale, truth: bool = False) -> dict:
    """The scale's ends in words (False and True for a mask of booleans)."""
    low, high = ("False", "True") if truth else (show(scale.low), show(scale.high))
    return {"low": low, "high": high, "diverging": scale.diverging}


def _booleans(*sides: ArraySide | None) -> bool:
    cells = [v for side in sides if side is not None for row in side.cells for v in row]
    return bool(cells) and all(isinstance(v, bool) for v in cells)


def _side_picture(
    side: ArraySide | None, caption: str, label: str, legend: dict, **drawing
) -> Picture:
    """One side of a pair; ``drawing``: ``heatmap_svg``'s keywords."""
    if side is None:
        return Picture(caption, mark_safe(""), note=_("Not a 2-D array of numbers."))
    svg = heatmap_svg(side.cells, label=label, **drawing)
    return Picture(caption, svg, cut_note(side.shape), **legend)


def _label(text: str, name: str, side: ArraySide | None) -> str:
    return text.format(name=name, shape=shape_words(side.shape) if side else "")


def pair_picture(pair: ArrayPair) -> PairPicture:
    """The learner's and the expected array of one wrong value, side by side on one scale."""
    mine, theirs = pair.got, pair.expected
    scale = scale_for(*(s.cells for s in (mine, theirs) if s is not None))
    legend = _legend(scale, truth=_booleans(mine, theirs))
    differing = sum(map(sum, pair.differ)) if pair.differ is not None else -1
    mine_label = _label(_("Heatmap of your {name}, shape {shape}"), pair.name, mine)
    if differing > 0:
        mine_label += ". " + ngettext(
            "{count} marked cell differs from the expected one.",
            "{count} marked cells differ from the expected ones.",
            differing,
        ).format(count=differing)
    compared = theirs.cells if theirs is not None and pair.differ is not None else None
    expected_label = _label(_("Heatmap of the expected {name}, shape {shape}"), pair.name, theirs)
    return PairPicture(
        name=pair.name,
        mine=_side_picture(
            mine,
            _("Yours"),
            mine_label,
            legend,
            name=pair.name,
            scale=scale,
            marks=pair.differ,
            other=compared,
            other_word=_("expected"),
        ),
        expected=_side_picture(
            theirs, _("Expected"), expected_label, legend, name=pair.name, scale=scale
        ),
        differing=differing,
    )


def block_picture(block: HeatmapBlock) -> Picture:
    """A lesson's ```heatmap block (content/heatmaps.py) as a picture."""
    shape = (len(block.rows), len(block.rows[0]))
    scale = scale_for(block.rows)
    title = block.title or _("An array")
    label = _("Heatmap: {title}, shape {shape}").format(title=title, shape=shape_words(shape))
    svg = heatmap_svg(block.rows, label=label, name="", scale=scale)
    return Picture(title, svg, cut_note(shape), **_legend(scale))


_figures = itertools.count(1)


def heatmap_figure(block: HeatmapBlock) -> str:
    """A lesson's ```heatmap block as the figure the verdict's pictures use (one template)."""
    picture, number = block_picture(block), next(_figures)
    context = {"picture": picture, "readout_id": f"heatmap-{number}", "explain": True}
    return render_to_string("codeblanks/partials/heatmap_figure.html", context)
