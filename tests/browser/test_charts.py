"""The item-analysis charts measured in Chromium with the site's stylesheet:
every label line and every count lies inside the SVG's view box, and no label runs under the
bars. The chart is drawn by the server's own code and put into a page of the site."""

from __future__ import annotations

import pytest

from codeblanks.web.teaching.charts import BAR_X, bar_chart

from .conftest import WIDTHS, one_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROWS = [
    ("np.sum(scores, axis=0) / np.sum(scores, axis=1, keepdims=True)", 123456),
    ("softmax", 3),
    ("A very long wrong answer, with words that wrap onto a second line and on", 99999),
]


@one_width("desktop")  # the view box is in the SVG's own units
def test_every_text_of_a_chart_is_inside_its_view_box(site, page, width):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/")
    page.evaluate(
        "html => { document.querySelector('main').innerHTML = html; }",
        str(bar_chart("Wrong answers", ROWS)),
    )
    boxes = page.evaluate(
        """() => {
          const svg = document.querySelector('svg.bar-chart');
          const view = svg.viewBox.baseVal;
          const out = [];
          for (const t of svg.querySelectorAll('tspan, text.bar-count')) {
            const b = t.getBBox();
            out.push({cls: t.getAttribute('class') || 'label', x: b.x, y: b.y,
                      right: b.x + b.width, bottom: b.y + b.height,
                      vw: view.width, vh: view.height});
          }
          return out;
        }"""
    )
    assert len(boxes) == 2 + 1 + 2 + 3  # five label lines, three counts
    for b in boxes:
        assert b["x"] >= 0 and b["y"] >= 0, b
        assert b["right"] <= b["vw"] and b["bottom"] <= b["vh"], b
        if b["cls"] == "label":
            assert b["right"] <= BAR_X, b  # never under the bars
