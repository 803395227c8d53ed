"""The Advanced level of "Python from the first line" in Chromium, with the real sandbox and
grader: from the level's page to the files lesson, solved through the editor (wrong once, with
the lesson's nudge in the feedback, then right), its questions answered, at desktop width, in
English and in Turkish. The lesson's tests save and read files in the run's own
folder, so a pass here also proves that folder is writable."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.content.public import meaning_order

from .conftest import WIDTHS, axe_violations, editor_text, one_width, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COURSE = "python-from-the-first-line"
LESSON = "py-files-and-with"
# What the page says, in each language: (level page, Run, Correct, Check, a right answer).
WORDS = {
    "en": ("All lessons in Advanced", "Run", "Correct", "Check", "Right."),
    "tr": ("İleri", "Çalıştır", "Doğru", "Denetle", "Doğru."),
}


def the_lesson(language: str):
    lesson = catalog().lesson(LESSON)
    return lesson if language == "en" else lesson.in_language("tr")


def append_mistake(lesson) -> str:
    """The learner's wrong first try: the solution opening its file with "a", not "w"."""
    solution = lesson.exercise.solution
    assert solution.count('open(path, "w")') == 1, solution
    return solution.replace('open(path, "w")', 'open(path, "a")')


def answer_every_question(page, lesson, check: str, right: str) -> None:
    """Each question answered right through its card's own form, as a learner would."""
    kinds = {q.kind for q in lesson.questions}
    assert kinds == {"choice", "blank", "match"}, kinds
    for q in lesson.questions:
        card = page.locator(f"#q-{q.id}")
        if q.kind == "choice":
            card.locator(f'input[type=radio][value="{q.answer}"]').check()
        elif q.kind == "blank":
            card.locator("input[name=blank]").fill(q.answer)
        else:
            order = meaning_order(q)
            for i, select in enumerate(card.locator("select").all()):
                select.select_option(index=order.index(i) + 1)  # option 0 asks to choose
        card.get_by_role("button", name=check).click()
        expect(card.locator(".q-feedback")).to_contain_text(right)


@pytest.mark.parametrize("language", WORDS)
@one_width("desktop")
def test_the_files_lesson_is_solved_and_answered(site, page, width, language):
    lesson = the_lesson(language)
    level_title, run, correct, check, right = WORDS[language]
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/courses/{COURSE}/advanced/?lang={language}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", level=1)).to_contain_text(level_title)
    page.locator(f"a[href='/lessons/{LESSON}/']").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(lesson.title)
    expect(page.locator(".tab")).to_contain_text("lists.py")
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    assert editor_text(page) == lesson.exercise.starter
    assert overflow(page) is None
    assert axe_violations(page) == []

    # Wrong once: the file is appended to, so saving twice keeps the old list. Only a hidden
    # test catches it, and the learner reads that lesson's nudge, in their language.
    (mistake,) = [m for m in lesson.exercise.grading.mistakes if m.path.name == "append-mode.py"]
    set_code(page, append_mistake(lesson))
    page.get_by_role("button", name=run, exact=True).click()
    result = page.locator("#result")
    verdict = result.locator(".verdict")
    expect(verdict).to_have_attribute("data-verdict", "incorrect")
    expect(result).to_contain_text(mistake.nudge)

    set_code(page, lesson.exercise.solution)
    page.get_by_role("button", name=run, exact=True).click()
    expect(verdict).to_have_attribute("data-verdict", "correct")
    expect(verdict.locator(".verdict-title")).to_have_text(f"✓ {correct}")
    expect(result).not_to_contain_text(mistake.nudge)

    answer_every_question(page, lesson, check, right)
    assert overflow(page) is None
    assert axe_violations(page) == []
