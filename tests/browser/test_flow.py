"""The learner's flow in Chromium at desktop (1366×900) and phone (390×844) widths: the two-pane
lesson page, the blank in the editor, solving then going on to the next lesson in one click, the
course's progress, and "continue where you left off" on the home page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.content.pysource import blank_lines
from codeblanks.web.pages.selectors import lesson_neighbours

from .conftest import DESKTOP, PHONE, WIDTHS, editor_text, one_width, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def first_lesson():
    (course,) = [c for c in catalog().courses if c.id == "attention-from-scratch"]
    return course.lessons_at(course.levels[0])[0]


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def test_desktop_puts_the_editor_beside_the_text_and_each_side_scrolls(site, page):
    lesson = first_lesson()
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site}/lessons/{lesson.id}/")
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    text, work = box(page, ".pane-read"), box(page, ".pane-work")
    editor, run = box(page, ".cb-editor"), box(page, "button.run")
    assert work["x"] >= text["x"] + text["width"], (text, work)  # beside, not below
    expect(page.get_by_role("link", name="Jump to the editor")).to_be_hidden()  # no need here
    assert editor["y"] < DESKTOP["height"] and run["y"] + run["height"] < DESKTOP["height"]
    assert editor["width"] >= 600, editor  # wide enough for the solutions' lines
    # The page scrolls the reading side; the work pane stays in view beside it.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 1000")
    run = box(page, "button.run")
    assert 0 <= run["y"] < DESKTOP["height"], run
    # and the work pane scrolls on its own when what it holds is taller than the screen
    style = page.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('.pane-work'));"
        " return [s.position, s.overflowY]; }"
    )
    assert style == ["sticky", "auto"]
    assert editor_text(page) == lesson.exercise.starter
    assert overflow(page) is None
    # A line of 88 characters (ruff's and black's default) fits without scrolling sideways.
    cb_editor = "document.querySelector('textarea[name=code]').cbEditor"
    page.evaluate(f"() => {cb_editor}.setValue('x = ' + '1'.repeat(84))")
    widths = "() => { const s = document.querySelector('.cm-scroller');"
    widths += " return [s.scrollWidth, s.clientWidth]; }"
    scroll, client = page.evaluate(widths)
    assert scroll <= client, (scroll, client)


def test_phone_has_one_column_in_reading_order_and_nothing_sideways(site, page):
    lesson = first_lesson()
    page.set_viewport_size(PHONE)
    page.goto(f"{site}/lessons/{lesson.id}/")
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    order = [box(page, s) for s in ("h1", ".explanation", ".task", ".cb-editor", "#questions")]
    tops = [b["y"] for b in order]
    assert tops == sorted(tops), tops
    for b in order:
        assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], b
    assert overflow(page) is None
    # the match question's selects stay inside their card
    match = page.locator(".question[data-kind=match]").first
    card = match.bounding_box()
    for select in match.locator("select").all():
        s = select.bounding_box()
        assert s["x"] + s["width"] <= card["x"] + card["width"], (s, card)


@one_width("phone")  # the phone editor wraps its lines
def test_the_blank_is_marked_and_go_to_blank_selects_it(site, page, width):
    lesson = first_lesson()
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{lesson.id}/")
    # the blanks to fill in: not the `____` of the starter's "replace each ____" comment
    blanks = len(blank_lines(lesson.exercise.starter, "____"))
    assert 0 < blanks < lesson.exercise.starter.count("____")
    expect(page.locator(".cb-editor .cb-blank")).to_have_count(blanks)
    button = page.get_by_role("button", name="Go to the blank")
    button.click()
    selected = "() => { const v = document.querySelector('textarea[name=code]').cbEditor.view;"
    selected += " const r = v.state.selection.main; return [v.state.sliceDoc(r.from, r.to),"
    selected += " v.state.doc.lineAt(r.from).number, v.hasFocus]; }"
    text, line, focused = page.evaluate(selected)
    first_line = blank_lines(lesson.exercise.starter, "____")[0]
    assert (text, line, focused) == ("____", first_line, True)
    page.keyboard.type("X")  # typing replaces the selected blank
    assert len(blank_lines(editor_text(page), "____")) == blanks - 1
    page.keyboard.press("Alt+j")  # the same from the keyboard, inside the editor
    assert page.evaluate(selected)[0] == "____"
    # once no blank is left, the button goes away
    set_code(page, lesson.exercise.solution)
    expect(page.locator(".cb-editor .cb-blank")).to_have_count(0)
    expect(button).to_be_hidden()


@one_width("desktop")
def test_ctrl_enter_runs_and_leaves_the_code_unchanged(site, page, width):
    lesson = first_lesson()
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{lesson.id}/")
    page.locator(".cb-editor .cm-content").click()
    for _ in range(3):
        page.keyboard.press("Control+Enter")
        expect(page.locator("#result .verdict")).to_be_visible()
        page.wait_for_function("() => !document.querySelector('#run-form button.run').disabled")
    assert editor_text(page) == lesson.exercise.starter
    page.reload()
    assert editor_text(page) == lesson.exercise.starter


@one_width("phone")  # the next lesson in sight without scrolling
def test_solved_shows_what_is_left_and_the_next_lesson_is_one_click(site, page, width):
    lesson = first_lesson()
    following = lesson_neighbours(lesson)[1]
    (course,) = [c for c in catalog().courses if c.id == lesson.course_id]
    total = len(course.lessons)  # the progress line counts the lesson's own course
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{lesson.id}/")
    progress = page.locator("#course-progress")
    expect(progress).to_contain_text(f"0 of {total} lessons complete")
    expect(page.locator(".lesson-done")).to_have_count(0)

    set_code(page, lesson.exercise.solution)
    page.get_by_role("button", name="Run", exact=True).click()
    done = page.locator(".lesson-done")
    expect(done).to_contain_text("Exercise solved")
    n = len(lesson.questions)
    expect(done).to_contain_text(f"{n} questions left in this lesson")
    next_button = done.get_by_role("link", name=f"Next lesson: {following.title}")
    expect(next_button).to_be_in_viewport(ratio=1)  # in sight without scrolling, also on phones

    # Answering every question completes the lesson: the panel and the course bar say so.
    page.goto(f"{site}/lessons/{lesson.id}/review/")  # (the answers, as a learner could)
    page.goto(f"{site}/lessons/{lesson.id}/")
    answer_every_question(page, lesson)
    expect(done).to_contain_text("Lesson complete")
    expect(progress).to_contain_text(f"1 of {total} lessons complete")

    next_button.click()
    expect(page).to_have_url(f"{site}/lessons/{following.id}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(following.title)
    expect(page.locator("#course-progress")).to_contain_text(f"1 of {total} lessons complete")

    page.goto(f"{site}/")
    resume = page.locator(".resume")
    expect(resume).to_contain_text(f"You completed “{lesson.title}”")
    resume.get_by_role("link", name=following.title).click()
    expect(page).to_have_url(f"{site}/lessons/{following.id}/")
    assert overflow(page) is None


def answer_every_question(page, lesson):
    """Answer each question right through the page's own forms, the way test_learner does it by
    keyboard, here by setting the fields (this test is about what follows)."""
    from codeblanks.content.public import meaning_order

    for q in lesson.questions:
        card = page.locator(f"#q-{q.id}")
        if q.kind == "choice":
            card.locator(f'input[type=radio][value="{q.answer}"]').check()
        elif q.kind == "blank":
            card.locator("input[name=blank]").fill(q.answer)
        elif q.kind == "match":
            order = meaning_order(q)
            for i, select in enumerate(card.locator("select").all()):
                select.select_option(index=order.index(i) + 1)
        card.get_by_role("button", name="Check").click()
        expect(page.locator(f"#q-{q.id} .q-feedback")).to_contain_text("Right.")


def test_resume_without_progress_is_absent_and_then_leads_back(site, page):
    lesson = first_lesson()
    page.goto(f"{site}/")
    expect(page.locator(".resume")).to_have_count(0)
    page.goto(f"{site}/lessons/{lesson.id}/")
    set_code(page, "# started\n" + lesson.exercise.starter)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator("#result .verdict")).to_be_visible()
    page.goto(f"{site}/")
    page.locator(".resume").get_by_role("link", name=lesson.title).click()
    expect(page).to_have_url(f"{site}/lessons/{lesson.id}/")
    assert editor_text(page).startswith("# started")


@one_width("desktop")  # in the work pane beside the text
def test_hints_sit_between_the_result_and_show_solution(site, page, width):
    lesson = first_lesson()
    assert len(lesson.exercise.hints) >= 2
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{lesson.id}/")
    page.locator(".cb-editor .cm-content").click()
    page.keyboard.press("Control+Enter")  # the starter, blanks and all: a wrong run
    expect(page.locator("#result .verdict")).to_be_visible()
    page.locator("#hints").get_by_role("button", name=re.compile(r"Show hint 1 of")).click()
    expect(page.locator("#hints")).to_contain_text(f"Hint 1 of {len(lesson.exercise.hints)}")
    order = [box(page, s)["y"] for s in ("#result", "#hints", ".show-solution")]
    assert order == sorted(order), order
    assert box(page, "#hints")["x"] >= box(page, ".pane-work")["x"]  # in the work pane


def test_after_solving_the_next_lesson_is_reached_by_keyboard(site, page):
    lesson = first_lesson()
    following = lesson_neighbours(lesson)[1]
    page.goto(f"{site}/lessons/{lesson.id}/")
    set_code(page, lesson.exercise.solution)
    page.keyboard.press("Control+Enter")
    expect(page.locator(".lesson-done")).to_be_visible()
    page.keyboard.press("Escape")  # CodeMirror's way out: Escape, then Tab moves on
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('next-lesson')"):
            break
    expect(page.locator(".next-lesson")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{site}/lessons/{following.id}/")
