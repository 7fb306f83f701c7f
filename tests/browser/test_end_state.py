"""The end state an execution captures is what Playwright sees of the same page in plain Chromium:
the full-page screenshot has the same pixels, what the page holds after it (its own inline
styles, which hiding the carets touches) is the same, and so is the heap, whether the browser's
own globals were asked for in this execution or known from an earlier one, and whether or not the
page gave its arrays a ``toJSON`` (the heap is handed over as JSON when it did not). An end state that
cannot be read (a page that breaks the reading, or a reading that takes too long) fails the run
rather than passing for an empty page."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Iterator

import pytest
from PIL import Image
from playwright.async_api import Page

from webr4.browser import driver as driver_module
from webr4.browser.driver import VIEWPORT
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.resources import javascript
from webr4.serve import serve
from webr4.vocabulary import Truncation

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent / "pages" / "screenshot"
STYLES = "() => [...document.querySelectorAll('input, [contenteditable]')].map((e) => e.getAttribute('style'))"


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base


def pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.size, image.tobytes()


@pytest.mark.parametrize("name", ["tall-form.html", "framed.html"])  # taller than the viewport; a child frame
def test_a_page_with_text_fields_ends_with_the_screenshot_and_styles_of_plain_chromium(driver, pages_url, name):
    url = pages_url + name

    async def plain(page: Page) -> tuple[bytes, list]:
        await page.set_viewport_size(VIEWPORT)
        await page.goto(url, wait_until="load")
        shot = await page.screenshot(full_page=True)
        return shot, await page.evaluate(STYLES)

    plain_shot, plain_styles = driver.in_plain_chromium(plain)
    execution = driver.execute(url, store=ResponseStore(), live_network=True,
                               capture=Capture(screenshot=True, heap=True, page_scripts={"styles": STYLES}))
    assert execution.screenshot is not None
    assert pixels(execution.screenshot) == pixels(plain_shot)
    assert execution.captured["styles"] == plain_styles


@pytest.mark.parametrize(("name", "globals_"), [("tall-form.html", {"form", "submitForm"}),
                                               ("array-tojson.html", {"todos"})])
def test_the_heap_is_the_page_globals_of_plain_chromium_in_every_execution(driver, pages_url, name, globals_):
    url = pages_url + name
    heap = f"() => ({javascript('capture_heap.js')})(({javascript('window_builtins.js')})())"

    async def plain(page: Page) -> dict:
        await page.goto(url, wait_until="load")
        return await page.evaluate(heap)

    expected = driver.in_plain_chromium(plain)
    store = ResponseStore()
    first = driver.execute(url, store=store, live_network=True, capture=Capture(heap=True))
    again = driver.execute(url, store=store, live_network=False, capture=Capture(heap=True))
    assert set(expected) == globals_
    assert first.heap == again.heap == expected


UNREADABLE = Path(__file__).resolve().parent / "pages" / "unreadable"


@pytest.fixture(scope="module")
def unreadable_url() -> Iterator[str]:
    with serve(UNREADABLE) as base:
        yield base


def test_an_end_state_that_cannot_be_read_fails_the_run_instead_of_being_an_empty_page(driver, unreadable_url):
    url = unreadable_url + "hidden.html"
    # Plain Chromium shows the page as usual: it has an end state, only not one that can be walked.
    assert driver.plain(url, "document.querySelector('.todo').textContent") == "buy milk"
    execution = driver.execute(url, store=ResponseStore(), live_network=True,
                               capture=Capture(screenshot=True, heap=True))
    assert execution.trace.truncated == Truncation.CAPTURE_FAILED
    message = execution.trace.errors[-1].message
    assert message.startswith("the end state could not be read: reading the DOM failed: ")
    assert message.endswith("Error: this page keeps its attributes to itself")


def test_an_end_state_that_takes_too_long_to_read_fails_the_run(driver, unreadable_url, monkeypatch):
    monkeypatch.setattr(driver_module, "READ_TIMEOUT_S", 0.3)  # the page takes a second to read
    execution = driver.execute(unreadable_url + "slow.html", store=ResponseStore(), live_network=True,
                               capture=Capture())
    assert execution.trace.truncated == Truncation.CAPTURE_FAILED
    assert execution.trace.errors[-1].message == \
        "the end state could not be read: reading the DOM took longer than 0.3 s"
