"""Todos: adding an item to the list."""

from playwright.sync_api import Page, expect


def test_add_todo(page: Page) -> None:
    """A new todo joins the three that are already on the list."""
    page.goto("/todo/")
    new_todo = page.get_by_placeholder("What needs doing?")
    new_todo.press_sequentially("Buy milk", delay=60)
    new_todo.press("Enter")
    expect(page.locator("#todos li").last).to_have_text("Buy milk")
    assert page.locator("#todos li").count() == 4
