"""Your profile: the form filled in from the account."""

from playwright.sync_api import Page


def test_profile_email(page: Page) -> None:
    """The profile form shows the signed-in user's email."""
    page.goto("/profile/")
    page.get_by_role("button", name="Accept cookies").click()
    assert page.input_value("#email") == "ada@example.com"
