"""The window's ``load`` with nothing left to load comes in the task that ends parsing, as in Chromium.

Two pages share one app: its ``load`` handler sets the filter its field's ``change`` handler reads,
its ``DOMContentLoaded`` handler posts a message, and every handler logs itself, marked
``INTERLEAVED`` when it runs after ``DOMContentLoaded`` and before ``load``. The first page loads
only a style sheet its script waits for; the second also shows an image, which nothing waits for.
Plain Chromium is the oracle: on the first page nothing can come between the two events, on the
second holding the image lets a message and a key come between them. webr4 must explore exactly
that: never an interleaving on the first page, and still one on the second.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import Page, Route

from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.checking import SweepOptions, explore_session
from webr4.sweep.settings import SweepSettings
from webr4.execution import Capture
from webr4.record.session import record
from webr4.rundir.runfiles import RunFiles

from ..route_server import route_server

pytestmark = pytest.mark.browser

NOTHING_PENDING = """<!DOCTYPE html><title>Todos</title>
<link rel="stylesheet" href="style.css">
<input id="new-todo">
<p id="log"></p>
<script src="app.js"></script>"""
IMAGE = NOTHING_PENDING.replace('<p id="log">', '<img src="logo.svg" alt=""><p id="log">')
STYLE = "body { font-family: sans-serif; color: #333; }"
LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'
APP = """var filter, ready = false, loaded = false;
function note(what) {
  var log = document.getElementById('log');
  log.textContent += ' ' + what + (ready && !loaded ? '-INTERLEAVED' : '');
}
window.addEventListener('load', function () { loaded = true; filter = 'all'; note('load'); });
document.addEventListener('DOMContentLoaded', function () {
  note('dcl');
  ready = true;
  var channel = new MessageChannel();
  channel.port1.onmessage = function () { note('message'); };
  channel.port2.postMessage('next task');
});
document.getElementById('new-todo').addEventListener('change', function () {
  note('change');
  document.body.className = filter.toUpperCase();
});"""
SESSION = [{"fill": "#new-todo", "value": "milk"}, {"press": "#new-todo", "key": "Enter"}]


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    files = {"/nothing.html": ("text/html", NOTHING_PENDING.encode()), "/image.html": ("text/html", IMAGE.encode()),
             "/style.css": ("text/css", STYLE.encode()), "/logo.svg": ("image/svg+xml", LOGO.encode()),
             "/app.js": ("text/javascript", APP.encode())}
    with route_server(lambda path: files.get(path)) as base:
        yield base + "/"


def plain_logs(driver, url: str) -> tuple[str, str]:
    """The log in plain Chromium when the user types once ``DOMContentLoaded`` has come, with the
    page's image (if any) held until then, and once the page has loaded."""

    async def work(page: Page) -> tuple[str, str]:
        released = asyncio.Event()

        async def hold(route: Route) -> None:
            await released.wait()
            await route.fallback()

        await page.route("**/logo.svg", hold)
        await page.goto(url, wait_until="domcontentloaded")
        await page.wait_for_function("document.getElementById('log').textContent.includes('message')")
        await page.locator("#new-todo").fill("milk")
        await page.locator("#new-todo").press("Enter")
        early = await page.locator("#log").text_content()
        released.set()
        await page.wait_for_load_state("load")
        return early or "", await page.locator("#log").text_content() or ""

    return driver.in_plain_chromium(work)


def explored_logs(url: str, out: Path) -> list[str]:
    """The end-state DOM of every sequence webr4's sweep of ``url`` with SESSION explored."""

    async def sweep() -> int:
        async with Driver() as driver:
            session = await record(driver, url, out / "session", SESSION)
            options = SweepOptions(SweepSettings(max_sequences=25), confirm="none")
            summary = await explore_session(session, out / "run", options, driver=driver)
            return summary.sequences

    sequences = asyncio.run(sweep())
    with RunFiles(out / "run") as files:
        states = [files.state(index) for index in range(sequences)]
    return [state.dom for state in states if state is not None]


def test_plain_chromium_lets_nothing_between_domcontentloaded_and_load_unless_an_image_is_left(driver, app_url):
    early, _ = plain_logs(driver, app_url + "nothing.html")
    assert early.split() == ["dcl", "load", "message", "change"]
    early, late = plain_logs(driver, app_url + "image.html")
    assert early.split() == ["dcl", "message-INTERLEAVED", "change-INTERLEAVED"]
    assert late.split() == ["dcl", "message-INTERLEAVED", "change-INTERLEAVED", "load"]


def test_webr4_runs_load_in_domcontentloadeds_step_when_nothing_is_left(driver, app_url):
    nothing = driver.execute(app_url + "nothing.html", store=ResponseStore(), live_network=True, capture=Capture())
    labels = [nothing.trace.events[e].label for e in nothing.trace.sequence]
    assert "DOMContentLoaded" in labels and "window load" not in labels
    assert "dcl load message" in nothing.dom  # Chromium's order: the message's task comes after load
    image = driver.execute(app_url + "image.html", store=ResponseStore(), live_network=True, capture=Capture())
    labels = [image.trace.events[e].label for e in image.trace.sequence]
    assert labels.index("DOMContentLoaded") < labels.index("window load")


def test_a_sweep_puts_nothing_between_the_two_unless_an_image_is_left(app_url, tmp_path):
    nothing = explored_logs(app_url + "nothing.html", tmp_path / "nothing")
    assert len(nothing) > 1 and all("dcl" in dom for dom in nothing)
    assert not [dom for dom in nothing if "INTERLEAVED" in dom]
    image = explored_logs(app_url + "image.html", tmp_path / "image")
    assert any("change-INTERLEAVED" in dom for dom in image)
