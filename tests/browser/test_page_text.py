"""What webr4 shows of a page is the page's own text, as plain Chromium shows it: its markup in
the captured DOM, not the code webr4 served in its place."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from webr4.browser.responses import ResponseStore
from webr4.resources import javascript

from ..route_server import page_server

pytestmark = pytest.mark.browser

MARKUP = """<!doctype html><title>cart</title>
<button id=add onclick="addToCart(this.dataset.sku)" data-sku="A1">Add</button>
<p id=count>0</p>
<script>
  let items = 0;
  function addToCart(sku) { items += 1; document.getElementById('count').textContent = items + ' ' + sku; }
</script>"""


def test_the_captured_dom_holds_the_pages_own_scripts_and_handler_attributes(driver):
    with page_server(MARKUP) as url:
        async def plain(page: Page) -> str:
            await page.goto(url, wait_until="load")
            return await page.evaluate(javascript("capture_dom.js"))

        plain_dom = driver.in_plain_chromium(plain)
        execution = driver.execute(url, store=ResponseStore(), record=True)
    assert 'onclick="addToCart(this.dataset.sku)"' in plain_dom and "function addToCart(sku)" in plain_dom
    assert execution.dom == plain_dom
