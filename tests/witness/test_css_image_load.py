"""A key pressed after DOMContentLoaded but before the window's load, which a CSS background image
holds back, as on TodoMVC's plain-JS app.

The app binds its field's ``change`` handler in a script at the end of the body and reads the
filter its ``load`` handler sets. Only the style sheet's background image is left to arrive after
DOMContentLoaded; no event of webr4's names it. Plain Chromium is the oracle for both facts the
witness rests on: with nothing left to load, the window's ``load`` comes in the task that ends
parsing (no user step fits between the two); with the image held, a key pressed after
DOMContentLoaded comes before ``load`` and meets the unset filter. So the witness holds the image,
not the style sheet (which the script waits for: the key would come before the handler exists),
and the user acts once DOMContentLoaded has fired, as in webr4's order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from playwright.async_api import Route, async_playwright

from webr4.browser.launch import CHROMIUM_ARGS, chromium_path

from ..route_server import route_server
from .sweeping import record_and_sweep

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><title>Todos</title>
<link rel="stylesheet" href="style.css">
<input id="new-todo">
<ul id="todo-list"></ul>
<script src="app.js"></script>"""
PLAIN_PAGE = PAGE.replace('<link rel="stylesheet" href="style.css">', "")
STYLE = "body { background: #eee url('paper.svg'); }"
PAPER = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#ddd"/></svg>'
APP = """var filter; // set by the window's load, from the location's hash
var seen = [];
window.addEventListener('load', function () { filter = location.hash.slice(2) || 'all'; seen.push('load'); });
document.addEventListener('DOMContentLoaded', function () {
  var channel = new MessageChannel();
  channel.port1.onmessage = function () { seen.push('message'); };
  channel.port2.postMessage('next task');
});
document.getElementById('new-todo').addEventListener('change', function () {
  var item = document.createElement('li');
  item.textContent = this.value;
  this.value = '';
  var list = document.getElementById('todo-list');
  list.appendChild(item);
  list.className = filter.toUpperCase();
});"""
SESSION = [{"fill": "#new-todo", "value": "milk"}, {"press": "#new-todo", "key": "Enter"}]
UNSET = "Cannot read properties of undefined (reading 'toUpperCase')"


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    files = {"/": ("text/html", PAGE.encode()), "/plain.html": ("text/html", PLAIN_PAGE.encode()),
             "/style.css": ("text/css", STYLE.encode()), "/paper.svg": ("image/svg+xml", PAPER.encode()),
             "/app.js": ("text/javascript", APP.encode())}
    with route_server(lambda path: files.get(path)) as base:
        yield base + "/"


def test_plain_chromium_fires_load_with_the_end_of_parsing_unless_an_image_holds_it(app_url) -> None:
    async def go() -> tuple[list[str], list[str], list[str]]:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium_path(playwright),
                                                       args=list(CHROMIUM_ARGS))
            try:
                page = await browser.new_page()
                await page.goto(app_url + "plain.html", wait_until="load")
                await page.wait_for_function("seen.length === 2")
                nothing_pending = await page.evaluate("seen")
                page = await browser.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(error.message))
                released = asyncio.Event()

                async def hold(route: Route) -> None:
                    await released.wait()
                    await route.fallback()

                await page.route("**/paper.svg", hold)
                await page.goto(app_url, wait_until="domcontentloaded")
                await page.locator("#new-todo").fill("milk")
                await page.locator("#new-todo").press("Enter")
                before_load = await page.evaluate("seen")
                released.set()
                await page.wait_for_load_state("load")
                return nothing_pending, before_load, errors
            finally:
                await browser.close()

    nothing_pending, before_load, errors = asyncio.run(go())
    assert nothing_pending == ["load", "message"]  # a task queued at DOMContentLoaded runs after load
    assert "load" not in before_load and errors == [UNSET]


def test_the_key_before_a_load_only_a_css_image_holds_back_is_confirmed(app_url, tmp_path) -> None:
    summary = record_and_sweep(app_url, tmp_path, SESSION)
    early = [r for r in summary.harmful() if r.first == "window load" and r.second.startswith("keydown")]
    assert len(early) == 1, summary.reversals
    assert early[0].differences.get("exceptions") == [f"new Uncaught TypeError: {UNSET} at app.js:15:27"]
    assert early[0].confirmation_status == "confirmed", early[0].confirmation
