"""Where the init script installs the runtime: in every document a page can show, except the
empty one a new page starts with, which every run leaves at once
(:func:`webr4.browser.driver.runtime_script`)."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from webr4.browser.driver import runtime_script

pytestmark = pytest.mark.browser

INSTALLED = "typeof window.__webr4"


def test_the_runtime_is_in_every_document_but_a_new_pages_empty_one(driver, sites_url):
    async def installed(page: Page) -> list[str]:
        await page.context.add_init_script(runtime_script(0, 5_000))
        fresh = await page.context.new_page()
        found = [await fresh.evaluate(INSTALLED)]
        await fresh.goto(f"{sites_url}commutative-counter/", wait_until="load")
        found.append(await fresh.evaluate(INSTALLED))
        # An about:blank the page goes to has the page's origin: it is the page's document.
        async with fresh.expect_event("framenavigated"):
            await fresh.evaluate("location.href = 'about:blank'")
        found.append(await fresh.evaluate(INSTALLED))
        return found

    assert driver.in_plain_chromium(installed) == ["undefined", "object", "object"]
