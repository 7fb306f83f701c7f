"""The page an execution runs in is made ahead, while the execution before it runs
(:mod:`webr4.browser.contexts`): what that relies on in plain Chromium, and what the driver
keeps of the contract that every execution starts in a context nothing has run in."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from playwright.async_api import Page, Route, async_playwright

from webr4.browser.contexts import ContextSetup, ContextSupply
from webr4.browser.launch import launch
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.serve import serve

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent / "pages" / "warm"
ROUTED = ('<!doctype html><p id="origin">served by the route</p>'
          '<script>document.getElementById("origin").dataset.init = String(window.initRanAt || "")</script>')
SEEN = "() => [document.getElementById('origin').textContent, document.getElementById('origin').dataset.init]"


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base + "index.html"


def test_a_page_made_before_its_handler_is_known_runs_the_init_script_and_is_served(page_url):
    """Plain Chromium: in a context whose init script and route were added before its page was
    made, and whose route handler is chosen only once the page exists (at ``about:blank``), the
    page's first navigation is served by that handler, and the init script runs in the document
    it navigates to before the document's own scripts."""
    async def check() -> tuple[list[str], list[str]]:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            try:
                context = await browser.new_context()
                await context.add_init_script("window.initRanAt = location.href;")
                handlers: list[Callable[[Route], Awaitable[None]]] = []
                await context.route("**/*", lambda route: handlers[0](route))
                page = await context.new_page()
                routed: list[str] = []

                async def fulfil(route: Route) -> None:
                    routed.append(route.request.url)
                    await route.fulfill(status=200, content_type="text/html", body=ROUTED)
                handlers.append(fulfil)
                await page.goto(page_url)
                return routed, await page.evaluate(SEEN)
            finally:
                await browser.close()

    routed, seen = asyncio.run(check())
    assert routed == [page_url]
    assert seen == ["served by the route", page_url]


RANDOM = {"random": "() => [Math.random(), Math.random()]"}


def test_each_execution_gets_the_runtime_of_its_own_configuration(driver, page_url):
    """The page made ahead is made for the configuration of the execution before; one of another
    seed gets a page of its own seed."""
    store = ResponseStore()
    first = driver.execute(page_url, store=store, live_network=True, seed=1,
                           capture=Capture(page_scripts=RANDOM)).captured["random"]
    other = driver.execute(page_url, store=store, live_network=False, seed=2,
                           capture=Capture(page_scripts=RANDOM)).captured["random"]
    again = driver.execute(page_url, store=store, live_network=False, seed=1,
                           capture=Capture(page_scripts=RANDOM)).captured["random"]
    assert first == again
    assert other != first


def test_a_page_made_ahead_that_went_away_is_made_again(driver, page_url):
    """When the page made ahead is closed behind the driver's back, the next execution runs in
    one made on the spot."""
    store = ResponseStore()
    driver.execute(page_url, store=store, live_network=True, capture=Capture())

    async def close_the_others(page: Page) -> int:
        browser = page.context.browser
        assert browser is not None
        others = [context for context in browser.contexts if context is not page.context]
        for context in others:
            await context.close()
        return len(others)

    assert driver.in_plain_chromium(close_the_others) == 1  # the page made ahead
    run = driver.execute(page_url, store=store, live_network=False, capture=Capture())
    assert "served by the file server" in run.dom


def test_closing_the_supply_while_it_makes_a_page_leaves_nothing_behind():
    async def run() -> tuple[int, bool, int]:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            try:
                before = asyncio.all_tasks()
                supply = ContextSupply(browser)
                supply.prepare(ContextSetup("window.prepared = true;"))
                making = asyncio.all_tasks() - before
                await supply.close()
                return len(making), all(task.done() for task in making), len(browser.contexts)
            finally:
                await browser.close()

    making, ended, contexts = asyncio.run(run())
    assert making == 1
    assert ended
    assert contexts == 0
