"""The baseline every cost ratio divides by: a plain Playwright session of the same page and steps."""

from __future__ import annotations

import time
from collections.abc import Sequence

from webr4.browser.actions import UserAction
from webr4.browser.driver import VIEWPORT, Driver

STEP_TIMEOUT_MS = 10_000


async def plain_session(driver: Driver, url: str, steps: Sequence[UserAction]) -> float:
    """Seconds for a fresh context to load ``url``, perform ``steps`` with Playwright and close."""
    started = time.perf_counter()
    context = await driver.browser.new_context(viewport=VIEWPORT)
    try:
        page = await context.new_page()
        await page.goto(url, wait_until="load")
        for step in steps:
            await step.perform(page, STEP_TIMEOUT_MS)
    finally:
        await context.close()
    return time.perf_counter() - started
