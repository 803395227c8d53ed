"""The web grades in the request's language: the language Django chose for the request goes
with the grade into the grader's worker thread (the real sandbox and grader here), and a grade
given in one language is never served in another."""

from __future__ import annotations

import dataclasses

from asgiref.sync import async_to_sync
from django.utils import translation

from codeblanks.content.model import BlankQuestion
from codeblanks.learning.answers import Given
from codeblanks.web.learner import store

from .conftest import FIRST

WRONG = "print('a')\n"


def _grade(lesson, code: str, language: str):
    """The grade a tokenless caller gets, in ``language`` as Django would choose it."""
    with translation.override(language):
        return async_to_sync(store.tutor_for(None).run)(lesson, code, "lang-test").grade


def _api_grade(language: str):
    return _grade(FIRST, WRONG, language)


def test_a_grade_speaks_the_requests_language():
    turkish = _api_grade("tr")
    assert turkish.verdict == "incorrect"
    assert turkish.feedback[0] == "Çıktı beklenen çıktıdan farklı."
    assert turkish.diff[:2] == ("--- beklenen", "+++ senin çıktın")
    english = _api_grade("en")  # the same lesson, its reference cached: still English
    assert english.feedback[0] == "The output differs from the expected output."
    assert _api_grade("tr-TR").feedback[0] == "Çıktı beklenen çıktıdan farklı."


def test_an_error_and_its_explanation_in_turkish():
    graded = _grade(FIRST, "x = 1\nprint(1 / 0)\n", "tr")
    assert graded.verdict == "error"
    assert graded.feedback == (
        "Programın bir hatayla durdu.",
        "Hata: model.py, 2. satır: `print(1 / 0)`.",
        "Sıfıra bölme: bu satırda böleni denetle.",
    )


def test_a_blank_answer_in_turkish():
    question = BlankQuestion(
        id="fill", prompt="", code="y = x + ____", answer="1", explanation="", setup="x = 1\n"
    )
    lesson = dataclasses.replace(FIRST, questions=(question,))

    def answer(text: str, language: str):
        with translation.override(language):
            return async_to_sync(store.tutor_for(None).answer)(
                lesson, question, Given(text), "lang-test"
            )

    wrong = answer("2", "tr")
    assert not wrong.correct
    # of the answer's value only its kind is said (its numbers could carry anything)
    assert wrong.message == "Bu cevap farklı bir değer veriyor — `y`: beklenen değer bu değil."
    assert (
        answer("2", "en").message == "That gives a different value: `y` is not the expected value."
    )
    assert answer("1", "tr").message == "Doğru."
