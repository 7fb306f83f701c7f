"""The end state an execution captures is what Playwright sees of the same page in plain Chromium:
the full-page screenshot has the same pixels, what the page holds after it (its own inline
styles, which hiding the carets touches) is the same, and so is the heap, whether the browser's
own globals were asked for in this execution or known from an earlier one."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Iterator

import pytest
from PIL import Image
from playwright.async_api import Page

from webr4.browser.driver import VIEWPORT
from webr4.browser.responses import ResponseStore
from webr4.resources import javascript
from webr4.serve import serve

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
    execution = driver.execute(url, store=ResponseStore(), record=True, screenshot=True, heap=True,
                               captures={"styles": STYLES})
    assert execution.screenshot is not None
    assert pixels(execution.screenshot) == pixels(plain_shot)
    assert execution.captured["styles"] == plain_styles


def test_the_heap_is_the_page_globals_of_plain_chromium_in_every_execution(driver, pages_url):
    url = pages_url + "tall-form.html"
    heap = f"() => ({javascript('capture_heap.js')})(({javascript('window_builtins.js')})())"

    async def plain(page: Page) -> dict:
        await page.goto(url, wait_until="load")
        return await page.evaluate(heap)

    expected = driver.in_plain_chromium(plain)
    store = ResponseStore()
    first = driver.execute(url, store=store, record=True, heap=True)
    again = driver.execute(url, store=store, record=False, heap=True)
    assert set(expected) == {"form", "submitForm"}
    assert first.heap == again.heap == expected
