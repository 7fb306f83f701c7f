"""A page's Content Security Policy and mixed-content blocks apply under webr4 as in Chromium.

One page set, with a policy in its response header and another in a ``<meta http-equiv>`` tag,
allows scripts by nonce, by hash, by host and a handler attribute by ``'unsafe-hashes'``, and
blocks a script of another host, an inline script whose hash it does not list, a handler
attribute, an image, a ``fetch`` and an XHR (``connect-src``), ``eval``, ``new Function`` and a
string timer. Served from an
``https:`` origin through the recorded network, its ``http:`` fetch and image are mixed content
too. Plain Chromium driven by Playwright is the oracle: recorded and replayed under webr4, the
page sees the same violations and errors in the same order and ends with the same DOM, while
the scripts the policy allows run as events under webr4's control.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator

import pytest
from playwright.async_api import Page, Route

from tests.route_server import route_server
from webr4.browser.responses import ResponseStore, StoredResponse
from webr4.execution import Capture
from webr4.resources import javascript

pytestmark = pytest.mark.browser

NONCE = "n0nce"
HASHED = "seen.push('inline allowed by hash')"
HANDLER = "seen.push('handler allowed by hash')"
HEAD = """<!doctype html><html><head><title>policies</title>
<meta http-equiv="Content-Security-Policy"
      content="img-src 'self'; script-src-elem 'self' 'nonce-%(nonce)s' %(hashed)s">
<script nonce="%(nonce)s">
window.seen = [];  // what the page saw, in order
window.done = [];  // what came from the network or a timer: in an order no policy decides
document.addEventListener('securitypolicyviolation',
  (e) => seen.push(['violation', e.effectiveDirective, e.blockedURI, e.disposition].join(' ')));
document.addEventListener('error', (e) => seen.push('error ' + e.target.localName), true);
addEventListener('load', () => setTimeout(() => {
  document.getElementById('log').textContent = seen.join(' | ');
  document.getElementById('done').textContent = done.sort().join(' | ');
}, 300));
</script></head>"""
BODY = """<body><pre id=log></pre><pre id=done></pre><button id=go onclick="%(handler)s">go</button>
<script>%(hashed)s</script>
<script>seen.push('inline not listed')</script>
<script src="/allowed.js"></script>
<script src="/async.js" async></script>
<script src="http://cdn.invalid/lib.js"></script>
<img src="/pixel.png" onload="seen.push('image loaded')">
<img src="http://cdn.invalid/pixel.png">
<script nonce="%(nonce)s" src="/app.js" defer></script>
</body></html>"""
ALLOWED = "seen.push('script allowed by host');"
ASYNC = "done.push('async script allowed by host');"
APP = """
const outcome = (list, what, promise) => promise.then((r) => list.push(what + ' ' + r.status),
                                                      (e) => list.push(what + ' ' + e.name));
outcome(done, 'fetch allowed', fetch('/api'));
outcome(seen, 'fetch other host', fetch('http://elsewhere.invalid/api'));
outcome(done, 'fetch http', fetch('http://cdn.invalid/data.json'));
try { eval('1'); seen.push('eval ran'); } catch (e) { seen.push('eval ' + e.name); }
try { new Function('return 1')(); seen.push('Function ran'); } catch (e) { seen.push('Function ' + e.name); }
seen.push('string timer ' + setTimeout("seen.push('string timer ran')", 0));
setTimeout(() => done.push('timer ran'), 0);
document.getElementById('go').click();
const xhr = new XMLHttpRequest();
xhr.open('GET', 'http://elsewhere.invalid/xhr');
for (const type of ['error', 'loadend']) xhr.addEventListener(type, () => seen.push(`xhr ${type} ${xhr.status}`));
xhr.send();
"""
PIXEL = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")


def _hash(code: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()}'"


HEADER_POLICY = (f"default-src 'self'; script-src 'self' 'nonce-{NONCE}' {_hash(HASHED)} 'unsafe-hashes' "
                 f"{_hash(HANDLER)}; img-src 'self' http://cdn.invalid; connect-src 'self' http://cdn.invalid")


def _pages() -> dict[str, tuple[str, bytes, dict[str, str]]]:
    """Path → (content type, body, more headers) of the page set."""
    fill = {"nonce": NONCE, "hashed": HASHED, "handler": HANDLER}
    html = (HEAD % {"nonce": NONCE, "hashed": _hash(HASHED)} + BODY % fill).encode()
    return {
        "/": ("text/html", html, {"Content-Security-Policy": HEADER_POLICY}),
        "/allowed.js": ("text/javascript", ALLOWED.encode(), {}),
        "/async.js": ("text/javascript", ASYNC.encode(), {}),
        "/app.js": ("text/javascript", APP.encode(), {}),
        "/pixel.png": ("image/gif", PIXEL, {}),
        "/api": ("application/json", b"{}", {}),
    }


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    pages = _pages()
    with route_server(pages.get) as base:
        yield base + "/"


def _plain(driver, url: str, store: ResponseStore | None = None) -> str:
    """The page's DOM in plain Chromium, its network the live one or, given ``store``, served
    from it as webr4 replays it (a request not in it fails as a host that does not resolve)."""

    async def load(page: Page) -> str:
        if store is not None:
            await page.route("**/*", lambda route: _from_store(route, store))
        await page.goto(url, wait_until="load")
        while not await page.evaluate("document.getElementById('log').textContent"):  # evaluated over CDP:
            await page.wait_for_timeout(50)  # unlike wait_for_function's, not refused by the policy
        return await page.evaluate(javascript("capture_dom.js"))

    return driver.in_plain_chromium(load)


async def _from_store(route: Route, store: ResponseStore) -> None:
    request = route.request
    response = store.lookup(request.method, request.url, request.post_data_buffer)
    if response is None or response.error is not None:
        await route.abort("namenotresolved")
    else:
        await route.fulfill(status=response.status, headers=response.headers, body=response.body)


def _seen(dom: str, list_id: str = "log") -> list[str]:
    """What the page listed in the ``<pre>`` of ``list_id``, in the page's captured ``dom``."""
    return dom.split(f'<pre id="{list_id}">')[1].split("</pre>")[0].strip().split(" | ")


def test_policies_block_under_webr4_what_they_block_in_chromium(driver, site):
    plain = _plain(driver, site)
    seen = " | ".join(_seen(plain))
    for expected in ("inline allowed by hash", "script allowed by host", "handler allowed by hash",
                     "violation script-src-elem inline enforce", "violation script-src-elem http://cdn.invalid/lib.js",
                     "violation img-src http://cdn.invalid/pixel.png", "fetch other host TypeError",
                     "violation connect-src http://elsewhere.invalid/api", "eval EvalError", "Function EvalError",
                     "string timer 0", "violation connect-src http://elsewhere.invalid/xhr enforce | xhr error 0"):
        assert expected in seen, (expected, seen)
    assert _seen(plain, "done") == ["async script allowed by host", "fetch allowed 200", "fetch http TypeError",
                                    "timer ran"]
    assert "inline not listed" not in seen and "string timer ran" not in seen

    store = ResponseStore()
    recorded = driver.execute(site, store=store, live_network=True, capture=Capture())
    assert not [e.message for e in recorded.trace.errors if e.kind == "harness"]
    assert recorded.dom == plain
    labels = [recorded.trace.events[event].label for event in recorded.trace.sequence]
    assert any("/async.js" in label for label in labels) and any("/app.js" in label for label in labels), labels
    assert any(label.startswith("setTimeout 0ms") for label in labels), labels
    outside_control = {"securitypolicyviolation img-src http://cdn.invalid/pixel.png",
                       "error of img http://cdn.invalid/pixel.png, refused by the page's policy"}
    assert outside_control <= set(recorded.trace.uncontrolled), recorded.trace.uncontrolled
    # Playwright reports no request for a fetch the policy refused
    assert {failure for failure in store.failures() if "blocked" in failure} == {
        "GET http://cdn.invalid/lib.js: blocked:csp", "GET http://cdn.invalid/pixel.png: blocked:csp",
        "GET http://elsewhere.invalid/xhr: blocked:csp"}

    replayed = driver.execute(site, recorded.trace.sequence, store=store, live_network=False, capture=Capture())
    assert replayed.trace.sequence == recorded.trace.sequence, (
        labels, [replayed.trace.events[event].label for event in replayed.trace.sequence])
    assert replayed.dom == plain


def test_mixed_content_is_blocked_under_webr4_as_in_chromium(driver):
    url = "https://app.test/"
    store = ResponseStore()
    for path, (kind, body, more) in _pages().items():
        store.add("GET", url.rstrip("/") + path, None,
                  StoredResponse(200, {"content-type": kind} | {k.lower(): v for k, v in more.items()}, body))
    plain = _plain(driver, url, store)
    assert "fetch http TypeError" in _seen(plain, "done")
    seed = driver.execute(url, store=store, live_network=False, capture=Capture())
    assert not [e.message for e in seed.trace.errors if e.kind == "harness"]
    assert seed.dom == plain
    replayed = driver.execute(url, seed.trace.sequence, store=store, live_network=False, capture=Capture())
    assert replayed.dom == plain


def test_where_the_policy_lets_inline_scripts_run_by_unsafe_inline_the_parse_chunks_still_run(driver):
    page = ("<!doctype html><title>inline</title><body><p id=a></p><script src=/a.js></script>"
            "<script>document.getElementById('a').textContent += ' inline';</script></body>")
    pages = {"/": ("text/html", page.encode(), {"Content-Security-Policy": "script-src 'self' 'unsafe-inline'"}),
             "/a.js": ("text/javascript", b"document.getElementById('a').textContent = 'external';", {})}
    with route_server(pages.get) as base:
        plain = driver.plain(base + "/", "document.getElementById('a').textContent")
        executed = driver.execute(base + "/", capture=Capture())
    assert plain == "external inline"
    assert not [e.message for e in executed.trace.errors if e.kind == "harness"]
    assert "external inline" in executed.dom
    labels = [executed.trace.events[event].label for event in executed.trace.sequence]
    assert labels[:2] == ["parse head", "parse chunk 1/1"], labels
