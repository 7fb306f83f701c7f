"""Script elements that want the same URL at once: Chromium asks the network once and runs each.

Plain Chromium is the oracle for what the page shows and for how many requests it makes: two
parser-blocking ``<script src="same.js">`` and two ``async`` ones inserted together both run, in
document (insertion) order, from one request. webr4 holds each async script as an event of its own;
the one response runs both, and the second's event must not wait for a request that never comes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.async_api import Page

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from ..route_server import route_server

pytestmark = pytest.mark.browser

SAME = "window.runs = (window.runs || 0) + 1; document.getElementById('log').textContent += ' run' + window.runs;"
PAGES = {
    "/parsed.html": '<!DOCTYPE html><p id="log"></p><script src="same.js"></script><script src="same.js"></script>',
    "/inserted.html": """<!DOCTYPE html><p id="log"></p><script>
for (var i = 0; i < 2; i++) {
  var script = document.createElement('script');
  script.src = 'same.js';
  script.onload = function () { document.getElementById('log').textContent += ' loaded'; };
  document.head.appendChild(script);
}
</script>""",
}


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, list[str]]]:
    requests: list[str] = []

    def respond(path: str) -> tuple[str, bytes] | None:
        requests.append(path)
        if path == "/same.js":
            return "text/javascript", SAME.encode()
        return ("text/html", PAGES[path].encode()) if path in PAGES else None

    with route_server(respond) as base:
        yield base, requests


def plain(driver, url: str) -> str:
    async def work(page: Page) -> str:
        await page.goto(url, wait_until="load")
        await page.wait_for_function("window.runs === 2")
        return await page.locator("#log").text_content() or ""

    return driver.in_plain_chromium(work)


@pytest.mark.parametrize("name, log", [("parsed.html", "run1 run2"), ("inserted.html", "run1 loaded run2 loaded")])
def test_two_scripts_of_one_url_run_from_one_request_as_in_chromium(driver, server, name, log):
    base, requests = server
    requests.clear()
    assert plain(driver, f"{base}/{name}").split() == log.split()
    assert requests.count("/same.js") == 1
    requests.clear()
    execution = driver.execute(f"{base}/{name}", store=ResponseStore(), live_network=True, capture=Capture())
    assert [e.message for e in execution.trace.errors] == []  # was: async script /same.js did not finish within 10 s
    assert log in execution.dom
    assert requests.count("/same.js") == 1
