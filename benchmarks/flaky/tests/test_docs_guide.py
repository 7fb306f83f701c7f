"""Widget docs (docsify): the guide page."""

import pytest
from playwright.sync_api import Page

from benchmarks.flaky.server import installed

pytestmark = pytest.mark.skipif(not installed("web"), reason="the real-web pages are not installed: "
                                "python -m benchmarks --only real_web installs them")


def test_docs_guide(page: Page) -> None:
    """The sidebar's Guide link opens the guide."""
    page.goto("/web/pages/docsify/")
    page.get_by_role("link", name="Guide").click()
    page.wait_for_timeout(500)
    assert page.inner_text("#main h1") == "Guide"
