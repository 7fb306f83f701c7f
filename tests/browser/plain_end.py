"""The oracle of the tests of rendering and timing: a test page's log and final DOM in plain Chromium.

Each such page logs what its handlers saw into the global ``fired`` (and into its DOM); the test
compares that order and the DOM webr4's execution ends with against plain Chromium's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from playwright.async_api import Page

from webr4.resources import javascript

Session = Callable[[Page], Awaitable[None]]
"""What the user does to the loaded page in plain Chromium, and what the test waits for there."""


def plain_end(driver, url: str, session: Session) -> tuple[list[str], str]:
    """The page's ``fired`` log and its DOM as webr4 captures it, in plain Chromium, once ``session``
    has run on ``url``."""

    async def work(page: Page) -> tuple[list[str], str]:
        await page.goto(url)
        await session(page)
        return await page.evaluate("fired"), await page.evaluate(javascript("capture_dom.js"))

    return driver.in_plain_chromium(work)
