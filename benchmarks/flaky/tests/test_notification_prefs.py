"""Preferences: the notification settings tab."""

from playwright.sync_api import Page


def test_notification_prefs(page: Page) -> None:
    """The notification tab shows the saved choices."""
    page.goto("/prefs/")
    page.get_by_role("tab", name="Notifications").click()
    assert page.is_checked("#weekly-digest")
    assert not page.is_checked("#product-news")
