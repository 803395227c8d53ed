"""Real Chromium (Debian's, /usr/bin/chromium) through Playwright, against pytest-django's live
server, with the real sandbox, grader and built-in course."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

# Playwright's sync API runs an event loop in this thread; the test's own database work is sync.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
expect.set_options(timeout=20_000)  # the first run of a lesson also computes its reference
EXPECTED_STATUS = re.compile(r"^Failed to load resource: .* status of (403|413|422|429|503)\b")
# Screenshots go outside the tracked tree unless asked for: `make screenshots` sets the folder
# to docs/screenshots (the README's pictures).
SCREENSHOTS = Path(
    os.environ.get("CODEBLANKS_SCREENSHOTS")
    or Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.access(CHROMIUM, os.X_OK):  # fail, not skip: the browser tests are part of the suite
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def site(live_server, page):
    """The live server's base URL. The test fails if the page logs an error: a script that
    failed, or anything the Content-Security-Policy blocked."""
    page.set_default_timeout(15_000)
    errors = []

    def on_console(msg):
        # Chromium logs every 4xx answer; the app answers 422/429/413 on purpose (and swaps in
        # the message), so only other errors count.
        if msg.type == "error" and not EXPECTED_STATUS.search(msg.text):
            errors.append(msg.text)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield live_server.url
    assert not errors, errors


def set_code(page, code: str) -> None:
    """Replace the editor's text the way a learner would: select all, then type (insert)."""
    page.locator(".cb-editor .cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)


def editor_text(page) -> str:
    return page.evaluate("() => document.querySelector('textarea[name=code]').cbEditor.getValue()")
