"""Pounds to euros: converting as you type."""

from playwright.sync_api import Page


def test_currency_converter(page: Page) -> None:
    """Converting £1250 to euros."""
    page.goto("/converter/")
    page.get_by_label("Amount in £").press_sequentially("1250", delay=100)
    assert page.text_content("#result") == "€1462.50"
