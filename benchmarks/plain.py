"""The baseline every cost ratio divides by: a plain Playwright session of the same page and steps.

A plain session runs in a Chromium launched as any Playwright script here launches it
(:func:`plain_browser`): Playwright's own switches and the machine's usual ones, none of the
switches webr4 adds to make its own contexts cheaper. The benchmarks also time plain sessions in
webr4's browser, so that what those switches save is not counted as webr4's gain.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from playwright.async_api import Browser, async_playwright

from webr4.browser.actions import UserAction
from webr4.browser.driver import VIEWPORT
from webr4.browser.launch import chromium_path, sandbox_off_reason

STEP_TIMEOUT_MS = 10_000
PLAIN_ARGS = ("--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--no-first-run")
"""The switches every Chromium on these machines is launched with (and ``--no-sandbox`` where the
sandbox cannot start, as for webr4's)."""


@asynccontextmanager
async def plain_browser() -> AsyncIterator[Browser]:
    """The same Chromium binary as webr4's, launched as a plain Playwright script launches it."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path(playwright), args=list(PLAIN_ARGS),
                                                   chromium_sandbox=sandbox_off_reason() is None)
        try:
            yield browser
        finally:
            await browser.close()


async def plain_session(browser: Browser, url: str, steps: Sequence[UserAction]) -> float:
    """Seconds for a fresh context of ``browser`` to load ``url``, perform ``steps`` with Playwright
    and close."""
    started = time.perf_counter()
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        page = await context.new_page()
        await page.goto(url, wait_until="load")
        for step in steps:
            await step.perform(page, STEP_TIMEOUT_MS)
    finally:
        await context.close()
    return time.perf_counter() - started
