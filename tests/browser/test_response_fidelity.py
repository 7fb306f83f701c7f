"""What a page reads of a response under webr4 is what plain Chromium gives it: the status and
headers the server sent, and an XHR's progress events with their lengths.

Pages compute from these: a progress bar from ``loaded / total`` of the ``progress`` and
``loadend`` events, an API console lists the response's headers. Plain Chromium driven by
Playwright is the oracle; the recording (live responses through webr4's route) and a replay
(served from the recorded HAR) must both end with its DOM.
"""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.resources import javascript

from ..route_server import Answer, route_server

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><title>responses</title>
<pre id=xhr></pre><pre id=xhr-headers></pre><pre id=fetch></pre>
<script>
const show = (id, line) => { document.getElementById(id).textContent += line + '\\n'; };
const sorted = (lines) => lines.filter((line) => line && !/^date:/i.test(line)).sort().join('\\n');
const xhr = new XMLHttpRequest();
for (const type of ['readystatechange', 'loadstart', 'progress', 'load', 'error', 'loadend']) {
  xhr.addEventListener(type, (e) => show('xhr', [type, xhr.readyState, xhr.status].concat(
    e instanceof ProgressEvent ? [e.lengthComputable, e.loaded + '/' + e.total] : []).join(' ')));
}
xhr.addEventListener('loadend', () => {
  show('xhr-headers', sorted(xhr.getAllResponseHeaders().split('\\r\\n')));
  show('xhr-headers', 'last-modified alone: ' + xhr.getResponseHeader('Last-Modified'));
});
xhr.open('GET', '/data.txt');
xhr.send();
fetch('/data.txt').then((response) => {
  show('fetch', response.status + ' ' + response.statusText);
  show('fetch', sorted([...response.headers].map(([name, value]) => name + ': ' + value)));
});
</script>"""

DATA_HEADERS = {
    "Cache-Control": "no-store",
    "Last-Modified": "Fri, 27 Nov 2026 06:19:32 GMT",
    "ETag": '"12-bytes"',
    "Expires": "Thu, 01 Jan 1970 00:00:00 GMT",
    "X-Served-By": "loopback",
}


def _respond(path: str) -> Answer | None:
    if path == "/":
        return "text/html", PAGE.encode()
    if path == "/data.txt":
        return "text/plain", b"hello world\n", DATA_HEADERS
    return None


def _plain_dom(driver, url: str) -> str:
    async def load(page: Page) -> str:
        await page.goto(url, wait_until="load")
        await page.wait_for_function("document.getElementById('fetch').textContent.includes(':')"
                                     " && document.getElementById('xhr-headers').textContent !== ''")
        return await page.evaluate(javascript("capture_dom.js"))

    return driver.in_plain_chromium(load)


def test_responses_reach_the_page_as_in_chromium_recorded_and_replayed(driver):
    with route_server(_respond) as base:
        url = base + "/"
        plain = _plain_dom(driver, url)
        store = ResponseStore()
        recorded = driver.execute(url, store=store, record=True, capture=Capture())
    assert "loadend 4 200 true 12/12" in plain and "last-modified: Fri, 27 Nov 2026" in plain  # the oracle
    assert recorded.dom == plain
    replayed = driver.execute(url, recorded.trace.sequence, store=store, record=False, capture=Capture())
    assert replayed.dom == plain
