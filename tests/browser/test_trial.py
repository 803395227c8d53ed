"""The learner's trial's rough edges (/work/shared/reviews/learner-trial.md), each in
Chromium at desktop (1366×900) and phone (390×844) width: the blank in the starter's comment,
Escape after Alt+J, matching meanings that were cut off, the way to the editor and the verdict
after Run on a phone, focus and the spoken verdict after Run, the one page wider than a phone,
the level header's count, and the token page (reload, copy)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.content.pysource import blank_lines

from .conftest import (
    DESKTOP,
    PHONE,
    WIDTHS,
    axe_violations,
    editor_text,
    log_in,
    one_width,
    overflow,
    set_code,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = "arrays-and-shapes"
COMMENT = "# Your code here: replace each ____"
# The phone-width sweep of every lesson page in this many tests, which the workers share.
SWEEP_PARTS = 4
# lesson 1's starter with its three blanks filled in and its instruction comment kept, as a
# learner leaves it: solved, with a `____` still in the comment
FILLED = {"X = ____": "X = E[ids]", "feature = ____": "feature = X[:, 1]"}
FILLED["last_two = ____"] = "last_two = X[-2:]"


def starter():
    return catalog().lesson(FIRST).exercise.starter


def solved_with_comment():
    code = starter()
    for blank, line in FILLED.items():
        code = code.replace(blank, line)
    assert COMMENT in code and not blank_lines(code, "____")
    return code


SELECTED = """() => { const v = document.querySelector('textarea[name=code]').cbEditor.view;
    const r = v.state.selection.main;
    return [v.state.sliceDoc(r.from, r.to), v.state.doc.lineAt(r.from).number, v.hasFocus]; }"""


@one_width("desktop")
def test_go_to_the_blank_skips_the_comment_and_one_escape_lets_tab_leave(site, page, width):
    assert COMMENT in starter()
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{FIRST}/")
    first = blank_lines(starter(), "____")[0]
    comment_line = next(n for n, t in enumerate(starter().splitlines(), 1) if COMMENT in t)
    assert comment_line < first
    button = page.get_by_role("button", name="Go to the blank")
    button.click()
    assert page.evaluate(SELECTED) == ["____", first, True]  # the real blank, not the comment
    page.keyboard.press("Alt+j")
    assert page.evaluate(SELECTED)[:2] == ["____", first + 1]

    # one Escape, then Tab: out of the editor, the code as it was (not indented)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert not page.evaluate(SELECTED)[2]
    assert page.evaluate("() => !document.activeElement.closest('.cm-editor')")
    assert editor_text(page) == starter()

    # solved, the comment's ____ still there: no blank is left, so the button goes
    set_code(page, solved_with_comment())
    expect(page.locator(".cb-editor .cb-blank")).to_have_count(0)
    expect(button).to_be_hidden()
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator(".lesson-done")).to_contain_text("Exercise solved")
    page.reload()
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    expect(button).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "tr"])
@one_width("phone")  # the trial found the meanings cut off on a phone
def test_match_meanings_are_whole_and_told_apart(site, page, width, lang):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{FIRST}/?lang={lang}")
    card = page.locator(".question[data-kind=match]").first
    card.scroll_into_view_if_needed()
    meanings = card.locator(".match-meanings li")
    n = meanings.count()
    assert n >= 3
    box = card.bounding_box()
    letters = []
    for i in range(n):
        item = meanings.nth(i)
        expect(item).to_be_visible()
        b = item.bounding_box()
        assert b["x"] >= box["x"] and b["x"] + b["width"] <= box["x"] + box["width"] + 1
        assert item.evaluate("el => el.scrollWidth <= el.clientWidth + 1")  # not cut off
        letters.append(item.locator(".letter").inner_text())
    assert letters == [chr(ord("A") + i) for i in range(n)]
    width_px = box["width"]
    selects = card.locator("select")
    for i in range(selects.count()):
        select = selects.nth(i)
        s = select.bounding_box()
        assert s["width"] >= 0.8 * width_px, (s, box)  # across the card, no longer ~215 px
        texts = select.evaluate("el => [...el.options].slice(1).map(o => o.text)")
        # every option starts with its own letter: a closed select says which it holds
        assert [t.split(" · ")[0] for t in texts] == letters, texts
        assert len({t[:3] for t in texts}) == n
    # picking by letter: the closed select shows the letter, and the whole meaning is shown
    # beneath it, wrapped, inside the card (a closed select cuts what does not fit)
    for i in range(selects.count()):
        selects.nth(i).select_option(index=2)
        shown = selects.nth(i).evaluate("el => el.options[el.selectedIndex].text")
        assert shown.startswith("B · ") and meanings.nth(1).inner_text().endswith(shown[4:])
        picked = card.locator(".match-row").nth(i).locator(".match-picked")
        expect(picked).to_have_text(shown)
        p = picked.bounding_box()
        assert p["x"] + p["width"] <= box["x"] + box["width"] + 1, (p, box)
        assert picked.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    card.get_by_role("button").first.click()
    expect(card.locator(".q-feedback")).not_to_be_empty()
    expect(page.locator(".question[data-kind=match] .term-mark").first).to_be_visible()
    # the answer came back from the server with each pick still shown in full
    card = page.locator(".question[data-kind=match]").first
    expect(card.locator(".match-picked").first).to_have_text(shown)
    assert overflow(page) is None
    assert axe_violations(page) == []


@one_width("phone")  # the editor is screens below; test_flow.py sees the link hidden wide
def test_jump_to_the_editor_then_run_keeps_the_verdict_in_sight_and_focus(site, page, width):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{FIRST}/")
    editor = page.locator(".cb-editor")
    jump = page.get_by_role("link", name="Jump to the editor")
    if width == "phone":
        expect(jump).to_be_in_viewport()  # at the top of the lesson
        expect(editor).not_to_be_in_viewport()  # screens below
        jump.click()
        expect(editor).to_be_in_viewport()
    else:
        expect(jump).to_be_hidden()  # the editor is beside the text already
        expect(editor).to_be_in_viewport()

    # a wrong run by mouse: the verdict and its first feedback line come into view
    set_code(page, solved_with_comment().replace("X[:, 1]", "X[1]"))
    run = page.get_by_role("button", name="Run", exact=True)
    run.click()
    verdict = page.locator("#result .verdict")
    expect(verdict).to_contain_text("Not quite")
    expect(page.locator("#result .verdict-title")).to_be_in_viewport()
    expect(page.locator("#result .verdict .feedback li").first).to_be_in_viewport()
    expect(run).to_be_focused()  # not the page's body
    title = page.locator("#result .verdict-title").inner_text().strip()
    expect(page.locator("#run-announce")).to_contain_text(title)

    # by keyboard: Enter on Run, and the focus is still on Run after the verdict
    page.evaluate("() => window.scrollTo(0, 0)")
    set_code(page, solved_with_comment().replace("X[-2:]", "X[3:]"))
    run.focus()
    page.keyboard.press("Enter")
    expect(verdict).to_contain_text("hidden case")
    expect(run).to_be_focused()
    expect(page.locator("#result .verdict .feedback li").first).to_be_in_viewport()
    expect(page.locator("#run-announce")).to_contain_text("Not quite")
    assert axe_violations(page) == []


@pytest.mark.parametrize("lang", ["en", "tr"])
@one_width("phone")  # its table scrolls in its own box
def test_multi_head_attention_is_no_wider_than_the_screen(site, page, width, lang):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/multi-head-attention/?lang={lang}")
    table = page.locator(".explanation .table-scroll").first
    expect(table).to_be_visible()
    assert overflow(page) is None
    b = table.bounding_box()
    assert b["x"] >= 0 and b["x"] + b["width"] <= WIDTHS[width]["width"], b
    if width == "phone":  # the step | code | shape table scrolls in its own box
        assert table.evaluate("el => el.scrollWidth > el.clientWidth")
        table.scroll_into_view_if_needed()
        table.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
        last = table.locator("th").last
        expect(last).to_be_in_viewport()
    assert axe_violations(page) == []


@one_width("desktop")
def test_the_level_header_counts_a_solved_exercise(site, page, width):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{FIRST}/")
    set_code(page, solved_with_comment())
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator(".lesson-done")).to_contain_text("Exercise solved")
    first = catalog().lesson(FIRST)
    course = next(c for c in catalog().courses if first in c.lessons)
    level = sum(lesson.level == first.level for lesson in course.lessons)
    page.goto(f"{site}/")
    # The course worked in comes first on the home page; the header is its first level's.
    header = page.locator(".map-level .level-done").first
    expect(header).to_have_text(f"1/{level} solved")
    page.goto(f"{site}/?lang=tr")
    expect(page.locator(".map-level .level-done").first).to_have_text(f"1/{level} çözüldü")
    assert overflow(page) is None


@one_width("desktop")  # the sweeps see the token at both widths
def test_the_token_page_reloaded_makes_no_second_token_and_copies(site, page, width):
    log_in(page, site, User.objects.create_user("ada", password="a-long-enough-passphrase-42"))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/progress/")
    page.get_by_label("Name of the new token").fill("my laptop")
    page.get_by_role("button", name="Make a token").click()
    token = page.locator(".new-token .token-text")
    expect(token).to_be_visible()
    secret = token.inner_text().strip()
    rows = page.locator(".token-table tbody tr")
    expect(rows).to_have_count(1)

    page.get_by_role("button", name="Copy the token").click()
    copy = page.locator(".new-token button.copy")
    expect(copy).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == secret

    page.reload()  # the address is the progress page's again: a reload posts nothing
    expect(rows).to_have_count(1)
    expect(page.locator(".new-token .token-text")).to_have_count(0)  # shown once
    assert overflow(page) is None
    assert axe_violations(page) == []


def test_posting_the_same_token_form_twice_makes_one_token(site, page):
    """Without the script (no address put back), a browser that posts the form again (its
    'confirm form resubmission') gets the progress page, not a second token."""
    log_in(page, site, User.objects.create_user("bob", password="a-long-enough-passphrase-42"))
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site}/progress/")
    form = page.locator("form.token-form")
    once = form.locator("input[name=once]").get_attribute("value")
    csrf = form.locator("input[name=csrfmiddlewaretoken]").get_attribute("value")
    data = {"csrfmiddlewaretoken": csrf, "name": "twice", "once": once}
    headers = {"Referer": f"{site}/progress/"}
    first = page.request.post(f"{site}/progress/tokens", form=data, headers=headers)
    again = page.request.post(f"{site}/progress/tokens", form=data, headers=headers)
    assert first.status == 200 and "new-token" in first.text()
    assert again.status == 200 and "new-token" not in again.text()  # redirected to the page
    assert again.url.startswith(f"{site}/progress/")
    from codeblanks.web.models import PersonalToken

    assert PersonalToken.objects.filter(name="twice").count() == 1


@pytest.mark.parametrize("part", range(SWEEP_PARTS))
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_no_lesson_or_review_page_is_wider_than_a_phone(site, page, lang, part):
    """The trial measured 102 pages at 390 px and found multi-head-attention 420 px wide: every
    lesson page and its review page again, in both languages (each lesson in one of the parts,
    so that the workers share the sweep)."""
    page.set_viewport_size(PHONE)
    wide = []
    for lesson in catalog().lessons()[part::SWEEP_PARTS]:
        for url in (f"/lessons/{lesson.id}/", f"/lessons/{lesson.id}/review/"):
            page.goto(f"{site}{url}?lang={lang}")
            if found := overflow(page):
                wide.append(f"{url}: {found}")
    assert not wide, "\n".join(wide)
