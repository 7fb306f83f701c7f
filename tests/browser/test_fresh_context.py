"""Every execution starts in a context nothing has run in: what one execution's page leaves
behind (web storage, cookies, IndexedDB, Cache Storage) is not there for the next."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from playwright.async_api import Page

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.serve import serve

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent / "pages" / "fresh"

# What the page can find of an earlier visit, then what it leaves for a later one: web storage,
# a cookie, an IndexedDB database and a Cache Storage cache.
READ_THEN_WRITE = """async () => {
    const found = {
        local: Object.keys(localStorage), session: Object.keys(sessionStorage), cookie: document.cookie,
        databases: (await indexedDB.databases()).map((d) => d.name), caches: await caches.keys(),
    };
    localStorage.setItem("left", "1");
    sessionStorage.setItem("left", "1");
    document.cookie = "left=1; max-age=3600";
    await new Promise((done, fail) => {
        const open = indexedDB.open("left");
        open.onsuccess = done;
        open.onerror = fail;
    });
    await (await caches.open("left")).put("/left", new Response("1"));
    return found;
}"""
NOTHING = {"local": [], "session": [], "cookie": "", "databases": [], "caches": []}


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base + "index.html"


def test_an_execution_finds_nothing_the_one_before_it_left(driver, page_url):
    store = ResponseStore()
    first = driver.execute(page_url, store=store, live_network=True,
                           capture=Capture(page_scripts={"found": READ_THEN_WRITE}))
    second = driver.execute(page_url, store=store, live_network=False,
                            capture=Capture(page_scripts={"found": READ_THEN_WRITE}))
    assert first.captured["found"] == NOTHING
    assert second.captured["found"] == NOTHING


def test_the_capture_finds_what_the_same_page_left(driver, page_url):
    async def twice(page: Page) -> dict:
        await page.goto(page_url)
        await page.evaluate(READ_THEN_WRITE)
        await page.reload()
        return await page.evaluate(READ_THEN_WRITE)

    found = driver.in_plain_chromium(twice)
    assert found == {"local": ["left"], "session": ["left"], "cookie": "left=1", "databases": ["left"],
                     "caches": ["left"]}


def test_an_execution_finds_nothing_the_one_running_while_its_page_was_made_left(driver, page_url):
    """The page of the third execution is made while the second one runs and writes: it still
    finds nothing."""
    store = ResponseStore()
    driver.execute(page_url, store=store, live_network=True, capture=Capture())
    runs = [driver.execute(page_url, store=store, live_network=False,
                           capture=Capture(page_scripts={"found": READ_THEN_WRITE}))
            for _ in range(2)]
    assert [run.captured["found"] for run in runs] == [NOTHING, NOTHING]
