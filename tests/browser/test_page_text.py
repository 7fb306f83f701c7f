"""What webr4 shows of a page is the page's own text, as plain Chromium shows it: its markup in
the captured DOM, not the code webr4 served in its place."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.instrument.thrown import page_error
from webr4.resources import javascript

from ..route_server import page_server, route_server

pytestmark = pytest.mark.browser

MARKUP = """<!doctype html><title>cart</title>
<button id=add onclick="addToCart(this.dataset.sku)" data-sku="A1">Add</button>
<p id=count>0</p>
<script>
  let items = 0;
  function addToCart(sku) { items += 1; document.getElementById('count').textContent = items + ' ' + sku; }
</script>"""


def test_the_captured_dom_holds_the_pages_own_scripts_and_handler_attributes(driver):
    with page_server(MARKUP) as url:
        async def plain(page: Page) -> str:
            await page.goto(url, wait_until="load")
            return await page.evaluate(javascript("capture_dom.js"))

        plain_dom = driver.in_plain_chromium(plain)
        execution = driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
    assert 'onclick="addToCart(this.dataset.sku)"' in plain_dom and "function addToCart(sku)" in plain_dom
    assert execution.dom == plain_dom


DOCUMENT = """<!doctype html><script src="/app.js"></script><script>
setTimeout(() => { window.loaded(); }, 0);
</script>"""

APP = """var app = { config: { start: 1 }, make() { return {}; } };
var Widget = 3;
setTimeout(() => { app.config.start(); }, 5);
setTimeout(() => { new Widget(); }, 6);
setTimeout(() => { app.make().render(); }, 7);
setTimeout(() => { app['config'].stop(); }, 8);
Promise.resolve().then(() => { app.config.start(1); });
setTimeout(() => { Promise.reject(new RangeError('too ' + 'far')); }, 9);
"""

THROWN_BY_APP = 7
"""The uncaught exceptions and rejections of DOCUMENT with APP: four timers', two rejections and
the document's own call."""

CALLEES = ["window.loaded()", "o.a.b()", "o['x']()", "o[k]()", "o[0]()", "o.f(1).g()", "this.nope()",
           "o?.nope()", "(o.a)()", "new o.a()", "new Widget()", "`t`.nope()", "o.a.b.c.d()", "new (o.f())()",
           "o[k.j]()", "o[true]()", "(() => 1).nope()", "o.f().nope()"]


THROWN = ["o.x.y;", "o.x.push(1);", "o.x['y'];", "o.x[k];", "var q = o.x.y + 1;", "o.x.y = 1;", "o.n.value = 1;",
          "o.x[k] = 1;", "o.x.y += 1;", "o.x.y++;", "f(o.x.y);", "new App();", "let {a} = o.x;", "o.f(1).g();",
          "[...o.a];", "for (const x of o.a) {}", "f(...o.a);",
          "document.getElementById('nope').addEventListener('click', f);", "localStorage.getItem('x').length;"]


def _served(files: dict[str, str]):
    """Serve ``files`` (path → text) on loopback: scripts by their ``.js``, the rest as HTML."""

    def respond(path: str) -> tuple[str, bytes] | None:
        if path not in files:
            return None
        return ("text/javascript" if path.endswith(".js") else "text/html"), files[path].encode()

    return route_server(respond)


def _chromium_exceptions(driver, url: str) -> list[tuple[str, str]]:
    """Uncaught exceptions as Chromium's console prints them ("Uncaught TypeError: …", "Uncaught
    (in promise) …") with where they were thrown (url:line:col, 1-based), from the DevTools
    protocol of a plain page."""

    async def load(page: Page) -> list[tuple[str, str]]:
        thrown: list[tuple[str, str]] = []
        cdp = await page.context.new_cdp_session(page)

        def note(event: dict) -> None:
            details = event["exceptionDetails"]
            head = details["exception"]["description"].splitlines()[0]
            thrown.append((f"{details['text']} {head}",
                           f"{details['url']}:{details['lineNumber'] + 1}:{details['columnNumber'] + 1}"))

        cdp.on("Runtime.exceptionThrown", note)
        await cdp.send("Runtime.enable")
        await page.goto(url, wait_until="load")
        for _ in range(200):  # until the last of the page's timers has thrown, 10 s at most
            if len(thrown) >= THROWN_BY_APP:
                break
            await page.wait_for_timeout(50)
        return thrown

    return driver.in_plain_chromium(load)


def _webr4_exceptions(driver, url: str) -> list[tuple[str, str | None]]:
    execution = driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
    return [(e.message, e.site) for e in execution.trace.errors if e.kind in ("exception", "unhandledrejection")]


def test_exceptions_carry_chromiums_message_type_and_site_for_the_pages_own_code(driver):
    with _served({"/": DOCUMENT, "/app.js": APP}) as base:
        plain = _chromium_exceptions(driver, base + "/")
        webr4 = _webr4_exceptions(driver, base + "/")
    assert ("Uncaught TypeError: window.loaded is not a function", base + "/:2:27") in plain
    assert len(plain) == THROWN_BY_APP
    assert sorted(webr4) == sorted(plain)



def test_callees_are_named_as_chromium_names_them(driver):
    """For each callee form, Chromium's message for the page's code and where V8 points, and
    what webr4 makes of a message naming served code at that place."""
    scripts = "".join(f"<script>\n{form}\n</script>" for form in CALLEES)
    html = ("<!doctype html><script>var o = {a: {b: {c: {}}}, f: () => ({g: 1})}, k = 'z', Widget = 3; var thrown = [];"
            "addEventListener('error', (e) => thrown.push([e.message, e.colno]));</script>" + scripts)
    with page_server(html) as url:
        thrown = driver.plain(url, "thrown", settle_ms=0)
    assert len(thrown) == len(CALLEES)
    for form, (message, column) in zip(CALLEES, thrown):
        head, ending, tail = message.partition(" is not ")
        served = f"Uncaught TypeError: __webr4.log.m(...).x{ending}{tail}"
        assert page_error(served, form, column - 1) == (message, column - 1), form


def test_failed_reads_writes_and_destructuring_are_reported_where_and_as_chromium_reports_them(driver):
    """The place and words of each failure in Chromium (the window's error event) and in webr4's
    trace, one inline script per form."""
    html = ("<!doctype html><script>var o = {n: null, f: () => ({})}, k = 'z', f = () => 1, thrown = [];"
            "addEventListener('error', (e) => thrown.push([e.message, e.lineno, e.colno]));</script>"
            + "".join(f"<script>\n{form}\n</script>" for form in THROWN))
    with page_server(html) as url:
        plain = [(message, f"{url}:{line}:{column}") for message, line, column in driver.plain(url, "thrown", 0)]
        execution = driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
    webr4 = [(e.message, e.site) for e in execution.trace.errors if e.kind == "exception"]
    assert len(plain) == len(THROWN)
    assert webr4 == plain
