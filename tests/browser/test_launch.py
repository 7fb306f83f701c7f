"""What webr4's Chromium starts for one context: the renderer of its page and nothing else."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from webr4.browser.launch import launch
from webr4.serve import serve

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent / "pages" / "warm"


def _renderers() -> int:
    """Renderer processes among this process's descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    count, todo = 0, [os.getpid()]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            count += b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
    return count


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts processes in /proc")
def test_a_context_costs_one_renderer_process():
    async def run(url: str) -> tuple[int, list[str]]:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            try:
                session = await browser.new_browser_cdp_session()
                context = await browser.new_context()
                page = await context.new_page()
                await page.goto(url)
                await asyncio.sleep(0.5)  # what Chromium starts after a navigation, it starts by then
                targets = (await session.send("Target.getTargets"))["targetInfos"]
                return _renderers(), sorted(target["type"] for target in targets)
            finally:
                await browser.close()

    with serve(PAGES) as base:
        renderers, targets = asyncio.run(run(base + "index.html"))
    assert targets == ["page"]
    assert renderers == 1
