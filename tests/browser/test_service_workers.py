"""Service workers: blocked by default and said so, or allowed and served from the recording.

The page registers a service worker that answers the page's own fetch of ``/data`` itself, from
a fetch of its own (``/source``). Plain Chromium driven by Playwright, with service workers
blocked or allowed as the session has them, is the oracle: under webr4 the page ends the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from playwright.async_api import Page

from ..route_server import route_server
from webr4.browser.limits import Limits
from webr4.execution import Capture
from webr4.record.session import record
from webr4.resources import javascript
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings

pytestmark = pytest.mark.browser

PAGE = b"""<!doctype html><title>service worker</title><p id=out>waiting</p><script>
const show = (text) => { document.getElementById('out').textContent = text; };
const load = () => fetch('/data').then((r) => r.text()).then(show);
navigator.serviceWorker.register('/sw.js').then((registration) => {
  if (!registration || navigator.serviceWorker.controller) load();
  else navigator.serviceWorker.addEventListener('controllerchange', load);
}, (error) => show('failed: ' + error.message));
</script>"""

WORKER = b"""self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  if (new URL(e.request.url).pathname === '/data')
    e.respondWith(fetch('/source').then((r) => r.text()).then((t) => new Response('worker says ' + t)));
});"""

FILES = {"/": ("text/html", PAGE), "/sw.js": ("text/javascript", WORKER),
         "/source": ("text/plain", b"source text"), "/data": ("text/plain", b"network data")}


def _plain_dom(driver, url: str, service_workers: Literal["allow", "block"]) -> str:
    async def load(page: Page) -> str:
        browser = page.context.browser
        assert browser is not None
        context = await browser.new_context(service_workers=service_workers)
        try:
            plain = await context.new_page()
            await plain.goto(url)
            await plain.wait_for_function("document.getElementById('out').textContent !== 'waiting'")
            return await plain.evaluate(javascript("capture_dom.js"))
        finally:
            await context.close()

    return driver.in_plain_chromium(load)


def test_a_blocked_registration_is_said_in_one_line_and_the_page_ends_as_in_chromium(driver, tmp_path: Path):
    with route_server(FILES.get) as base:
        url = base + "/"
        plain = _plain_dom(driver, url, "block")

        async def record_and_explore(d):
            session = await record(d, url, tmp_path / "session", [])
            return session, await explore(d, session, tmp_path / "run", SweepSettings(bound=1, max_sequences=1))

        session, summary = driver.run(record_and_explore)
    assert "network data" in plain
    assert session.seed_trace().service_workers == [url + "sw.js"]
    assert summary.blocked_service_workers == [url + "sw.js"]
    notice = summary.service_workers_notice
    assert notice is not None and url + "sw.js" in notice and "--allow-service-workers" in notice
    assert "\n" not in notice
    replayed = driver.execute(url, session.seed_trace().sequence, store=session.network(), live_network=False,
                              capture=Capture())
    assert replayed.dom == plain
    assert not [s for s in replayed.trace.uncontrolled if s.startswith("service worker")]


def test_an_allowed_service_worker_is_served_from_the_recording_and_listed_as_uncontrolled(driver, tmp_path: Path):
    allowed = Limits(service_workers="allow")
    with route_server(FILES.get) as base:
        url = base + "/"
        plain = _plain_dom(driver, url, "allow")
        session = driver.run(lambda d: record(d, url, tmp_path / "session", [], limits=allowed))
    # the server is gone: the worker's script and its own fetch come from the recording
    assert "worker says source text" in plain
    replayed = driver.execute(url, session.seed_trace().sequence, store=session.network(), live_network=False,
                              capture=Capture(), limits=session.run_limits)
    assert replayed.trace.sequence == session.seed_trace().sequence
    assert replayed.dom == plain
    assert "service worker sw.js" in replayed.trace.uncontrolled
    assert not [e.message for e in replayed.trace.errors if e.kind == "harness"]
