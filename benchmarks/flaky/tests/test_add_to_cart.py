"""Mugs & Co.: the product page's Add to cart button."""

from playwright.sync_api import Page


def test_add_to_cart(page: Page) -> None:
    """The cart badge counts the mug once it is added."""
    page.goto("/cart/")
    page.get_by_role("button", name="Add to cart").click()
    page.wait_for_timeout(500)
    assert page.inner_text("#cart-count") == "1"
