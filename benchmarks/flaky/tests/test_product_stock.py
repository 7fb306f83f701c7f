"""Trail jacket: the product page's sizes and stock."""

from playwright.sync_api import Page, expect


def test_product_stock(page: Page) -> None:
    """Choosing a size on the product page; the jacket is in stock."""
    page.goto("/product/")
    size = page.get_by_role("button", name="M", exact=True)
    size.click()
    expect(size).to_have_attribute("aria-pressed", "true")
    assert page.is_visible("#in-stock")
