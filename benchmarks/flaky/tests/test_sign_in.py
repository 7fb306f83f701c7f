"""Sign in: from the form to the dashboard."""

from playwright.sync_api import Page


def test_sign_in(page: Page) -> None:
    """Signing in lands on the dashboard."""
    page.goto("/login/")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("s3cret-pass")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_timeout(700)
    assert page.url.endswith("/login/#/dashboard")
    assert page.is_visible("text=Good to see you, Ada.")
