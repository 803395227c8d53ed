"""The item-analysis bar charts (teaching/charts.py) keep every text inside their view box:
a long label wraps onto two lines and is then cut, a large count still fits
after the longest bar. Geometry read from the SVG itself; tests/browser/test_charts.py measures
the same in Chromium."""

from __future__ import annotations

import re

from codeblanks.web.teaching import charts
from codeblanks.web.teaching.charts import bar_chart, label_lines

LONG = "a wrong answer that goes on and on, far longer than any label column could hold"


def test_a_long_label_wraps_onto_two_lines_then_is_cut():
    lines = label_lines(LONG)
    assert len(lines) == 2 and all(len(x) <= charts.LINE_CHARS for x in lines)
    assert lines[-1].endswith("…") and lines[0] == "a wrong answer that"
    assert label_lines("short") == ["short"]
    assert label_lines("x" * 50) == ["x" * 20, "x" * 19 + "…"]  # no space: cut all the same
    assert label_lines("  ") == ["—"]


def test_every_count_ends_inside_the_view_box():
    svg = str(bar_chart("Counts", [("a", 123456), ("b", 7), (LONG, 99999)]))
    width = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))
    for x, count in re.findall(r'<text x="(\d+)" y="[\d.]+" class="bar-count">(\d+)</text>', svg):
        assert int(x) + charts.DIGIT * len(count) <= width, (x, count)
    assert svg.count("<tspan") == 1 + 1 + 2  # the long label on two lines
    height = float(re.search(r'viewBox="0 0 \d+ ([\d.]+)"', svg).group(1))
    baselines = [float(y) for y in re.findall(r'<tspan x="0" y="([\d.]+)"', svg)]
    assert max(baselines) + 4 <= height  # the last line's descenders too
