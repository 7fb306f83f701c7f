"""A module loader's modules may arrive in either order; reversing them must not break the app.

Two ``async`` modules register with a loader; whichever arrives last completes the set and starts
the app on a timer, which requests a template and then attaches the form's handler. Reversing
the two modules changes which event creates that timer and request, so their ids change. In
plain Chromium, holding either module back until the other has run, the app works and the
user's todo is added. webr4's reversal of the two modules must end the same way: the timer and
the request are known again by their creator-free identity, nothing planned is skipped, and the
verdict is not harmful.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from playwright.async_api import Page, Route

from webr4.browser.driver import Driver
from webr4.record.session import record
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.rundir.summary import Summary
from webr4.rundir.runfiles import RunFiles

from ..route_server import route_server

pytestmark = pytest.mark.browser

INDEX = """<!DOCTYPE html><html><head><title>Todos</title>
<script>
var registry = {};
function define(name, factory) {
  registry[name] = factory();
  if (registry.store !== undefined && registry.view !== undefined) {
    setTimeout(function () {
      var request = new XMLHttpRequest();
      request.open('GET', 'heading.txt');
      request.onload = function () { registry.view.start(registry.store, request.responseText); };
      request.send();
    }, 0);
  }
}
</script>
<script async src="store.js"></script>
<script async src="view.js"></script>
</head><body>
<h1 id="title"></h1>
<input id="new-todo" placeholder="What needs to be done?">
<ul id="todos"></ul>
</body></html>"""
STORE = "define('store', function () { return { items: [] }; });"
VIEW = """define('view', function () {
  return { start: function (store, heading) {
    document.getElementById('title').textContent = heading;
    var field = document.getElementById('new-todo');
    field.addEventListener('keydown', function (event) {
      if (event.key !== 'Enter' || !field.value) return;
      store.items.push(field.value);
      var item = document.createElement('li');
      item.textContent = field.value;
      document.getElementById('todos').appendChild(item);
      field.value = '';
    });
  } };
});"""
FILES = {"/": ("text/html", INDEX), "/store.js": ("text/javascript", STORE), "/view.js": ("text/javascript", VIEW),
         "/heading.txt": ("text/plain", "todos")}
SESSION = [{"fill": "#new-todo", "value": "milk"}, {"press": "#new-todo", "key": "Enter"}]
END = ("return [document.getElementById('title').textContent, "
       "[...document.querySelectorAll('#todos li')].map(li => li.textContent)]")


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    with route_server(lambda path: (FILES[path][0], FILES[path][1].encode()) if path in FILES else None) as base:
        yield base + "/"


async def _plain(url: str, held: str, other: str, driver: Driver) -> list:
    """The app's end in plain Chromium, with module ``held`` answered only after ``other`` has run."""
    context = await driver.browser.new_context()
    try:
        page: Page = await context.new_page()
        ran = asyncio.Event()
        page.on("requestfinished", lambda request: ran.set() if request.url.endswith(other) else None)

        async def hold(route: Route) -> None:
            await ran.wait()
            await page.wait_for_function(f"() => registry[{other.split('.')[0]!r}] !== undefined")
            await route.continue_()

        await page.route(f"**/{held}", hold)
        await page.goto(url)
        await page.wait_for_function("() => document.getElementById('title').textContent !== ''")
        await page.fill("#new-todo", "milk")
        await page.press("#new-todo", "Enter")
        return await page.evaluate(f"() => {{ {END} }}")
    finally:
        await context.close()


def test_reversing_two_modules_of_a_loader_ends_as_plain_chromium_does(app_url, tmp_path: Path) -> None:
    async def go() -> tuple[list[list], Summary]:
        async with Driver() as driver:
            plain = [await _plain(app_url, "store.js", "view.js", driver),
                     await _plain(app_url, "view.js", "store.js", driver)]
            session = await record(driver, app_url, tmp_path / "session", SESSION)
            return plain, await explore(driver, session, tmp_path, SweepSettings(bound=1, max_sequences=30))

    plain, summary = asyncio.run(go())
    assert plain == [["todos", ["milk"]], ["todos", ["milk"]]]  # either order works in Chromium
    labels = {"async script /store.js", "async script /view.js"}
    modules = [r for r in summary.reversals if {r.first, r.second} == labels]
    assert len(modules) == 1, summary.reversals
    reversal = modules[0]
    assert reversal.verdict == "harmless" and reversal.skipped == 0, reversal
    with RunFiles(tmp_path) as files:
        child = files.trace(reversal.index)
        state = files.state(reversal.index)
    assert child is not None and state is not None
    # The timer and the request that start the app were created by the other module this time.
    assert {child.events[e].type for e in child.matched.values()} >= {"setTimeout"}
    dom = BeautifulSoup(state.dom, "html.parser")
    title = dom.select_one("#title")
    assert title is not None
    assert [title.get_text(strip=True), [li.get_text(strip=True) for li in dom.select("#todos li")]] == plain[0]
    assert not [r for r in summary.reversals if r.verdict == "error"]
