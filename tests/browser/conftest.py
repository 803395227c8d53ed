"""Real Chromium through Playwright, against pytest-django's live server, with the real sandbox,
grader and built-in course.

The browser is Debian's Chromium as its headless shell (package chromium-headless-shell: the
same Blink and V8 as the chromium package, without the desktop browser around them), which is
what Playwright itself runs for headless tests. The same twelve tests took 30-32 s of CPU with
it against 54-56 s with the whole browser. CODEBLANKS_TEST_CHROMIUM names another binary, for
instance /usr/bin/chromium to watch the whole browser."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import socket
import weakref
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from playwright.sync_api import expect

# Playwright's sync API runs an event loop in this thread; the test's own database work is sync.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CODEBLANKS_TEST_CHROMIUM", "/usr/bin/chromium-headless-shell")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# Bounds only a hang reaches: every wait is for a condition, and beside a whole suite on two
# cores a page that takes 2 s alone can take ten times that (the first run of a lesson also
# computes its reference).
PATIENCE_MS = 60_000
expect.set_options(timeout=PATIENCE_MS)
EXPECTED_STATUS = re.compile(r"^Failed to load resource: .* status of (403|413|422|429|503)\b")
STATUS = re.compile(r"^Failed to load resource: .* status of (\d+)\b")
# Screenshots go outside the tracked tree unless asked for: `make screenshots` sets the folder
# to docs/screenshots (the README's pictures).
SCREENSHOTS = Path(
    os.environ.get("CODEBLANKS_SCREENSHOTS")
    or Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.access(CHROMIUM, os.X_OK):  # fail, not skip: the browser tests are part of the suite
        pytest.fail(
            f"{CHROMIUM} is missing: apt-get install -y chromium-headless-shell (make test does)"
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": FLAGS}


# Every context asks for reduced motion, as some learners' systems do: the site then blinks
# nothing (app.css). A blinking cursor in a focused editor keeps headless Chromium drawing
# frames, ~5 % of a core per page while a test waits; test_learner.py holds that the cursor
# still blinks for everyone else.
QUIET = {"reduced_motion": "reduce"}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, **QUIET, "viewport": {"width": 1280, "height": 900}}


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """As in tests/web: hashing a password costs a quarter second of CPU by design, and a page
    that signs in must not wait seconds for it on a loaded machine."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def live_connections(live_server):
    """The live server's open connections. Its request threads serve HTTP/1.1 keep-alive: a
    client that keeps a connection open (Chromium's pool, a requests session) keeps a thread
    waiting on it, which the leak guard (tests/conftest.py) would blame on whichever test
    made the connection. ``site`` closes them when its test ends, as a client going away would."""
    server = live_server.thread.httpd
    accepted: weakref.WeakSet[socket.socket] = weakref.WeakSet()
    accept = server.get_request

    def get_request():
        connection, address = accept()
        accepted.add(connection)
        return connection, address

    server.get_request = get_request
    return accepted


@pytest.fixture
def site(live_server, live_connections, page, settings):
    """The live server's base URL (also its CODEBLANKS_SITE_URL, for reset links). The test
    fails if the page logs an error: a script that failed, or anything the
    Content-Security-Policy blocked."""
    settings.CODEBLANKS = dataclasses.replace(settings.CODEBLANKS, site_url=live_server.url)
    page.set_default_timeout(PATIENCE_MS)
    cache.clear()  # the run-rate counts live here: each test starts with a fresh allowance
    errors = []

    page.allowed_statuses = set()  # a test that visits a page answered 400 or 404 on purpose

    def on_console(msg):
        # Chromium logs every 4xx answer; the app answers 422/429/413 on purpose (and swaps in
        # the message), so only other errors count.
        if msg.type != "error" or EXPECTED_STATUS.search(msg.text):
            return
        status = STATUS.search(msg.text)
        if status and int(status.group(1)) in page.allowed_statuses:
            return
        errors.append(msg.text)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield live_server.url
    try:
        assert not errors, errors
    finally:
        for connection in list(live_connections):
            with contextlib.suppress(OSError):  # closed already
                connection.shutdown(socket.SHUT_RDWR)  # its thread reads the end and returns


def set_code(page, code: str) -> None:
    """Replace the editor's text the way a learner would: select all, then type (insert)."""
    page.locator(".cb-editor .cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)


def editor_text(page) -> str:
    """The editor's text, once the editor is there (its script runs after the page loads)."""
    editor = "document.querySelector('textarea[name=code]')?.cbEditor"
    page.wait_for_function(f"() => !!{editor}")
    return page.evaluate(f"() => {editor}.getValue()")


DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}


def one_width(width: str) -> pytest.MarkDecorator:
    """A journey's one width, as its ``width`` argument ("desktop" or "phone").

    The sweeps already check every page at both widths and in both colour schemes
    (test_every_page.py; every lesson and review page at phone width in test_trial.py), so a
    journey's clicks run once: at phone width where the journey differs there (a control that
    moves or hides, something that must fit 390 px, an overflow or axe check on a page or state
    the sweeps do not reach), otherwise at whichever width keeps about half of the journeys at
    each. Bodies keep their ``width == "phone"`` branches: moving a journey is a one-word change.
    """
    assert width in WIDTHS, width
    return pytest.mark.parametrize("width", [width])


def log_in(page, site: str, user) -> None:
    """Sign ``user`` in to the page's browser context with a session the server makes (Django's
    ``force_login``) rather than through the form: for journeys about something else. The form
    itself is driven by test_accounts.py, test_classes.py and the journeys that sign in in
    Turkish."""
    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    page.context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": site}])


# axe-core, vendored (frontend/build.sh copies it from the npm package): no network at run time.
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()


@pytest.fixture
def another_page(browser):
    """A page in a context of its own (another person), closed with the test: an open context
    keeps its connections to the site, and the site's threads serving them, alive."""
    contexts = []

    def make(**options):
        contexts.append(browser.new_context(**{**QUIET, **options}))
        return contexts[-1].new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def accept_dialogs(page):
    """Say yes to hx-confirm's questions (Playwright would otherwise dismiss them)."""
    page.on("dialog", lambda dialog: dialog.accept())
    return page


WCAG_21_AA = {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}
# The WCAG 2.1 A/AA rules that read colours: all that can change when only colours do (the dark
# scheme swaps app.css's colour variables and nothing else).
COLOUR_RULES = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}


def axe_violations(page, rules: dict = WCAG_21_AA) -> list[str]:
    """The serious and critical WCAG 2.1 A/AA violations axe-core finds on the page as it is
    now, one line each (rule, impact, first element); ``rules`` narrows the run (COLOUR_RULES).
    Evaluated through the DevTools protocol, so the page's Content-Security-Policy stays as it
    is. A test that clicks a link waits for the new page first: a navigation that commits during
    the run breaks axe."""
    page.wait_for_load_state()
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE)
    found = page.evaluate(
        """async (runOnly) => {
            const r = await axe.run(document, {runOnly, resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}));
        }""",
        rules,
    )
    return [
        f"{v['id']} ({v['impact']}) at {', '.join(v['nodes'])}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def overflow(page) -> str | None:
    """What sticks out sideways: None when the document is no wider than the viewport, else
    the widths and the widest elements that reach past the right edge."""
    return page.evaluate(
        """() => {
            const width = document.documentElement.clientWidth;
            if (document.documentElement.scrollWidth <= width) return null;
            const out = [];
            for (const el of document.querySelectorAll('body *')) {
                const box = el.getBoundingClientRect();
                if (box.right > width + 1 && box.width > 0) {
                    out.push(el.tagName.toLowerCase() + (el.className ? '.' + el.className : '')
                             + ' right=' + Math.round(box.right));
                }
            }
            return `document ${document.documentElement.scrollWidth}px in ${width}px: `
                   + out.slice(0, 5).join('; ');
        }"""
    )
