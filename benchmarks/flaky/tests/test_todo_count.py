"""TodoMVC (jQuery): the count of items left."""

import pytest
from playwright.sync_api import Page

from benchmarks.flaky.server import installed

pytestmark = pytest.mark.skipif(not installed("todomvc"), reason="the TodoMVC apps are not installed: "
                                "python -m benchmarks --only real_apps installs them")


def test_todo_count(page: Page) -> None:
    """One todo added leaves one item to do."""
    page.goto("/todomvc/jquery/", wait_until="commit")
    page.locator("#new-todo").fill("Water the plants")
    page.locator("#new-todo").press("Enter")
    assert page.inner_text("#todo-count") == "1 item left"
