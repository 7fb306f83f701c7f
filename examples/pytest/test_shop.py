"""Playwright tests that webr4 also checks for harmful event races: copy, then change URLs and flows.

Each test is an ordinary Playwright test (the sync API's ``page``); ``@pytest.mark.webr4`` makes
its flow the seed session of a sweep. Against the bundled sites:

    webr4 sites serve &
    pytest examples/pytest

``test_add_to_cart`` passes as a plain test but fails under webr4: a click before cart.js has
been parsed throws "addToCart is not defined". The failure names the race and the report.
``test_unread_count`` passes: its two responses commute. ``--webr4-off`` runs both as plain
tests; ``--webr4-bound 2`` explores deeper; ``--webr4-out DIR`` puts the run directories elsewhere.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

SITES = os.environ.get("WEBR4_SITES", "http://127.0.0.1:8765/")


@pytest.mark.webr4(url=SITES + "click-during-parse/", bound=1)
def test_add_to_cart(page: Page) -> None:
    page.click("#add")
    expect(page.locator("#cart")).to_have_text("Cart: 1 item")


@pytest.mark.webr4  # no url: the session starts where the test's own page.goto goes
def test_unread_count(page: Page) -> None:
    page.goto(SITES + "commutative-counter/")
    expect(page.get_by_text("unread messages")).to_have_text("7 unread messages")
