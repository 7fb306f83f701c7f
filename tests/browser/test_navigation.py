"""Leaving the page is an execution's outcome: the run ends at the event that navigated, the
trace says where to and why, and the state is the page as it was when it tried to leave."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from webr4.browser.actions import parse_actions
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.rundir.summary import Summary
from webr4.record.session import record
from webr4.trace import Category

from ..route_server import route_server

pytestmark = pytest.mark.browser

PAGES = {
    # The handler that cancels the link's navigation comes from a parser-blocking script.
    "/late": ("<!DOCTYPE html><html><body><p><a id=go href='/target'>Go</a></p>"
              "<script src='/slow.js'></script><p id=after>after</p></body></html>"),
    # The same, with a script slow enough for plain Chromium to be clicked early for sure.
    "/late-long": ("<!DOCTYPE html><html><body><p><a id=go href='/target'>Go</a></p>"
                   "<script src='/slow.js?long'></script><p id=after>after</p></body></html>"),
    "/timer": ("<!DOCTYPE html><html><body><p id=x>x</p><script>"
               "setTimeout(function () { location.assign('/target?from=timer'); }, 10);"
               "setTimeout(function () { document.getElementById('x').textContent = 'late'; }, 50);"
               "</script></body></html>"),
    "/popup": ("<!DOCTYPE html><html><body><script>"
               "setTimeout(function () { window.open('/target?from=popup'); }, 10);</script></body></html>"),
    "/target": "<!DOCTYPE html><html><body><p>elsewhere</p></body></html>",
}
SLOW_JS = ("document.getElementById('go').addEventListener('click', function (e) { e.preventDefault(); "
           "document.getElementById('go').textContent = 'stayed'; });")


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    def respond(path: str) -> tuple[str, bytes] | None:
        if path.split("?")[0] == "/slow.js":
            time.sleep(3 if path.endswith("?long") else 0.5)
            return "text/javascript", SLOW_JS.encode()
        page = PAGES.get(path.split("?")[0])
        return ("text/html", page.encode()) if page else None

    with route_server(respond) as base:
        yield base


def test_a_click_before_the_late_handler_follows_the_link_in_chromium(driver, pages_url):
    async def click(page: Page, early: bool) -> str:
        await page.goto(pages_url + "/late-long", wait_until="commit" if early else "load")
        await page.wait_for_selector("#go", state="attached")  # while slow.js is on its way, when early
        await page.evaluate("document.getElementById('go').click()")
        try:
            await page.wait_for_url("**/target", timeout=10_000 if early else 2000)  # when early, it goes
        except PlaywrightTimeout:
            pass
        return urlsplit(page.url).path

    assert driver.in_plain_chromium(lambda page: click(page, early=False)) == "/late-long"  # the handler stops it
    assert driver.in_plain_chromium(lambda page: click(page, early=True)) == "/target"


def test_a_click_that_leaves_ends_the_run_with_the_page_as_it_was(driver, pages_url):
    actions = parse_actions([{"click": "#go"}])
    store = ResponseStore()
    seed = driver.execute(pages_url + "/late", actions=actions, store=store, live_network=True, capture=Capture())
    assert seed.trace.navigation is None and "stayed" in seed.dom
    head, click = seed.trace.sequence[0], actions[0].event_id
    early = driver.execute(pages_url + "/late", [head, click], actions=actions, store=store, live_network=False,
                           capture=Capture())
    assert early.trace.sequence == [head, click]
    assert (early.trace.navigation.url, early.trace.navigation.event) == (pages_url + "/target", click)
    assert early.trace.truncated is None and not early.trace.errors  # no parse chunk waited out its timeout
    assert 'id="go"' in early.dom and 'id="after"' not in early.dom  # captured before any unload


def test_a_script_navigation_stops_the_page_running_events_by_itself(driver, pages_url):
    run = driver.execute(pages_url + "/timer", store=ResponseStore(), live_network=True, capture=Capture())
    navigation = run.trace.navigation
    assert navigation is not None and navigation.url.endswith("/target?from=timer") and not navigation.window
    assert run.trace.events[navigation.event].category is Category.TIMER
    assert run.trace.sequence[-1] == navigation.event  # the 50 ms timer never ran
    lines = [line.strip() for line in run.dom.splitlines()]
    assert lines[lines.index('<p id="x">') + 1] == "x"


def test_window_open_is_leaving_too(driver, pages_url):
    run = driver.execute(pages_url + "/popup", store=ResponseStore(), live_network=True, capture=Capture())
    assert run.trace.navigation is not None and run.trace.navigation.window
    assert run.trace.navigation.target == f"new window {pages_url}/target?from=popup"


def test_a_page_that_navigates_while_recorded_is_explored(pages_url, tmp_path: Path):
    async def check() -> Summary:
        async with Driver() as d:
            session = await record(d, pages_url + "/timer", tmp_path / "session", [])
            return await explore(d, session, tmp_path / "run", SweepSettings(bound=1, max_sequences=5))
    summary = asyncio.run(check())
    assert summary.seed_events >= 2
    assert not [r for r in summary.reversals if r.verdict == "error"]
