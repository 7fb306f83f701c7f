"""Checkout: the delivery step."""

from playwright.sync_api import Page, expect


def test_checkout_phone(page: Page, base_url: str) -> None:
    """Express delivery with a phone number for the courier."""
    page.goto(f"{base_url}/checkout/", wait_until="commit")
    page.get_by_label("Express delivery").check()
    page.get_by_label("Phone").fill("7700 900123")
    page.get_by_role("button", name="Continue").click()
    expect(page.locator("#summary")).to_have_text("Express delivery, we will call +44 7700 900123")
