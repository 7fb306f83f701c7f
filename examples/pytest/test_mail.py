"""A flaky Playwright test, as many are: it passes on a fast server and fails when a response is slow.

``webr4 deflake`` takes it as it is, finds the response it races with, proves it in plain
Chromium with that response slowed down, and hands back the fix: a retrying assertion in place of
the fixed pause. Against the bundled sites:

    webr4 sites serve &
    webr4 deflake test_mail.py

(``pip install 'webr4[pytest]'`` brings pytest-playwright.)
"""

from __future__ import annotations

import os

from playwright.sync_api import Page

SITES = os.environ.get("WEBR4_SITES", "http://127.0.0.1:8765/")


def test_unread_count(page: Page) -> None:
    page.goto(SITES + "commutative-counter/")
    page.wait_for_timeout(300)
    assert page.inner_text("#unread") == "7 unread messages"
