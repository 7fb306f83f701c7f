"""A Chromium for opening report pages from ``file://``, and a helper to make a demo run."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from webr4 import demo
from webr4.report.write import write_report

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]


def demo_run(site: str, directory: Path) -> Path:
    """Record, explore and report ``site`` into ``directory``; return the report's index page.

    The demo runs its own event loop, so it runs on a thread of its own: the synchronous
    Playwright of the tests may already hold one on this thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(demo.main, ["--site", site, "--out", str(directory)]).result() == 0
    return write_report(directory)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()
