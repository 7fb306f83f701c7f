"""Why we bake at night: the article's comments."""

from playwright.sync_api import Page, expect


def test_post_comment(page: Page, base_url: str) -> None:
    """A posted comment joins the article's comments."""
    page.goto(f"{base_url}/comments/", wait_until="domcontentloaded")
    page.get_by_placeholder("Add a comment").press_sequentially("Lovely piece!", delay=40)
    page.get_by_role("button", name="Post").click()
    expect(page.locator(".comment")).to_have_count(3)
    expect(page.locator(".comment").last).to_contain_text("Lovely piece!")
