"""Account security: the change-password dialog."""

from playwright.sync_api import Page


def test_change_password(page: Page) -> None:
    """Saving a new password closes the dialog."""
    page.goto("/dialog/")
    page.get_by_role("button", name="Change password").click()
    page.get_by_label("New password").fill("correct horse battery staple")
    page.get_by_role("button", name="Save").click()
    page.wait_for_timeout(800)
    assert not page.is_visible("#password-dialog")
    assert page.inner_text("#changed") == "just now"
