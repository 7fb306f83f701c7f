"""A message the page posts to itself, racing the user's typing, is forced through what posts it.

The page binds its field to a model only once a message it posts from an inline script after
``app.js`` has come (as Batman.js starts its app). Typed before that message, the text never
reaches the model, and Enter adds nothing: the todo is lost. A plain page shows no sign of the
message itself, but holding ``app.js`` holds back the inline script that posts it, so the typing
comes first; and once ``app.js`` has come, the message follows within a task. The first test is
the oracle: plain Chromium with ``app.js`` held until the typing is done loses the todo.
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
<input id="new-todo"><ul id="todo-list"></ul>
<script src="app.js"></script>
<script>window.postMessage("start", "*");</script>"""
APP = """var model = { title: "" };
var input = document.getElementById("new-todo");
window.addEventListener("message", function () {
  input.addEventListener("input", function () { model.title = input.value; });
});
input.addEventListener("keydown", function (event) {
  if (event.key !== "Enter" || !model.title) return;
  var item = document.createElement("li");
  item.textContent = model.title;
  document.getElementById("todo-list").appendChild(item);
  model.title = "";
  input.value = "";
});"""
SESSION = [{"fill": "#new-todo", "value": "Buy milk"}, {"press": "#new-todo", "key": "Enter"}]


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    files = {"/": ("text/html", PAGE.encode()), "/app.js": ("text/javascript", APP.encode())}
    with route_server(lambda path: files.get(path)) as base:
        yield base + "/"


def test_plain_chromium_loses_the_todo_typed_while_app_js_is_held(app_url) -> None:
    async def go() -> tuple[list[str], list[str]]:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium_path(playwright),
                                                       args=list(CHROMIUM_ARGS))
            try:
                page = await browser.new_page()
                await page.goto(app_url)
                await page.fill("#new-todo", "Buy milk")
                await page.press("#new-todo", "Enter")
                kept = await page.locator("#todo-list li").all_inner_texts()
                page = await browser.new_page()
                typed = asyncio.Event()

                async def hold(route: Route) -> None:
                    await typed.wait()
                    await route.continue_()

                await page.route("**/app.js", hold)
                await page.goto(app_url, wait_until="commit")
                await page.fill("#new-todo", "Buy milk")
                typed.set()
                await page.wait_for_load_state("load")
                await page.press("#new-todo", "Enter")
                return kept, await page.locator("#todo-list li").all_inner_texts()
            finally:
                await browser.close()

    kept, lost = asyncio.run(go())
    assert (kept, lost) == (["Buy milk"], [])


def test_typing_before_the_message_is_confirmed_by_holding_what_posts_it(app_url, tmp_path) -> None:
    summary = record_and_sweep(app_url, tmp_path, SESSION)
    early = [r for r in summary.harmful() if r.first.startswith("window message") and r.second.startswith("fill")]
    assert len(early) == 1, summary.reversals
    assert early[0].confirmation_status == "confirmed", early[0].confirmation
