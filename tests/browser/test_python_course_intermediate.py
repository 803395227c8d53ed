"""The Python course's Intermediate level in Chromium, at desktop width, in English and in
Turkish: the functions lesson (a function exercise graded by hidden tests) solved through
the editor, wrong once with the lesson's nudge in the feedback, then right, and its questions
of all three kinds answered."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.content.public import meaning_order

from .conftest import WIDTHS, axe_violations, editor_text, one_width, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LESSON = "py-functions"
WORDS = {
    "en": {
        "run": "Run",
        "correct": "Correct",
        "tests": "Your program runs, but it does not pass its tests yet:",
        "check": "Check",
        "right": "Right.",
    },
    "tr": {
        "run": "Çalıştır",
        "correct": "Doğru",
        "tests": "Programın çalışıyor, ama henüz testlerini geçmiyor:",
        "check": "Denetle",
        "right": "Doğru.",
    },
}


def lesson_in(language: str):
    lesson = catalog().lesson(LESSON)
    if lesson is None:
        pytest.fail(f"the built-in lesson {LESSON} does not load")
    assert language == "en" or language in lesson.translations, "its translation does not load"
    return lesson.in_language(language)


@pytest.mark.parametrize("language", WORDS)
@one_width("desktop")
def test_the_functions_lesson_solved_and_answered(site, page, width, language):
    lesson, words = lesson_in(language), WORDS[language]
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{LESSON}/?lang={language}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("h1")).to_have_text(lesson.title)
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    assert editor_text(page) == lesson.exercise.starter
    assert overflow(page) is None
    assert axe_violations(page) == []

    # a first try that prints the initials instead of returning them: refused, with the nudge
    (printed,) = [m for m in lesson.exercise.grading.mistakes if "printed" in m.file]
    assert printed.nudge
    set_code(page, printed.code)
    page.get_by_role("button", name=words["run"], exact=True).click()
    # (no expected output: the page says that tests fail, not that the output was right)
    expect(page.locator("#result")).to_contain_text(words["tests"])
    expect(page.locator("#result")).to_contain_text(printed.nudge.replace("`", ""))
    expect(page.locator("#result .verdict")).to_have_attribute("data-verdict", "incorrect")

    set_code(page, lesson.exercise.solution)
    page.get_by_role("button", name=words["run"], exact=True).click()
    expect(page.get_by_role("status").filter(has_text=words["correct"]).first).to_be_visible()
    expect(page.locator("#result .verdict")).to_have_attribute("data-verdict", "correct")
    assert overflow(page) is None

    questions = {q.kind: q for q in reversed(lesson.questions)}  # the first of each kind
    assert set(questions) == {"choice", "blank", "match"}
    choice = questions["choice"]
    card = page.locator(f"#q-{choice.id}")
    card.locator(f'input[type=radio][value="{choice.answer}"]').check()  # shown in any order
    card.get_by_role("button", name=words["check"]).click()
    expect(card.locator(".q-feedback")).to_contain_text(words["right"])

    blank = questions["blank"]
    card = page.locator(f"#q-{blank.id}")
    expect(card).to_contain_text(blank.code.split("____")[0].strip())
    card.locator("input[name=blank]").fill(blank.answer)
    card.get_by_role("button", name=words["check"]).click()
    expect(card.locator(".q-feedback")).to_contain_text(words["right"])

    match = questions["match"]
    card = page.locator(f"#q-{match.id}")
    order = meaning_order(match)
    for i, select in enumerate(card.locator("select").all()):
        select.select_option(index=order.index(i) + 1)  # option 0 asks to choose a meaning
    card.get_by_role("button", name=words["check"]).click()
    expect(card.locator(".q-feedback")).to_contain_text(words["right"])
    assert overflow(page) is None
    assert axe_violations(page) == []
