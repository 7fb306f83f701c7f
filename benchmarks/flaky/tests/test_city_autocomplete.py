"""Plan a trip: the destination field's suggestions."""

from playwright.sync_api import Page, expect


def test_city_autocomplete(page: Page) -> None:
    """Picking a destination from the suggestions with the keyboard."""
    page.goto("/autocomplete/")
    page.get_by_label("Destination").fill("Ber")
    page.wait_for_timeout(700)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Destination")).to_have_value("Berlin")
