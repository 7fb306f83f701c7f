"""What webr4's Chromium starts for one context: the renderer of its page and nothing else."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from webr4.browser.launch import launch
from webr4.serve import serve

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent / "pages" / "warm"


def test_a_context_costs_one_renderer_process():
    async def run(url: str) -> tuple[list[str], list[str]]:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            try:
                session = await browser.new_browser_cdp_session()
                context = await browser.new_context()
                page = await context.new_page()
                await page.goto(url)
                await asyncio.sleep(0.5)  # what Chromium starts after a navigation, it starts by then
                targets = (await session.send("Target.getTargets"))["targetInfos"]
                processes = (await session.send("SystemInfo.getProcessInfo"))["processInfo"]
                return sorted(target["type"] for target in targets), [p["type"] for p in processes]
            finally:
                await browser.close()

    with serve(PAGES) as base:
        targets, processes = asyncio.run(run(base + "index.html"))
    assert targets == ["page"]
    assert processes.count("renderer") == 1
