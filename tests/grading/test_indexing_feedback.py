"""Lesson 1's indexing questions, as the learner's trial answered them, through the
real sandbox: the feedback says what went wrong in terms of indexing, in English and Turkish.
Before, `4, 4, 1` got only "That answer fails when it runs." and `:, -1` was asked whether a sum
or max had lost `keepdims=True`, in a question with no sum in it."""

from __future__ import annotations

import pytest

from codeblanks import i18n
from codeblanks.content import catalog
from codeblanks.grading import check_blank

LESSON = "arrays-and-shapes"


def question(qid: str, lang: str = "en"):
    lesson = catalog().in_language(lang).lesson(LESSON)
    (q,) = [q for q in lesson.questions if q.id == qid]
    return lesson, q


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["fails when it runs", "the array has 2, the answer 3", "in a list"]),
        ("tr", ["çalışırken hata veriyor", "dizinin 2 ekseni var, cevap 3 indeks", "listeye"]),
    ],
)
def test_too_many_indices_says_so_and_how_to_pick_rows(lang, words):
    lesson, q = question("look-up-ids", lang)
    with i18n.language(lang):
        v = check_blank(lesson, q, "4, 4, 1")
    assert not v.correct and v.error == "IndexError"
    for w in words:
        assert w in v.message, v.message
    with i18n.language(lang):
        assert check_blank(lesson, q, "[4, 4, 1]").correct


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["shape (5,)", "shape (5, 1)", "a single number as an index drops its axis"]),
        ("tr", ["(5,)", "(5, 1)", "tek bir sayı o ekseni düşürür"]),
    ],
)
def test_a_lost_axis_without_a_sum_is_about_the_index_not_keepdims(lang, words):
    lesson, q = question("keep-the-column", lang)
    with i18n.language(lang):
        v = check_blank(lesson, q, ":, -1")
    assert not v.correct
    assert "keepdims" not in v.message and "sum" not in v.message, v.message
    for w in words:
        assert w in v.message, v.message


def test_past_the_end_names_the_axis_and_its_size():
    lesson, q = question("look-up-ids")
    v = check_blank(lesson, q, "[4, 4, 9]")
    assert not v.correct and v.error == "IndexError"
    assert "past the end of axis 0" in v.message and "numbered 0 to" in v.message, v.message


def test_a_lost_keepdims_is_still_named_where_there_is_a_sum():
    """Where the line does reduce, values.py's guess stays (it is the likely cause there)."""
    from codeblanks.grading.blanks import _lost_axis

    assert _lost_axis("m", [1, 2], [[1], [2]], "m = X.sum(axis=1)", None) == ""
    assert "drops its axis" in _lost_axis("m", [1, 2], [[1], [2]], "m = X[:, 0]", None)
