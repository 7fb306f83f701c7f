"""TodoMVC (plain JavaScript): the first todo of a fresh list."""

import pytest
from playwright.sync_api import Page, expect

from benchmarks.flaky.server import installed

pytestmark = pytest.mark.skipif(not installed("todomvc"), reason="the TodoMVC apps are not installed: "
                                "python -m benchmarks --only real_apps installs them")


def test_first_todo(page: Page) -> None:
    """A todo typed as soon as the field shows is on the list."""
    page.goto("/todomvc/vanillajs/", wait_until="commit")
    page.get_by_placeholder("What needs to be done?").fill("Buy milk")
    page.get_by_placeholder("What needs to be done?").press("Enter")
    expect(page.locator("#todo-list li")).to_have_count(1)
