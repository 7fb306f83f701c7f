"""What a page reads of a response under webr4 is what plain Chromium gives it: the status and
headers the server sent, and an XHR's progress events with their lengths.

Pages compute from these: a progress bar from ``loaded / total`` of the ``progress`` and
``loadend`` events, an API console lists the response's headers. Plain Chromium driven by
Playwright is the oracle; the recording (live responses through webr4's route) and a replay
(served from the recorded HAR) must both end with its DOM.
"""

from __future__ import annotations

import gzip

import pytest
from playwright.async_api import Page

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.resources import javascript

from ..route_server import Answer, route_server

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><title>responses</title>
<script>
const show = (id, line) => { document.getElementById(id).textContent += line + '\\n'; };
const sorted = (lines) => lines.filter((line) => line && !/^date:/i.test(line)).sort().join('\\n');
function watch(path, synchronous) {
  const log = document.body.appendChild(document.createElement('pre'));
  log.id = path;
  const xhr = new XMLHttpRequest();
  for (const type of ['readystatechange', 'loadstart', 'progress', 'load', 'error', 'loadend']) {
    xhr.addEventListener(type, (e) => show(path, [type, xhr.readyState, xhr.status].concat(
      e instanceof ProgressEvent ? [e.lengthComputable, e.loaded + '/' + e.total] : []).join(' ')));
  }
  xhr.addEventListener('loadend', () => {
    show(path, sorted(xhr.getAllResponseHeaders().split('\\r\\n')));
    show(path, 'last-modified alone: ' + xhr.getResponseHeader('Last-Modified') + ', body ' + xhr.responseText);
  });
  xhr.open('GET', path, !synchronous);
  xhr.send();
}
</script>
<body><pre id=fetch></pre>
<script>
for (const path of ['/data.txt', '/data.gz', '/empty.txt']) watch(path, false);
watch('/sync.txt', true);
fetch('/data.gz').then((response) => {
  show('fetch', response.status + ' ' + response.statusText);
  show('fetch', sorted([...response.headers].map(([name, value]) => name + ': ' + value)));
  return response.text();
}).then((text) => show('fetch', 'body ' + text));
</script>"""

VALIDATORS = {
    "Cache-Control": "no-store",
    "Last-Modified": "Fri, 27 Nov 2026 06:19:32 GMT",
    "ETag": '"12-bytes"',
    "Expires": "Thu, 01 Jan 1970 00:00:00 GMT",
    "X-Served-By": "loopback",
}
DATA = b"hello world\n"


def _respond(path: str) -> Answer | None:
    """The page; a 12-byte text with validators, and without for a synchronous request; the same
    gzipped (Chromium knows no length of an encoded body); an empty one."""
    answers: dict[str, Answer] = {
        "/": ("text/html", PAGE.encode()),
        "/data.txt": ("text/plain", DATA, VALIDATORS),
        "/sync.txt": ("text/plain", DATA),
        "/data.gz": ("text/plain", gzip.compress(DATA, mtime=0), {"Content-Encoding": "gzip"}),
        "/empty.txt": ("text/plain", b""),
    }
    return answers.get(path)


def _plain_dom(driver, url: str) -> str:
    async def load(page: Page) -> str:
        await page.goto(url, wait_until="load")
        await page.wait_for_function("[...document.querySelectorAll('pre')].every((pre) => pre.textContent"
                                     ".includes('body '))")
        return await page.evaluate(javascript("capture_dom.js"))

    return driver.in_plain_chromium(load)


def test_responses_reach_the_page_as_in_chromium_recorded_and_replayed(driver):
    with route_server(_respond) as base:
        url = base + "/"
        plain = _plain_dom(driver, url)
        store = ResponseStore()
        recorded = driver.execute(url, store=store, live_network=True, capture=Capture())
    assert "last-modified: Fri, 27 Nov 2026" in plain and "content-encoding: gzip" in plain  # the oracle
    assert all(f"loadend 4 200 {lengths}" in plain for lengths in ("true 12/12", "false 12/0", "false 0/0"))
    assert recorded.dom == plain
    replayed = driver.execute(url, recorded.trace.sequence, store=store, live_network=False, capture=Capture())
    assert replayed.dom == plain
