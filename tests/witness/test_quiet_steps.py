"""A step after the forced pair runs on a page that has taken in what was released, as webr4 runs
a step only on a quiet page.

The app is a small module loader's: its template arrives by XHR (a text plugin's), then its
modules load one after another, each asking for the next once it has run, and the last one
listens for Enter. The racing pair is the template's response and the first Enter. Pressed
while the template is held, the first todo is lost; the second, typed once the page is quiet,
is kept. Acting on the next step as soon as the template's response is released (while the
loader is still fetching modules) loses that todo too, a difference no browser run of webr4's
orders shows.
"""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from playwright.async_api import Route, async_playwright

from webr4.browser.launch import launch
from webr4.witness.plain import RESPONSE, STEP, VIEWPORT, request_key
from webr4.witness.run import run_plain
from webr4.witness.schedule import Hold, PlainSchedule, Sign, StepTiming

pytestmark = pytest.mark.browser

BASE = "http://loader.test/"
MODULES = 12
PAGE = """<!DOCTYPE html><title>Todos</title>
<input id="new-todo"><ul id="todo-list"></ul>
<script src="loader.js"></script>"""
LOADER = """window.load = function (n) {
  var script = document.createElement('script');
  script.async = true;
  script.src = 'm' + n + '.js';
  document.head.appendChild(script);
};
var xhr = new XMLHttpRequest();
xhr.open('GET', 'todo.html');
xhr.onload = function () { window.template = xhr.responseText; load(0); };
xhr.send();"""
LAST = """document.getElementById('new-todo').addEventListener('keydown', function (event) {
  if (event.key !== 'Enter' || !this.value) return;
  var item = document.createElement('li');
  item.innerHTML = template;
  item.querySelector('label').textContent = this.value;
  document.getElementById('todo-list').appendChild(item);
  this.value = '';
});"""
FILES = {"": ("text/html", PAGE), "loader.js": ("text/javascript", LOADER),
         "todo.html": ("text/html", "<input class='toggle' type='checkbox'><label></label>"),
         **{f"m{n}.js": ("text/javascript", f"load({n + 1});") for n in range(MODULES - 1)},
         f"m{MODULES - 1}.js": ("text/javascript", LAST)}
STEPS = ({"fill": "#new-todo", "value": "milk"}, {"press": "#new-todo", "key": "Enter"},
         {"fill": "#new-todo", "value": "dog"}, {"press": "#new-todo", "key": "Enter"})
TEMPLATE = request_key(BASE + "todo.html")
TODOS = "[...document.querySelectorAll('#todo-list label')].map(label => label.textContent)"


def _har(path: Path) -> Path:
    """Every file of the app, as a recording keeps it."""
    def entry(name: str, kind: str, text: str) -> dict[str, Any]:
        return {"startedDateTime": "1970-01-01T00:00:00.000Z", "time": 0, "cache": {}, "timings": {},
                "request": {"method": "GET", "url": BASE + name, "httpVersion": "HTTP/1.1", "headers": [],
                            "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
                "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                             "headers": [{"name": "content-type", "value": kind}], "redirectURL": "",
                             "headersSize": -1, "bodySize": len(text),
                             "content": {"size": len(text), "mimeType": kind, "encoding": "base64",
                                         "text": base64.b64encode(text.encode()).decode()}}}

    entries = [entry(name, kind, text) for name, (kind, text) in FILES.items()]
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},
                                        "entries": entries}}))
    return path


PARENT = PlainSchedule(BASE, STEPS, "the template's response before Enter",
                       timings=(StepTiming(1, Sign(RESPONSE, TEMPLATE)),),
                       pair=(Sign(RESPONSE, TEMPLATE), Sign(STEP, "1")))
REVERSED = PlainSchedule(BASE, STEPS, "Enter before the template's response",
                         holds=(Hold(TEMPLATE, Sign(STEP, "1")),),
                         timings=(StepTiming(0, None), StepTiming(1, None)),
                         pair=(Sign(STEP, "1"), Sign(RESPONSE, TEMPLATE)))


async def _todos(schedule: PlainSchedule, har: Path) -> list[str]:
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            run = await run_plain(browser, schedule, har)
        finally:
            await browser.close()
    assert run.forced, run.problem
    labels = BeautifulSoup(run.state.dom, "html.parser").select("#todo-list label")
    return [label.get_text(strip=True) for label in labels]


async def _by_hand(har: Path) -> list[str]:
    """Plain Playwright, no webr4: Enter while the template is held, the rest once the app listens."""
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            context = await browser.new_context(viewport=VIEWPORT)
            await context.route_from_har(har, not_found="abort")
            page = await context.new_page()
            released = asyncio.Event()

            async def hold(route: Route) -> None:
                await released.wait()
                await route.fallback()

            await page.route("**/todo.html", hold)
            await page.goto(BASE, wait_until="commit")
            await page.fill("#new-todo", "milk")
            await page.press("#new-todo", "Enter")
            released.set()
            await page.wait_for_load_state("networkidle")  # the loader has fetched every module
            await page.fill("#new-todo", "dog")
            await page.press("#new-todo", "Enter")
            return list(await page.evaluate(TODOS))
        finally:
            await browser.close()


def test_steps_after_the_pair_wait_for_the_loader_in_both_orders(tmp_path) -> None:
    har = _har(tmp_path / "app.har")
    assert asyncio.run(_todos(PARENT, har)) == ["milk", "dog"]
    assert asyncio.run(_todos(REVERSED, har)) == ["dog"] == asyncio.run(_by_hand(har))
