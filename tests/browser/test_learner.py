"""A learner in Chromium: solve the QKV lesson, see a diff, answer questions by keyboard, review,
and keep progress and code across a reload and a sign-up."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.content.public import meaning_order

from .conftest import DESKTOP, PHONE, SCREENSHOTS, editor_text, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
QKV = "query-key-value"


def lesson():
    return catalog().lesson(QKV)


def test_solve_qkv_and_take_screenshots(site, page):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site}/lessons/{QKV}/")
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    expect(page.locator(".tab")).to_contain_text("model.py")
    set_code(page, lesson().exercise.solution)
    page.get_by_role("button", name="Run", exact=True).click()
    result = page.get_by_role("status").filter(has_text="Correct").first
    expect(result).to_be_visible()
    expect(page.locator("#result")).to_contain_text("(3, 2) (3, 3) (3, 4)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lesson-solved.png"))

    page.reload()
    expect(page.locator(".cb-editor .cm-content")).to_contain_text("Q = X @ W_q")
    expect(page.locator(".eyebrow")).to_contain_text("Exercise solved")
    # The README's phone picture: the same lesson solved again at 390 px, the next lesson in sight.
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result")).to_contain_text("Correct")
    expect(page.locator(".next-lesson")).to_be_in_viewport(ratio=1)
    page.wait_for_function("() => new Promise(r => setTimeout(() => r(true), 400))")  # scrolled
    page.screenshot(path=str(SCREENSHOTS / "phone-lesson-solved.png"))

    page.set_viewport_size(DESKTOP)
    page.goto(f"{site}/")
    expect(page.locator(".map-stop.state-solved")).to_contain_text("Query, Key, Value")
    expect(page.locator(".resume")).to_contain_text("Query, Key, Value")
    page.screenshot(path=str(SCREENSHOTS / "home.png"), full_page=True)


def test_wrong_program_shows_the_diff(site, page):
    page.goto(f"{site}/lessons/{QKV}/")
    wrong = lesson().exercise.solution.replace("A = softmax(scores, axis=1)", "A = scores")
    assert wrong != lesson().exercise.solution
    set_code(page, wrong)
    page.keyboard.press("Control+Enter")  # the editor's shortcut for Run
    expect(page.locator("#result")).to_contain_text("Not quite")
    assert editor_text(page) == wrong  # the shortcut runs the code and leaves it as it was
    expect(page.locator(".diff-row.expected").first).to_be_visible()
    expect(page.locator(".diff-row.got").first).to_be_visible()


def test_each_question_kind_by_keyboard_then_review(site, page):
    qs = {q.kind: q for q in reversed(lesson().questions)}  # the first of each kind
    page.goto(f"{site}/lessons/{QKV}/")

    choice = page.locator(f"#q-{qs['choice'].id}")
    choice.get_by_role("button", name="Check").click()  # nothing chosen yet: told so, not judged
    expect(choice.locator(".q-feedback")).to_contain_text("Choose one of the options.")
    # The swapped-in verdict takes the focus once htmx has settled; only then move on, or the
    # next key press can land on the verdict instead of the radio button (a race seen in CI).
    expect(page.locator(f"#q-{qs['choice'].id} .q-feedback > p")).to_be_focused()
    radios = page.locator(f"#q-{qs['choice'].id} input[type=radio]")
    shown = radios.evaluate_all("els => els.map(e => e.value)")  # the learner's own order
    place = shown.index(str(qs["choice"].answer))
    radios.first.focus()
    if place == 0:
        page.keyboard.press("Space")
    for _ in range(place):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")  # a radio group is one tab stop: next is Check
    page.keyboard.press("Enter")
    expect(page.locator(f"#q-{qs['choice'].id} .q-feedback")).to_contain_text("Right.")
    # The verdict takes the focus (so a screen reader reads it); the learner moves on from there.
    expect(page.locator(f"#q-{qs['choice'].id} .q-feedback > p")).to_be_focused()

    blank = page.locator(f"#q-{qs['blank'].id} input[name=blank]")
    blank.focus()
    page.keyboard.type(qs["blank"].answer)
    page.keyboard.press("Enter")
    expect(page.locator(f"#q-{qs['blank'].id} .q-feedback")).to_contain_text("Right.")
    expect(page.locator(f"#q-{qs['blank'].id} .q-feedback > p")).to_be_focused()

    match = qs["match"]
    order = meaning_order(match)
    page.locator(f"#q-{match.id} select").first.focus()
    for i in range(len(match.pairs)):
        for _ in range(order.index(i) + 1):  # option 0 is "Choose a meaning…"
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Tab after the last select lands on Check
    expect(page.locator(f"#q-{match.id} .q-feedback")).to_contain_text("Right.")

    page.get_by_role("link", name="Review with answers").first.click()
    expect(page).to_have_url(re.compile(r"/review/$"))
    for q in lesson().questions:
        expect(page.locator(f"#review-{q.id}")).to_contain_text("Why:")
    expect(page.locator(f"#review-{qs['blank'].id}")).to_contain_text(
        qs["blank"].code.replace("____", qs["blank"].answer)
    )


def test_code_and_progress_survive_reload_and_sign_up(site, page):
    first = catalog().lessons()[0]
    page.goto(f"{site}/lessons/{first.id}/")
    mine = "# my own attempt\n" + first.exercise.starter
    set_code(page, mine)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result .verdict")).to_be_visible()
    page.reload()
    assert editor_text(page).startswith("# my own attempt")

    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("learner1")
    page.get_by_label("Password", exact=True).fill("a-long-enough-passphrase-42")
    page.get_by_label("Password confirmation").fill("a-long-enough-passphrase-42")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".who")).to_have_text("learner1")
    page.goto(f"{site}/lessons/{first.id}/")
    assert editor_text(page).startswith("# my own attempt")
    page.goto(f"{site}/progress/")
    expect(page.locator(".stats")).to_contain_text("Runs")
    expect(page.locator(".progress-table").first).to_contain_text(first.title)


def test_the_cursor_blinks_unless_the_learner_asks_for_less_motion(site, page, another_page):
    """Every test context asks for reduced motion (conftest.py): the focused editor's cursor
    then stays lit, and it blinks for a learner who did not ask."""
    for tab, blinks in ((page, False), (another_page(reduced_motion="no-preference"), True)):
        tab.goto(f"{site}/lessons/{QKV}/")
        tab.locator(".cb-editor .cm-content").click()
        layer = tab.locator(
            ".cb-editor.cm-focused .cm-cursorLayer, .cb-editor .cm-focused .cm-cursorLayer"
        )
        expect(layer).to_have_count(1)
        animation = layer.evaluate("e => getComputedStyle(e).animationName")
        assert (animation != "none") == blinks, (blinks, animation)
