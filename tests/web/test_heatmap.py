"""The verdict's and the lessons' heatmaps: SVG drawn on the server from rows of numbers."""

from __future__ import annotations

import dataclasses
import math
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from django.utils import translation

from codeblanks.content.heatmaps import HeatmapBlock, HeatmapBlockError, parse_block
from codeblanks.grading.arrays import CAP, array_pairs
from codeblanks.web.pages.heatmap import (
    PUOR,
    VIRIDIS,
    block_picture,
    heatmap_svg,
    pair_picture,
    scale_for,
    show,
)
from codeblanks.web.pages.prose import render_lesson_text

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(str(svg))  # well-formed XML, or this raises


def cells(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "cell" in g.get("class", "").split()]


def test_one_cell_per_value_with_its_value_in_the_title():
    root = parsed(heatmap_svg([[1, 2, 3], [4, 5, 6]], label="A, shape (2, 3)", name="A"))
    assert root.get("role") == "img" and root.get("aria-label") == "A, shape (2, 3)"
    found = cells(root)
    assert len(found) == 6
    titles = [g.find(f"{SVG}title").text for g in found]
    assert titles[0] == "A[0, 0] = 1" and titles[5] == "A[1, 2] = 6"
    assert [g.get("data-value") for g in found] == titles


def test_sequential_scale_from_low_to_high_and_diverging_for_both_signs():
    root = parsed(heatmap_svg([[0.0, 1.0]], label="x", name="x"))
    fills = [g.find(f"{SVG}rect").get("fill") for g in cells(root)]
    assert fills == [VIRIDIS[0], VIRIDIS[-1]]
    signed = parsed(heatmap_svg([[-2.0, 0.0, 1.0]], label="x", name="x"))
    fills = [g.find(f"{SVG}rect").get("fill") for g in cells(signed)]
    assert fills[0] == PUOR[0] and fills[1] == PUOR[len(PUOR) // 2]  # centred on zero
    assert scale_for([[-2.0, 1.0]]).diverging and not scale_for([[2.0, 1.0]]).diverging


def test_marked_cells_carry_a_shape_not_only_a_colour():
    root = parsed(
        heatmap_svg([[1, 2], [3, 4]], label="x", name="x", marks=[[False, True], [False, False]])
    )
    found = cells(root)
    marked = [g for g in found if "differs" in g.get("class")]
    assert len(marked) == 1 and marked[0].get("data-col") == "1"
    assert marked[0].find(f"{SVG}line") is not None  # the slash
    assert [r.get("class") for r in marked[0].findall(f"{SVG}rect")][1:] == ["mark-under", "mark"]
    assert all(g.find(f"{SVG}line") is None for g in found if g is not marked[0])


def test_every_text_is_escaped():
    evil = '<script>alert("x")</script>&'
    svg = str(heatmap_svg([[1]], label=evil, name=evil))
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    root = parsed(svg)
    assert root.get("aria-label") == evil
    assert cells(root)[0].find(f"{SVG}title").text == f"{evil}[0, 0] = 1"


def test_nan_and_infinities_get_a_grey_cell_with_a_sign_and_leave_the_scale_alone():
    root = parsed(
        heatmap_svg([[math.nan, math.inf], [-math.inf, 0.5], [1.0, 0.0]], label="x", name="s")
    )
    found = cells(root)
    glyphs = [g.find(f"{SVG}text") for g in found]
    assert [t.text if t is not None else None for t in glyphs[:3]] == ["NaN", "∞", "−∞"]
    assert found[0].find(f"{SVG}title").text == "s[0, 0] = nan"
    assert found[2].find(f"{SVG}title").text == "s[1, 0] = -inf"
    assert found[4].find(f"{SVG}rect").get("fill") == VIRIDIS[-1]  # 1.0 is the top of the scale
    assert "nan" not in "".join(r.get("fill") for g in found for r in g.findall(f"{SVG}rect"))


def test_only_non_finite_values_still_draw():
    root = parsed(heatmap_svg([["nan", "-inf"]], label="x", name="x"))
    assert len(cells(root)) == 2


def test_a_one_by_one_array_and_a_constant_one():
    root = parsed(heatmap_svg([[7]], label="x", name="x"))
    assert len(cells(root)) == 1
    fill = cells(root)[0].find(f"{SVG}rect").get("fill")
    assert re.fullmatch(r"#[0-9a-f]{6}", fill)


def test_large_arrays_are_cut_and_say_so():
    rows = [[i * 40 + j for j in range(40)] for i in range(20)]
    assert len(cells(parsed(heatmap_svg(rows, label="x", name="x")))) == CAP * CAP
    picture = block_picture(parse_block(str(rows)))
    assert len(cells(parsed(picture.svg))) == CAP * CAP
    assert "16 rows and 16 columns of the (20, 40) array" in picture.cut
    assert block_picture(parse_block("[[1, 2]]")).cut == ""


def test_values_in_words():
    assert [show(v) for v in (True, 3, 0.123456, "nan", "-inf", 1e-9)] == [
        "True", "3", "0.1235", "nan", "-inf", "1e-09",
    ]  # fmt: skip


def test_a_wrong_answer_pair_shares_one_scale_and_marks_the_differences():
    got = {"A": np.array([[1.0, 0.0], [0.5, 0.5]]), "n": 2}
    expected = {"A": np.array([[1.0, 0.0], [0.2, 0.8]]), "n": 2}
    (pair,) = array_pairs(got, expected, ("n", "A"))
    assert pair.differ == ((False, False), (True, True))
    picture = pair_picture(pair)
    assert picture.differing == 2
    mine, theirs = parsed(picture.mine.svg), parsed(picture.expected.svg)
    assert "your A, shape (2, 2)" in mine.get("aria-label")
    assert "2 marked cells differ" in mine.get("aria-label")
    assert "expected A, shape (2, 2)" in theirs.get("aria-label")
    assert cells(mine)[2].find(f"{SVG}title").text == "A[1, 0] = 0.5 (expected 0.2)"
    assert not [g for g in cells(theirs) if "differs" in g.get("class")]
    # one scale: 1.0 is the top colour on both sides
    assert cells(mine)[0].find(f"{SVG}rect").get("fill") == VIRIDIS[-1]
    assert cells(theirs)[0].find(f"{SVG}rect").get("fill") == VIRIDIS[-1]


def test_pairs_keep_only_wrong_two_d_arrays_and_cut_them():
    big = np.arange(30 * 20, dtype=float).reshape(30, 20)
    got = {
        "same": np.eye(3),
        "row": np.zeros(3),
        "big": big + 1,
        "text": "'x'",
        "shape": np.ones((2, 3)),
    }
    expected = {
        "same": np.eye(3),
        "row": np.ones(3),
        "big": big,
        "text": "'y'",
        "shape": np.ones((3, 2)),
    }
    pairs = array_pairs(got, expected, ("same", "row", "big", "text", "shape"))
    assert [p.name for p in pairs] == ["big", "shape"]
    big_pair, shape_pair = pairs
    assert big_pair.got.shape == (30, 20) and len(big_pair.got.cells) == CAP
    assert all(len(r) == CAP for r in big_pair.got.cells)
    assert shape_pair.differ is None and pair_picture(shape_pair).differing == -1


def test_a_pair_with_one_side_not_an_array_says_so():
    (pair,) = array_pairs({"A": np.ones(3)}, {"A": np.ones((2, 2))}, ("A",))
    picture = pair_picture(pair)
    assert pair.got is None and picture.mine.note and not picture.mine.svg


def test_json_carries_nan_and_infinities_as_words():
    (pair,) = array_pairs(
        {"A": np.array([[np.nan, -np.inf]])}, {"A": np.array([[1.0, 2.0]])}, ("A",)
    )
    assert pair.to_json()["got"]["cells"] == [["nan", "-inf"]]
    assert pair.to_json()["differ"] == [[True, True]]


def test_tolerance_decides_which_cells_differ():
    got, expected = {"A": np.array([[1.0 + 1e-12, 2.0]])}, {"A": np.array([[1.0, 2.5]])}
    (pair,) = array_pairs(got, expected, ("A",))
    assert pair.differ == ((False, True),)
    assert array_pairs(got, expected, ("A",), rtol=0.5) == ()


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "no list of rows"),
        ("title: only a title", "no list of rows"),
        ("[[1, 2], [3]]", "row 1 has 1 cells"),
        ("[[1, 'x']]", "row 0, column 1 holds 'x'"),
        ("[1, 2]", "non-empty list of numbers"),
        ("[]", "non-empty list of rows"),
        ("[[1, 2]", "not a Python literal"),
        ("__import__('os')", "not a Python literal"),
    ],
)
def test_broken_blocks_say_what_is_wrong(text, words):
    with pytest.raises(HeatmapBlockError, match=re.escape(words)):
        parse_block(text)


def test_a_block_with_title_and_words_for_infinity():
    block = parse_block('title: Mask\n[[0, "-inf"], [True, 0.5]]')
    assert block == HeatmapBlock("Mask", ((0, -math.inf), (True, 0.5)))


def test_lesson_prose_draws_a_heatmap_block_in_the_readers_language():
    text = "Intro.\n\n```heatmap\ntitle: The <mask>\n[[0, 1], [1, 0]]\n```\n"
    html = str(render_lesson_text(text))
    assert '<figure class="heatmap"' in html and 'role="img"' in html
    assert "The &lt;mask&gt;" in html and "<mask>" not in html
    assert "<pre" not in html
    with translation.override("tr"):
        turkish = str(render_lesson_text(text))
    assert "Isı haritası: The &lt;mask&gt;, şekli (2, 2)" in turkish
    assert "Heatmap: The &lt;mask&gt;, shape (2, 2)" in html
    # a broken block stays code (and `codeblanks check` reports it: content.E112)
    assert '<pre class="code"' in str(render_lesson_text("```heatmap\n[[1], [2, 3]]\n```\n"))


def test_a_mask_of_booleans_says_false_and_true():
    got, expected = {"m": np.eye(2, dtype=bool)}, {"m": ~np.eye(2, dtype=bool)}
    picture = pair_picture(array_pairs(got, expected, ("m",))[0])
    assert (picture.mine.low, picture.mine.high) == ("False", "True")
    assert "m[0, 0] = True (expected False)" in str(picture.mine.svg)


def test_values_at_the_limits_of_a_float_still_draw():
    root = parsed(heatmap_svg([[-1e308, 0.0, 1e308], [5e-324, 1.0, -1.0]], label="x", name="x"))
    fills = [g.find(f"{SVG}rect").get("fill") for g in cells(root)]
    assert fills[0] == PUOR[0] and fills[2] == PUOR[-1]


def test_an_empty_array_against_a_full_one_draws_without_cells():
    (pair,) = array_pairs({"A": np.zeros((0, 3))}, {"A": np.ones((2, 3))}, ("A",))
    picture = pair_picture(pair)
    assert picture.differing == -1
    assert cells(parsed(picture.mine.svg)) == [] and len(cells(parsed(picture.expected.svg))) == 6


def test_the_verdict_draws_the_pictures_and_names_a_hidden_case():
    from django.template.loader import render_to_string

    from codeblanks.grading import Grade
    from codeblanks.learning.present import present

    pairs = array_pairs({"A": np.eye(2)}, {"A": np.ones((2, 2))}, ("A",))
    grade = Grade("incorrect", "", "", "", ("A differs.",), "six tokens", arrays=pairs)
    html = render_to_string("codeblanks/partials/run_result.html", {"run": present(grade)})
    assert "Your arrays as pictures, on the hidden case “six tokens”" in html
    assert html.count('role="img"') == 2 and "2 cells differ" in html
    visible = dataclasses.replace(grade, case="visible")
    html = render_to_string("codeblanks/partials/run_result.html", {"run": present(visible)})
    assert "Your arrays as pictures</h4>" in html
    plain = dataclasses.replace(grade, arrays=())
    html = render_to_string("codeblanks/partials/run_result.html", {"run": present(plain)})
    assert "array-pictures" not in html
