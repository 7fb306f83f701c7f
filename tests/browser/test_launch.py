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


def _browser_command_line(processes: list[dict]) -> list[str]:
    [browser] = [p["id"] for p in processes if p["type"] == "browser"]
    return Path(f"/proc/{browser}/cmdline").read_bytes().decode().split("\0")


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads a process's command line from /proc")
def test_chromium_keeps_off_every_feature_playwright_turns_off():
    async def run() -> list[str]:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            try:
                session = await browser.new_browser_cdp_session()
                return _browser_command_line((await session.send("SystemInfo.getProcessInfo"))["processInfo"])
            finally:
                await browser.close()

    switches = [arg.split("=", 1)[1].split(",") for arg in asyncio.run(run()) if arg.startswith("--disable-features=")]
    playwrights, effective = switches[0], switches[-1]  # Playwright's comes first; Chromium reads the last
    assert len(switches) == 2 and "PaintHolding" in playwrights
    assert set(playwrights) <= set(effective)
