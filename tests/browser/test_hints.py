"""Hints in Chromium: revealed one at a time in place (htmx), kept after a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from codeblanks.content import catalog

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
QKV = "query-key-value"


def test_reveal_the_hints_one_by_one(site, page):
    hints = catalog().lesson(QKV).exercise.hints
    assert len(hints) >= 2
    page.goto(f"{site}/lessons/{QKV}/")
    block = page.locator("#hints")
    expect(block.locator(".hint-text")).to_have_count(0)
    page.get_by_role("button", name=f"Stuck? Show hint 1 of {len(hints)}").click()
    expect(block.locator(".hint-text")).to_have_count(1)
    expect(block).to_contain_text(f"Hint 1 of {len(hints)}.")
    for number in range(2, len(hints) + 1):
        page.get_by_role("button", name=f"Show hint {number} of {len(hints)}").click()
        expect(block.locator(".hint-text")).to_have_count(number)
    expect(block.get_by_role("button")).to_have_count(0)  # no more to ask for
    page.reload()
    expect(page.locator("#hints .hint-text")).to_have_count(len(hints))
