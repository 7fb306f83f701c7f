"""Fresh runs of two bundled sites with their reports, and a Chromium to open them from ``file://``."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from webr4 import demo
from webr4.browser.launch import CHROMIUM_ARGS, BrowserNotFound, chromium_path, sandbox_off_reason
from webr4.report.write import write_report

SITES = ("click-during-parse", "hostile")


def _demo_run(site: str, directory: Path) -> Path:
    """Record, explore and report ``site`` into ``directory``; return the report's index page."""
    assert demo.main(["--site", site, "--out", str(directory)]) == 0
    return write_report(directory)


@pytest.fixture(scope="package")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The report index page of a fresh run of each site in SITES, by site.

    The runs go in parallel, each on a thread of its own with its own event loop (the
    synchronous Playwright of the tests holds one on the main thread)."""
    base = tmp_path_factory.mktemp("runs")
    with ThreadPoolExecutor(max_workers=len(SITES)) as pool:
        futures = {site: pool.submit(_demo_run, site, base / site) for site in SITES}
        return {site: future.result() for site, future in futures.items()}


@pytest.fixture(scope="package")
def browser(reports: dict[str, Path]) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        try:
            path = chromium_path(playwright)
        except BrowserNotFound as error:
            pytest.skip(str(error))
        chromium = playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS),
                                              chromium_sandbox=sandbox_off_reason() is None)
        yield chromium
        chromium.close()
