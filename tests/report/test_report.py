"""The report of a real run of click-during-parse, opened from file:// in Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Error, Page

from webr4.rundir.runfiles import RunFiles

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def index(reports: dict[str, Path]) -> Path:
    return reports["click-during-parse"]


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.console_errors = errors  # type: ignore[attr-defined]

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    def page_error(error: Error) -> None:
        errors.append(str(error))

    page.on("console", console)
    page.on("pageerror", page_error)
    yield page
    context.close()


def _summary(index: Path) -> dict:
    return json.loads((index.parent.parent / "summary.json").read_text())


def test_overview_lists_every_reversal_harmful_first(index: Path, page: Page, output_dir: Path) -> None:
    reversals = _summary(index)["reversals"]
    assert reversals
    page.goto(index.as_uri())
    rows = page.locator("#reversals tbody tr")
    assert sorted(int(i) for i in rows.evaluate_all("rows => rows.map(r => r.dataset.index)")) == \
        sorted(r["index"] for r in reversals)
    verdicts = rows.evaluate_all("rows => rows.map(r => r.dataset.verdict)")
    assert verdicts == sorted(verdicts, key=lambda v: v != "harmful")
    page.screenshot(path=str(output_dir / "report-overview.png"), full_page=True)
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_filtering_by_verdict_hides_the_others(index: Path, page: Page) -> None:
    reversals = _summary(index)["reversals"]
    page.goto(index.as_uri())
    for verdict in ("harmful", "harmless", "heap-only", "error", ""):
        page.select_option("#verdict-filter", verdict)
        visible = page.locator("#reversals tbody tr:not([hidden])").evaluate_all(
            "rows => rows.map(r => Number(r.dataset.index))")
        assert sorted(visible) == sorted(r["index"] for r in reversals if not verdict or r["verdict"] == verdict)


def test_sorting_by_number_reverses_on_second_click(index: Path, page: Page) -> None:
    page.goto(index.as_uri())
    header = page.locator("#reversals th").first
    header.click()
    header.click()
    shown = page.locator("#reversals tbody tr").evaluate_all("rows => rows.map(r => Number(r.dataset.index))")
    assert shown == sorted(shown, reverse=True)


def test_reversal_page_shows_screenshots_diff_source_and_command(index: Path, page: Page, output_dir: Path) -> None:
    reversal = next(r for r in _summary(index)["reversals"] if r["verdict"] == "harmful")
    page.goto((index.parent / f"reversal-{reversal['index']}.html").as_uri())
    page.click("button[data-show=both]")
    page.check("#overlay")
    for selector in (".frames .parent img:not(.overlay)", ".frames .child img:not(.overlay)", ".diffimage img"):
        image = page.locator(selector)
        image.scroll_into_view_if_needed()
        assert image.evaluate("img => img.complete && img.naturalWidth") > 0, selector
    assert page.locator(".source .line.hit").count() >= 2  # the write in cart.js and the read in the HTML
    assert "addToCart" in page.locator(".source").first.inner_text()
    command = page.locator("#command").inner_text()
    assert command == f"webr4 replay {index.parent.parent} {reversal['index']}"
    assert page.locator("#first-difference").count() == 1
    page.screenshot(path=str(output_dir / "report-reversal.png"), full_page=True)
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_every_local_link_resolves(index: Path, page: Page) -> None:
    pages = [index, index.parent / "timeline.html", *sorted(index.parent.glob("reversal-*.html"))]
    for html in pages:
        page.goto(html.as_uri())
        targets = page.evaluate("""() => [...document.querySelectorAll('a[href], img[src], link[href], script[src]')]
                                    .map(e => e.href || e.src)""")
        for target in targets:
            assert target.startswith("file://"), (html.name, target)
            path = Path(re.sub(r"[#?].*$", "", target.removeprefix("file://")))
            assert path.is_file(), (html.name, target)
        assert page.console_errors == []  # type: ignore[attr-defined]


def test_timeline_draws_every_seed_step_and_the_reversed_pairs(index: Path, page: Page) -> None:
    with RunFiles(index.parent.parent) as files:
        seed = files.trace(0)
    assert seed is not None
    page.goto((index.parent / "timeline.html").as_uri())
    assert page.locator("svg circle.node").count() == len(seed.steps)
    assert page.locator("svg path.race").count() == len(_summary(index)["reversals"])
    assert page.locator("svg circle.node.racing").count() >= 2
