"""Harbour Bakery: the site's menu button."""

from playwright.sync_api import Page, expect


def test_mobile_menu(page: Page, base_url: str) -> None:
    """The menu button opens the site navigation."""
    page.goto(f"{base_url}/menu/", wait_until="commit")
    page.get_by_role("button", name="Menu").click()
    expect(page.locator("#nav")).to_be_visible()
    expect(page.get_by_role("link", name="Visit us")).to_be_visible()
