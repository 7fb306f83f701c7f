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

from playwright.async_api import Browser, Page, async_playwright

from webr4.browser.actions import UserAction
from webr4.browser.driver import VIEWPORT
from webr4.browser.launch import chromium_path, sandbox_off_reason
from webr4.sweep.explore import SEED_REPLAYS

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


async def perform_session(page: Page, url: str, steps: Sequence[UserAction]) -> None:
    """Load ``url`` in ``page`` and perform ``steps`` with Playwright, as a user's script does."""
    await page.goto(url, wait_until="load")
    for step in steps:
        await step.perform(page, STEP_TIMEOUT_MS)


async def plain_session(browser: Browser, url: str, steps: Sequence[UserAction]) -> float:
    """Seconds for a fresh context of ``browser`` to load ``url``, perform ``steps`` with Playwright
    and close."""
    started = time.perf_counter()
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        await perform_session(await context.new_page(), url, steps)
    finally:
        await context.close()
    return time.perf_counter() - started


class PerExecution:
    """The cost of a sweep's executions against the plain session, for a benchmark's row (a
    dataclass with ``plain_s``, ``sweep_s`` and ``sequences``, the seed included, as
    ``summary.json``'s ``sequences_explored``)."""

    plain_s: float
    sweep_s: float | None
    sequences: int | None

    @property
    def executions(self) -> int | None:
        """The seed replays, then one per explored child (``sequences`` counts the seed)."""
        return None if self.sequences is None else self.sequences - 1 + SEED_REPLAYS

    @property
    def per_execution_s(self) -> float | None:
        return None if self.sweep_s is None or not self.executions else self.sweep_s / self.executions

    @property
    def ratio(self) -> float | None:
        return None if self.per_execution_s is None else self.per_execution_s / self.plain_s
