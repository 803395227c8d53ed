"""The rest of the learner trial's findings on the web (shared/reviews/learner-trial.md
F10, F11, F12, F16), each at one width, in English and Turkish: the phone editor wraps
long lines; a display formula wider than its column shows that it scrolls and scrolls by
keyboard; the home page lists the beginners' course first with its "Start here" on the first
screen; a new account is welcomed; "Classes" is in the menu only for those who teach or are in
a class; and the item analysis page says how well the class retains the lesson."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from codeblanks.content import catalog
from codeblanks.learning import review
from codeblanks.web.models import ReviewCard
from codeblanks.web.teaching import classes

from .conftest import PHONE, WIDTHS, axe_violations, one_width, overflow, set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LANGS = ("en", "tr")
GOOD = "a-long-enough-passphrase-42"
WORDS = {
    "en": ("Python from the first line", "Start here", "Welcome, ada!", "Classes", "Retention"),
    "tr": ("İlk satırdan Python", "Buradan başla", "Hoş geldin, ada!", "Sınıflar", "Akılda kalma"),
}


def _log_in(page, site, name, lang):
    page.goto(f"{site}/accounts/login/?lang={lang}")
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password]").fill(GOOD)
    page.locator("input[name=password]").press("Enter")
    expect(page.locator(".who")).to_have_text(name)


@pytest.mark.parametrize("lang", LANGS)
@one_width("phone")  # then wide: the editor follows the change
def test_the_phone_editor_wraps_long_lines_and_the_desktop_one_does_not(site, page, width, lang):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/broadcasting/?lang={lang}")
    content = page.locator(".cb-editor .cm-content")
    expect(content).to_be_visible()
    scroller = "document.querySelector('.cb-editor .cm-scroller')"
    sideways = page.evaluate(f"() => {scroller}.scrollWidth - {scroller}.clientWidth")
    if WIDTHS[width] is PHONE:
        expect(content).to_have_class("cm-content cm-lineWrapping")
        assert sideways <= 1  # nothing to pan to
    else:
        expect(content).not_to_have_class("cm-content cm-lineWrapping")
    page.set_viewport_size(PHONE if WIDTHS[width] is not PHONE else WIDTHS["desktop"])
    wraps = "cm-content cm-lineWrapping"  # the editor follows a change of width
    if WIDTHS[width] is PHONE:
        expect(content).not_to_have_class(wraps)
    else:
        expect(content).to_have_class(wraps)


@pytest.mark.parametrize("lang", LANGS)
@one_width("desktop")  # too wide even beside a wide column
def test_a_wide_formula_shows_that_it_scrolls_and_scrolls_by_keyboard(site, page, width, lang):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/transformer-block/?lang={lang}")
    wide = page.locator(".math.block").nth(1)
    expect(wide.locator(".katex")).to_be_visible()
    sizes = wide.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert sizes[0] > sizes[1], sizes  # the trial's clipped formula: it does scroll here
    style = wide.evaluate("e => getComputedStyle(e)")
    assert style["overflowX"] == "auto"
    # the cue: a shadow at each side, fixed to the box, under covers that scroll with it
    assert style["backgroundImage"].count("radial-gradient") == 2
    assert style["backgroundAttachment"].split(", ") == ["local", "local", "scroll", "scroll"]
    wide.focus()
    expect(wide).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    expect(wide).not_to_have_js_property("scrollLeft", 0)
    assert overflow(page) is None


@pytest.mark.parametrize("lang", LANGS)
@one_width("phone")  # "Start here" on the first screen of a phone
def test_the_home_page_puts_the_beginners_course_and_its_start_first(site, page, width, lang):
    python, start, *_ = WORDS[lang]
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/?lang={lang}")
    expect(page.locator("section.course-map h2").first).to_have_text(python)
    button = page.locator("section.course-map .map-next a.button").first
    expect(button).to_contain_text(start)
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= WIDTHS[width]["height"], box
    assert overflow(page) is None and axe_violations(page) == []


@pytest.mark.parametrize("lang", LANGS)
@one_width("phone")  # the welcome, after the form, must fit
def test_a_new_account_is_welcomed_and_sees_classes_only_once_in_one(site, page, width, lang):
    *_, welcome, menu, _ = WORDS[lang]
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/accounts/signup/?lang={lang}")
    page.locator("input[name=username]").fill("ada")
    page.locator("input[name=password1]").fill(GOOD)
    page.locator("input[name=password2]").fill(GOOD)
    page.locator("input[name=password2]").press("Enter")
    expect(page.locator(".who")).to_have_text("ada")
    flash = page.locator(".flash[role=status]")
    expect(flash).to_contain_text(welcome)
    nav = page.locator("header.site nav")
    expect(nav.get_by_role("link", name=menu, exact=True)).to_have_count(0)
    assert overflow(page) is None and axe_violations(page) == []
    page.reload()
    expect(flash).to_have_count(0)  # said once

    page.goto(f"{site}/progress/")
    page.locator("main").get_by_role("link", name="Join a class" if lang == "en" else
                                     "Bir sınıfa katıl").click()  # fmt: skip
    expect(page).to_have_url(f"{site}/classes/")
    User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    teacher = User.objects.get(username="teacher")
    room = classes.class_create(teacher, classes.Plan("7B", ("arrays-and-shapes",), {}))
    classes.class_join(User.objects.get(username="ada"), room)
    page.goto(f"{site}/")
    expect(nav.get_by_role("link", name=menu, exact=True)).to_have_count(1)


@pytest.mark.parametrize("lang", LANGS)
@one_width("phone")  # the analysis page with its meter must fit
def test_the_item_analysis_says_how_well_the_class_retains_the_lesson(site, page, width, lang):
    heading = WORDS[lang][-1]
    User.objects.create_user("teacher", password=GOOD)
    call_command("grant_teacher", "teacher", stdout=io.StringIO())
    room = classes.class_create(User.objects.get(username="teacher"),
                                classes.Plan("7B", ("arrays-and-shapes",), {}))  # fmt: skip
    page.set_viewport_size(WIDTHS[width])
    _log_in(page, site, "teacher", lang)
    url = f"{site}/classes/{room.pk}/analysis/arrays-and-shapes/"
    page.goto(url)
    section = page.locator("section.retention")
    expect(section.get_by_role("heading", level=2)).to_have_text(heading)
    expect(section.locator("meter")).to_have_count(0)  # no card yet: said so
    assert overflow(page) is None and axe_violations(page) == []

    ada = User.objects.create_user("ada", password=GOOD)
    classes.class_join(ada, room)
    uuid = catalog().lesson("arrays-and-shapes").uuid
    for question, right in (("q1", True), ("q2", False)):
        made = review.first(right, timezone.now())
        ReviewCard.objects.create(user=ada, lesson_uuid=uuid, question_id=question,
                                  state=made.state, due=made.due,
                                  reviewed_at=timezone.now())  # fmt: skip
    page.goto(url)
    expect(section.locator("meter")).to_have_attribute("value", "50")
    expect(section).to_contain_text("50%" if lang == "en" else "%50")
    assert overflow(page) is None and axe_violations(page) == []


@pytest.mark.parametrize("lang", LANGS)
@one_width("desktop")
def test_a_right_printout_with_a_wrong_value_is_said_once(site, page, width, lang):
    """F9: the verdict said twice that the printout is right but a value is not."""
    from codeblanks.content import catalog as courses
    from codeblanks.grading.grade import printed_right
    from codeblanks.i18n import language

    lesson = courses().in_language(lang).lesson("query-key-value")
    with language(lang):
        said = printed_right()
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site}/lessons/{lesson.id}/?lang={lang}")
    set_code(page, lesson.exercise.solution.replace("axis=1)", "axis=0)"))
    page.locator("#practice").get_by_role("button", name="Run" if lang == "en" else "Çalıştır",
                                          exact=True).click()  # fmt: skip
    verdict = page.locator("#result .verdict")
    expect(verdict).to_have_attribute("data-verdict", "incorrect")
    expect(page.locator("#result")).to_contain_text(said)
    text = " ".join(page.locator("#result").inner_text().split())
    assert text.count(" ".join(said.split())) == 1, text
    assert "prints what was expected here" not in text and "bekleneni yazdırıyor" not in text
    assert overflow(page) is None
