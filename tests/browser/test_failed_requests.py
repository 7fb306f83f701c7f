"""A request that fails is an outcome of the page, never the end of a recording.

A loopback server answers some requests by failing them the ways real hosts do (a connection
reset, a connection closed before any response, an HTTP error); a port nothing listens on and a
host name that does not resolve fail the others. Plain Chromium driven by Playwright is the
oracle: under webr4, recorded and replayed, the page ends as it does there, and the HAR names
each failure as Chromium does.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.async_api import Page, Request

from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.record.session import record
from webr4.resources import javascript
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings

pytestmark = pytest.mark.browser

UNRESOLVABLE = "http://nowhere.invalid/logo.png"

OUTCOMES = """<!doctype html><title>failures</title>
<ul><li id=image></li><li id=refused></li><li id=reset></li><li id=closed></li><li id=api></li>
<li id=script></li><li id=aborted></li><li id=timeout></li></ul>
<iframe src="http://nowhere.invalid/embed"></iframe>
<script src="/app.js"></script>"""

APP = """
const show = (id, text) => { document.getElementById(id).textContent += text + ';'; };
const image = new Image();
image.onload = () => show('image', 'load');
image.onerror = (e) => show('image', e.type + ' ' + image.complete);
image.src = '%(unresolvable)s';
document.body.appendChild(image);
fetch('http://127.0.0.1:%(dead)d/track').then((r) => show('refused', 'status ' + r.status),
                                            (e) => show('refused', e.name + ': ' + e.message));
const xhr = new XMLHttpRequest();
xhr.open('GET', '/reset');
for (const type of ['load', 'error', 'abort', 'timeout', 'loadend'])
  xhr.addEventListener(type, () => show('reset', type + ' ' + xhr.readyState + ' ' + xhr.status));
xhr.send();
fetch('/closed').then((r) => show('closed', 'status ' + r.status), (e) => show('closed', e.message));
fetch('/api').then((r) => r.text().then((t) => show('api', r.status + ' ' + r.ok + ' ' + t)));
const script = document.createElement('script');
script.onload = () => show('script', 'load');
script.onerror = () => show('script', 'error');
script.src = '/broken.js';
document.head.appendChild(script);
const control = new AbortController();
fetch('/slow', { signal: control.signal }).then(() => show('aborted', 'resolved'),
                                              (e) => show('aborted', e.name));
control.abort();
const late = new XMLHttpRequest();
late.open('GET', '/late');
late.timeout = 200;
for (const type of ['load', 'error', 'abort', 'timeout'])
  late.addEventListener(type, () => show('timeout', type + ' ' + late.status));
late.send();
"""

RACE = """<!doctype html><title>offline badge</title><p id=status>loading</p>
<script>
const status = document.getElementById('status');
const logo = new Image();
logo.onerror = () => { status.textContent = 'offline'; };
logo.src = '%(unresolvable)s';
setTimeout(() => { status.textContent = 'ready'; }, 0);
</script>"""


LATE_S = 3.0
"""How late ``/late`` answers: far beyond its XHR's 200 ms timeout, however late a busy machine
fires that."""


def _dead_port() -> int:
    """A loopback port nothing listens on: connecting to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def failing_server(pages: dict[str, str]) -> Iterator[str]:
    """Serve ``pages`` (path → HTML or script) on loopback; ``/reset`` resets the connection,
    ``/closed`` closes it before any response, ``/api`` answers 503, ``/broken.js`` 500 and
    ``/late`` after :data:`LATE_S`. Yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            if self.path == "/late":
                time.sleep(LATE_S)
            if self.path in ("/reset", "/closed"):
                if self.path == "/reset":  # linger 0: close sends RST
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
                self.connection.close()
                return
            status, kind, body = {
                "/api": (503, "application/json", '{"error": "maintenance"}'),
                "/broken.js": (500, "text/plain", "internal error"),
            }.get(self.path, (200, "text/javascript" if self.path.endswith(".js") else "text/html",
                              pages.get(self.path, "")))
            payload = body.encode()
            self.send_response(status if self.path in pages or status != 200 else 404)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            try:
                self.wfile.write(payload)
            except ConnectionError:  # the page aborted the request
                pass

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@pytest.fixture(scope="module")
def outcomes_url() -> Iterator[str]:
    app = APP % {"unresolvable": UNRESOLVABLE, "dead": _dead_port()}
    with failing_server({"/": OUTCOMES, "/app.js": app}) as base:
        yield base + "/"


def _plain(driver, url: str) -> tuple[str, dict[str, str]]:
    """The page's DOM in plain Chromium once it has settled, and the failure Chromium reported
    for each request that got no response."""

    async def load(page: Page) -> tuple[str, dict[str, str]]:
        failures: dict[str, str] = {}

        def failed(request: Request) -> None:
            failures.setdefault(request.url, request.failure or "")

        page.on("requestfailed", failed)
        await page.goto(url, wait_until="load")
        await page.wait_for_function("[...document.querySelectorAll('li')].every((item) => item.textContent)")
        await page.wait_for_timeout(500)  # for the frame's failure, which the page does not show
        return await page.evaluate(javascript("capture_dom.js")), failures

    return driver.in_plain_chromium(load)


def test_failed_requests_reach_the_page_as_in_chromium_and_replay_alike(driver, outcomes_url):
    plain_dom, plain_failures = _plain(driver, outcomes_url)
    store = ResponseStore()
    recorded = driver.execute(outcomes_url, store=store, live_network=True, capture=Capture())
    assert not [e.message for e in recorded.trace.errors if e.kind == "harness"]
    assert recorded.dom == plain_dom
    assert "error 4 0;loadend 4 0;" in plain_dom and "TypeError: Failed to fetch" in plain_dom  # failures seen
    assert "timeout 0;" in plain_dom
    recorded_failures = dict(f.split(" ", 1)[1].rsplit(": ", 1) for f in store.failures())
    # Chromium reports ERR_ABORTED for a script it fetched with an HTTP error and did not run
    # A fetch the page aborts at once may be given up before it reaches the network at all (in
    # either browser, by timing): such an abort need not be in the recording.
    assert {u: f for u, f in recorded_failures.items() if not f.startswith("HTTP")} == {
        u: f for u, f in plain_failures.items() if not recorded_failures.get(u, "").startswith("HTTP")
        and (u in recorded_failures or f != "net::ERR_ABORTED")}
    replayed = driver.execute(outcomes_url, recorded.trace.sequence, store=store, live_network=False, capture=Capture())
    assert replayed.trace.sequence == recorded.trace.sequence
    assert replayed.dom == plain_dom
    # By the same timing, the replay's aborted fetch may reach the network when the recording's
    # did not: webr4 notes that it was not recorded, and the page, having aborted it, sees nothing.
    unrecorded_abort = f"GET {outcomes_url}slow is not in the recorded session"
    assert not [e.message for e in replayed.trace.errors
                if e.kind == "harness" and not e.message.startswith(unrecorded_abort)]


def test_a_failed_request_is_recorded_listed_and_races_like_any_event(tmp_path):
    with failing_server({"/": RACE % {"unresolvable": UNRESOLVABLE}}) as base:
        async def record_and_explore():
            async with Driver() as driver:
                session = await record(driver, base + "/", tmp_path / "session", [])
                return session, await explore(driver, session, tmp_path / "run",
                                              SweepSettings(bound=1, max_sequences=4))

        session, summary = asyncio.run(record_and_explore())
    assert summary.failed_requests == [f"GET {UNRESOLVABLE}: net::ERR_NAME_NOT_RESOLVED"]
    verdicts = {frozenset(label.split(" at ")[0] for label in (r.first, r.second)): r.verdict
                for r in summary.reversals}
    assert verdicts.get(frozenset(("setTimeout 0ms", f"error of img {UNRESOLVABLE}"))) == "harmful", verdicts
