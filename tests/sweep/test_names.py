"""Verdicts in the user's terms: racing locations named as the page names them, differences as
concrete items, the same in summary.json, JUnit, SARIF and the report; and a run that keeps
working after it is moved.

The page (``pages/named-races``) has two XHR responses whose handlers race on a DOM node with an
id, one without (``p > span``), an element one of them creates, a global object path, an object
only a closure holds, one only a module holds and one reached only through a WeakMap.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from webr4.browser.driver import Driver
from webr4.browser.launch import CHROMIUM_ARGS, chromium_path
from webr4.report.ci import write_junit, write_sarif
from webr4.report.write import write_report
from webr4.serve import serve
from webr4.sweep.explore import explore
from webr4.sweep.replay import replay_reversal
from webr4.record.session import Session, record

pytestmark = pytest.mark.browser

PAGE = Path(__file__).parent / "pages" / "named-races"
LOCATIONS = [
    "#log.textContent",
    "#log.children",
    "body>p>span.textContent",
    "body>p>span.children",
    "existence of element #email",
    "window.app.cart.items[0].qty",
    "closure at app.js:14:7 › state.hits",
    "module store.js › store.count",
    "(Tally object first seen at app.js:7:10).n",
]
DIFFERENCES = {
    "exceptions": ["new Uncaught TypeError: Cannot set properties of null (setting 'value') at app.js:45:42"],
    "dom": ['body > p > span: "B" → "A"', '#log: "b loaded" → "a loaded"',
            '#email: value "ada@example.com" → ""'],
    "screenshot": ["963 pixels changed in 119×67 at (8, 19)"],
    "heap": ["window.app.cart.items[0].qty: 2 → 1"],
}


async def _record_and_explore(url: str, base: Path) -> None:
    async with Driver() as driver:
        session = await record(driver, url, base / "session-elsewhere", [])
        await explore(driver, session, base / "run")


@pytest.fixture(scope="module")
def moved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run whose session lives next to it, not in it; both moved after exploring. Returns the
    run directory at its new place."""
    base = tmp_path_factory.mktemp("named")
    with serve(PAGE) as url:
        asyncio.run(_record_and_explore(url, base / "before"))
    shutil.move(base / "before", base / "after")
    return base / "after" / "run"


@pytest.fixture(scope="module")
def reversal(moved: Path) -> dict[str, Any]:
    summary = json.loads((moved / "summary.json").read_text())
    assert summary["session"] == "../session-elsewhere"
    [only] = summary["reversals"]
    return only


def test_the_pair_races_on_every_location_named_as_the_page_names_it(reversal: dict[str, Any]) -> None:
    assert [e["label"] for e in reversal["events"]] == ["XHR GET /a.json load", "XHR GET /b.json load"]
    assert reversal["verdict"] == "harmful"
    assert reversal["locations"] == LOCATIONS
    assert reversal["location"] == LOCATIONS[0]


def test_differences_are_concrete_items(reversal: dict[str, Any]) -> None:
    assert reversal["differences"] == DIFFERENCES


def test_junit_and_sarif_carry_the_names_and_the_items(moved: Path, reversal: dict[str, Any]) -> None:
    failure = ET.parse(write_junit(moved, moved / "junit.xml")).getroot().find("testsuite/testcase/failure")
    assert failure is not None
    assert failure.get("message") == ("harmful: exception-diff, dom-and-render-diff; exceptions: "
                                      f"{DIFFERENCES['exceptions'][0]}; dom: {DIFFERENCES['dom'][0]} (+2 more); "
                                      f"screenshot: {DIFFERENCES['screenshot'][0]}; heap: {DIFFERENCES['heap'][0]}")
    text = failure.text or ""
    assert f"  both touch: {', '.join(LOCATIONS)}\n" in text
    assert f"  dom: {'; '.join(DIFFERENCES['dom'])}\n" in text
    [result] = json.loads(write_sarif(moved, moved / "webr4.sarif").read_text())["runs"][0]["results"]
    assert [logical["name"] for logical in result["locations"][0]["logicalLocations"]] == LOCATIONS
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("/app.js")
    assert result["properties"]["differences"] == DIFFERENCES


def test_the_report_of_the_moved_run_shows_names_items_sources_and_replay(moved: Path,
                                                                          reversal: dict[str, Any]) -> None:
    index = write_report(moved)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(playwright), args=list(CHROMIUM_ARGS))
        page = browser.new_page()
        page.goto(index.as_uri())
        row = page.locator("#reversals tbody tr").first
        assert "#log.textContent" in row.inner_text() and "and 8 more" in row.inner_text()
        assert DIFFERENCES["exceptions"][0] in row.locator("td.differences").inner_text()
        page.goto((index.parent / f"reversal-{reversal['id']}.html").as_uri())
        page.locator("details.locations summary").click()  # the locations beyond the first are folded
        assert page.locator("#locations li").all_inner_texts() == LOCATIONS
        items = [item for category in DIFFERENCES.values() for item in category]
        assert page.locator("#differences dd").all_inner_texts() == items
        assert page.locator(".source .line.hit").count() >= 2  # sources come from the session next to the run
        assert page.locator("#command").inner_text() == f"webr4 replay {moved} {reversal['id']}"
        browser.close()


def test_the_moved_run_replays_and_resumes(moved: Path, reversal: dict[str, Any]) -> None:
    async def replay_and_resume() -> tuple[Any, Any]:
        async with Driver() as driver:
            reproduction = await replay_reversal(driver, moved, reversal["id"])
            resumed = await explore(driver, Session.load(moved.parent / "session-elsewhere"), moved, resume=True)
        return reproduction, resumed

    reproduction, resumed = asyncio.run(replay_and_resume())
    assert reproduction.reproduced and reproduction.now == DIFFERENCES
    assert [r.locations for r in resumed.reversals] == [LOCATIONS]
