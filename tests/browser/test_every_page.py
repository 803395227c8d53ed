"""Every page a learner can reach, in both widths (1366 and 390 px) and both colour schemes:
axe-core finds no serious or critical WCAG 2.1 A/AA violation, and nothing is wider than the
viewport (code blocks scroll inside their own box). The lesson page is checked in each state it
shows: fresh, after a wrong run (the diff), a wrong answer, solved, with the solution shown."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog

from .conftest import COLOUR_RULES, WCAG_21_AA, WIDTHS, axe_violations, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QKV = "query-key-value"


SCHEMES = ("light", "dark")


class Checker:
    """Checks the page as it is now in both colour schemes: switching the emulated scheme
    restyles the page in place, so a journey's clicks, runs and page loads happen once per
    width rather than once per scheme. The dark scheme changes colours only, so there axe runs
    the rules that read colours (COLOUR_RULES): 280-300 ms of CPU on the QKV page against
    350-490 for a whole run."""

    def __init__(self, page, width):
        self.page, self.width, self.problems = page, width, []

    def check(self, what: str) -> None:
        for scheme in SCHEMES:
            self.page.emulate_media(color_scheme=scheme)
            dark = self.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
            assert dark == (scheme == "dark"), f"{what}: the {scheme} scheme did not apply"
            if found := axe_violations(
                self.page, WCAG_21_AA if scheme == "light" else COLOUR_RULES
            ):
                self.problems.append(f"{what} ({scheme}): {found}")
            if self.width == "phone" and (wide := overflow(self.page)):
                self.problems.append(f"{what} ({scheme}): {wide}")
        self.page.emulate_media(color_scheme=SCHEMES[0])

    def visit(self, url: str, what: str) -> None:
        self.page.goto(url)
        self.check(what)


def sign_up(page, site: str, c: Checker | None = None) -> None:
    """A new account through the sign-up form (checked on the way when ``c`` is given: the
    form, then the form sent back with errors)."""
    page.goto(f"{site}/accounts/signup/")
    if c:
        c.check("sign-up")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("E-mail (optional)").fill("ada@example.org")
    if c:
        page.get_by_label("Password", exact=True).fill("short")
        page.get_by_label("Password confirmation").fill("short")
        page.get_by_role("button", name="Create account").click()
        expect(page.locator(".field-errors").first).to_be_visible()
        c.check("sign-up with errors")
    page.get_by_label("Password", exact=True).fill("a-long-enough-passphrase-42")
    page.get_by_label("Password confirmation").fill("a-long-enough-passphrase-42")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".who")).to_have_text("ada")


def visitor_pages(c: Checker, page, site: str) -> None:
    """What someone without an account sees, and the account forms."""
    c.visit(f"{site}/", "home")
    sign_up(page, site, c)
    page.get_by_role("button", name="Log out").click()
    c.visit(f"{site}/accounts/login/", "log in")
    c.visit(f"{site}/review/", "review queue, anonymous")
    c.visit(f"{site}/accounts/password_reset/", "password reset")
    page.get_by_label("Email").fill("ada@example.org")
    page.get_by_role("button", name="Send the link").click()
    expect(page).to_have_url(re.compile(r"/password_reset/done/$"))
    c.check("password reset sent")
    c.visit(f"{site}/accounts/reset/MQ/bad-token/", "password reset, bad link")
    c.visit(f"{site}/no-such-page/", "not found")


def lesson_pages(c: Checker, page, site: str) -> None:
    """A lesson in each of its states, then the pages its progress changes."""
    lesson = catalog().lesson(QKV)
    sign_up(page, site)
    c.visit(f"{site}/lessons/{QKV}/", "lesson")
    expect(page.locator(".cb-editor .cm-content")).to_be_visible()
    wrong = lesson.exercise.solution.replace("A = softmax(scores, axis=1)", "A = scores")
    set_code(page, wrong)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator(".diff-row.expected").first).to_be_visible()
    c.check("lesson, wrong run")
    # the feedback quotes code in `backticks`: shown as code, set apart from the words
    quoted = page.locator("#result .verdict code").first
    expect(quoted).to_be_visible()
    font, background = quoted.evaluate(
        "e => [getComputedStyle(e).fontFamily, getComputedStyle(e).backgroundColor]"
    )
    assert "mono" in font.lower() and background != "rgba(0, 0, 0, 0)", (font, background)
    choice = next(q for q in lesson.questions if q.kind == "choice")
    card = page.locator(f"#q-{choice.id}")
    card.locator(f'input[type=radio]:not([value="{choice.answer}"])').first.check()
    card.get_by_role("button", name="Check").click()
    expect(page.locator(f"#q-{choice.id} .q-feedback")).to_contain_text("Not right yet")
    c.check("lesson, wrong answer")
    set_code(page, lesson.exercise.solution)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.locator(".lesson-done")).to_be_visible()
    c.check("lesson, solved")
    page.get_by_role("button", name="Show solution").click()
    expect(page.locator("#solution")).to_contain_text("Sample solution")
    c.check("lesson, solution shown")
    c.visit(f"{site}/lessons/{QKV}/review/", "review")
    c.visit(f"{site}/lessons/{QKV}/solution", "solution confirmation (no JavaScript)")
    c.visit(f"{site}/courses/{lesson.course_id}/expert/", "level")
    c.visit(f"{site}/", "home with continue")
    c.visit(f"{site}/review/", "review queue")  # the wrong answer: back later today


def account_pages(c: Checker, page, site: str) -> None:
    """A signed-in learner's own pages: progress and its tokens, the account's forms."""
    sign_up(page, site)
    c.visit(f"{site}/progress/", "progress")
    page.get_by_label("Name of the new token").fill("my laptop")
    page.get_by_role("button", name="Make a token").click()
    expect(page.locator(".token-text")).to_be_visible()
    c.check("progress with a new token")
    c.visit(f"{site}/accounts/", "account")
    c.visit(f"{site}/accounts/password_change/", "change password")
    c.visit(f"{site}/accounts/delete/", "delete account")


# Three journeys rather than one, so that the workers share the sweep.
JOURNEYS = {"visitor": visitor_pages, "lesson": lesson_pages, "account": account_pages}


@pytest.mark.parametrize("journey", JOURNEYS)
@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_passes_axe_and_fits_the_width(site, page, accept_dialogs, width, journey):
    page.allowed_statuses.update({400, 404})  # a form sent with errors; the page not found
    page.set_viewport_size(WIDTHS[width])
    c = Checker(page, width)
    JOURNEYS[journey](c, page, site)
    assert not c.problems, "\n".join(c.problems)
