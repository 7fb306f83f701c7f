"""How realistic each reversal is, on pages of our own, checked against plain Chromium.

``pages/timed-slots``: three XHR responses each fill a slot unless the slot's own timeout (3000,
3010, 3020 ms) gives up first. Each reversal needs its response that much later than recorded;
plain Chromium, with the response held back longer than that, shows the reversed outcome, and
with it held back less, the recorded one. The three reversals differ only in numbers, so the
overview shows them as one group.

``pages/late-button``: the button is parsed after a blocking script. A plan that clicks it
before its parse chunk cannot run that way: the click is skipped, as plain Chromium, where the
button does not exist while the script is held, says it must be.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator, TypeVar

import pytest
from playwright.async_api import Page as AsyncPage
from playwright.async_api import Route
from playwright.sync_api import Browser, Page

from tests.ci.runs import reversal, write_run
from webr4.browser.actions import parse_actions
from webr4.browser.driver import Driver
from webr4.classify import classify
from webr4.engine.realism import unrealised
from webr4.execution import Capture
from webr4.report.write import write_report
from webr4.serve import serve
from webr4.state.diff import StateDiff
from webr4.sweep.explore import explore
from webr4.record.session import record
from webr4.trace import Trace

pytestmark = pytest.mark.browser

PAGES = Path(__file__).parent / "pages"
T = TypeVar("T")


def _run(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` on an event loop of its own thread: the synchronous Playwright of the report
    tests holds one on the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()


async def _in_plain_chromium(driver: Driver, work: Callable[[AsyncPage], Awaitable[T]]) -> T:
    """What ``work`` returns for a page in a fresh context of the driver's browser, without webr4."""
    context = await driver.browser.new_context()
    try:
        return await work(await context.new_page())
    finally:
        await context.close()


async def _record_and_explore(url: str, base: Path) -> None:
    async with Driver() as driver:
        session = await record(driver, url, base / "session", [])
        await explore(driver, session, base / "run")


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    with serve(PAGES) as url:
        yield url


@pytest.fixture(scope="module")
def slots(pages_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run directory of a sweep of timed-slots, with its report."""
    base = tmp_path_factory.mktemp("slots")
    _run(_record_and_explore(pages_url + "timed-slots/", base))
    write_report(base / "run")
    return base / "run"


def _reversals(run: Path) -> list[dict[str, Any]]:
    return json.loads((run / "summary.json").read_text())["reversals"]


def _by_slot(run: Path) -> dict[int, dict[str, Any]]:
    return {int(re.search(r"item(\d)", r["first"]).group(1)): r for r in _reversals(run)}  # type: ignore[union-attr]


def test_each_reversal_says_how_much_later_its_response_arrived(slots: Path) -> None:
    by_slot = _by_slot(slots)
    assert sorted(by_slot) == [1, 2, 3]
    for n, r in by_slot.items():
        delay = 2990 + 10 * n
        assert r["unrealised"] is None and r["timing_ms"] == delay
        assert r["timing"].startswith(f"XHR GET /timed-slots/item{n}.json load arrived {delay / 1000:g} s later, "
                                      f"after setTimeout {delay}ms at /timed-slots/:")
        assert r["differences"]["dom"] == [f'#slot-{n}: "item {n}" → "timed out"']


async def _slots_with_late_responses(url: str, *late_ms: float) -> list[list[str]]:
    """The slots' texts in plain Chromium when item2.json's response is held back each of ``late_ms``."""

    async def slots(page: AsyncPage, late: float) -> list[str]:
        async def hold(route: Route) -> None:
            await asyncio.sleep(late / 1000)
            await route.continue_()

        await page.route("**/item2.json", hold)
        await page.goto(url, wait_until="load")
        await page.wait_for_function("[1, 2, 3].every(n => document.getElementById('slot-' + n).textContent)",
                                     timeout=30_000)
        return await page.eval_on_selector_all("p", "ps => ps.map(p => p.textContent)")

    async with Driver() as driver:
        return [await _in_plain_chromium(driver, lambda page: slots(page, late)) for late in late_ms]  # noqa: B023


def test_plain_chromium_reverses_the_pair_once_the_response_is_that_late(slots: Path, pages_url: str) -> None:
    timing = _by_slot(slots)[2]["timing_ms"]
    # well clear of the distance on both sides: a loaded machine runs timers and responses late
    earlier, later = _run(_slots_with_late_responses(pages_url + "timed-slots/", timing / 6, timing * 2))
    assert earlier == ["item 1", "item 2", "item 3"]
    assert later == ["item 1", "timed out", "item 3"]


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_the_overview_shows_the_three_alike_as_one_group_led_by_the_likeliest(slots: Path, page: Page) -> None:
    page.goto((slots / "report" / "index.html").as_uri())
    groups = page.locator("#reversals tbody")
    assert groups.count() == 1
    rows = groups.first.locator("tr")
    likeliest = min(_reversals(slots), key=lambda r: r["timing_ms"])
    assert [r.get_attribute("data-index") for r in rows.all() if r.is_visible()] == [str(likeliest["index"])]
    assert "arrived 3 s later" in rows.first.locator("td.timing").inner_text()
    page.click("button.expand")
    assert sum(r.is_visible() for r in rows.all()) == 3


async def _button_while_the_script_is_held(page: AsyncPage, url: str) -> tuple[int, int]:
    """How many #add buttons plain Chromium has while slow.js is held, and once it is released."""
    held: list[Route] = []

    async def hold(route: Route) -> None:
        held.append(route)

    await page.route("**/slow.js", hold)
    await page.goto(url, wait_until="commit")
    await page.wait_for_selector("#status", state="attached")
    while not held:
        await asyncio.sleep(0.05)
    while_held = await page.locator("#add").count()
    await held[0].continue_()
    await page.wait_for_selector("#add", state="attached")
    return while_held, await page.locator("#add").count()


def test_a_click_planned_before_the_chunk_that_parses_its_button_is_unrealised(pages_url: str) -> None:
    url = pages_url + "late-button/"
    actions = parse_actions([{"click": "#add"}])

    async def both() -> tuple[tuple[int, int], Trace, Trace]:
        async with Driver() as driver:
            plain = await _in_plain_chromium(driver, lambda page: _button_while_the_script_is_held(page, url))
            seed = (await driver.execute(url, actions=actions, capture=Capture())).trace
            click = next(e for e in seed.events.values() if e.type == "click")
            chunk = next(e for e in seed.events.values() if e.label.startswith("parse chunk"))
            child = (await driver.execute(url, [seed.sequence[0], click.id, chunk.id], actions=actions,
                                          capture=Capture())).trace
            return plain, seed, child

    plain, seed, child = _run(both())
    assert plain == (0, 1)  # no button to click before slow.js arrives, and the chunk after it runs
    click = next(e for e in seed.events.values() if e.type == "click")
    chunk = next(e for e in seed.events.values() if e.label.startswith("parse chunk"))
    assert child.skipped == [click.id]
    assert unrealised(child, chunk.id, click.id) == \
        f"click on #add was not enabled when its turn came and ran after {chunk.label}, " \
        "which waits for script /late-button/slow.js"
    assert classify(seed, child, StateDiff(), (chunk, click)).kind == "unrealised"


def test_the_report_never_claims_an_order_that_did_not_happen(tmp_path: Path, page: Page) -> None:
    why = "click on #add was not enabled when its turn came and ran after parse chunk 1/1"
    labels = ("parse chunk 1/1", "click on #add")
    run = write_run(tmp_path / "run", [
        reversal(1, "unrealised", ["order-not-realised"], labels=labels) | {"unrealised": why},
        reversal(2, "harmful", ["dom-and-render-diff"]) | {
            "timing": "XHR GET /b.json load arrived 3 s later, after setTimeout 3000ms at app.js:4:1",
            "timing_ms": 3000},
        reversal(3, "harmless", ["commute"], location="#log") | {"timing": "fits the recorded timing", "timing_ms": 0},
    ])
    index = write_report(run)
    page.goto((index.parent / "reversal-1.html").as_uri())
    headline = page.locator("#order").inner_text()
    assert "Planned order not realised" in headline and why in headline
    text = page.locator("main").inner_text()
    assert "now runs before" not in text and "Runs first in the reversal" not in text
    page.goto(index.as_uri())
    assert why in page.locator("tr[data-index='1']").inner_text()
    page.locator("#reversals th", has_text="Timing").click()
    shown = page.locator("#reversals tbody tr").evaluate_all("rows => rows.map(r => Number(r.dataset.index))")
    assert shown == [3, 2, 1]  # fits the recording, 3 s later, then the order that did not happen
