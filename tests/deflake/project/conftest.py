"""A small Playwright project of flaky tests: its pages, served on loopback, and a slow response.

It names no browser: where Playwright's own Chromium is not installed, webr4's plugin hands
pytest-playwright the one webr4 drives.

``SLOW=<path>`` makes the response to that path come 2.5 s late, as a slow network would;
``EXPECT_MS`` is how long a web-first assertion waits (5 s, Playwright's default, unless given).
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from webr4.serve import serve

expect.set_options(timeout=int(os.environ.get("EXPECT_MS", "5000")))


@pytest.fixture(scope="session")
def base_url():
    with serve(Path(__file__).parent / "site") as url:
        yield url


@pytest.fixture(autouse=True)
def slow_response(page):
    path = os.environ.get("SLOW")
    if path:
        def slow(route):
            try:
                page.wait_for_timeout(2500)
                route.continue_()
            except Exception:
                pass
        page.route(f"**/{path}", slow)
