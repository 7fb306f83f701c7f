"""Pet shop: search as you type."""

from playwright.sync_api import Page


def test_search_as_you_type(page: Page) -> None:
    """Typing "cat" lists the two cat products."""
    page.goto("/search/")
    page.get_by_label("Search products").press_sequentially("cat", delay=200)
    page.wait_for_timeout(2500)
    assert page.locator("#results li").all_inner_texts() == ["Cat bed — £24.00", "Cat tree — £59.00"]
