"""Lighthouse docs: moving between pages of the single-page docs."""

import re

from playwright.sync_api import Page, expect


def test_docs_navigation(page: Page) -> None:
    """The table of contents opens the Configure page."""
    page.goto("/docs/")
    page.get_by_role("link", name="Configure").click()
    expect(page).to_have_url(re.compile(r"#/configure$"))
    page.wait_for_timeout(400)
    assert page.text_content("#page h1") == "Configure"
