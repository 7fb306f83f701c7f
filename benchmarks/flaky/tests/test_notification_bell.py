"""Inbox: reading mail next to the notification bell."""

from playwright.sync_api import Page, expect


def test_notification_bell(page: Page) -> None:
    """Reading a message leaves the notification bell's count as it was."""
    page.goto("/inbox/")
    page.get_by_text("Welcome to the team").click()
    expect(page.locator("#reader h2")).to_have_text("Welcome to the team")
    assert page.get_attribute("#bell", "aria-label") == "3 unread notifications"
