"""An image in the document that gets a new source loads it within the event that set it.

The page's image fails to load, and its `error` handler gives it another source and asks for an
animation frame. Plain Chromium runs the new source's `load` before or after the frame, as its
decoding and rendering happen to fall; webr4 must pick one of those orders and keep it in every
run, or a recording of such a page (Leaflet's tiles that fail) does not repeat.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator

import pytest

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from ..route_server import route_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><img id="tile" src="missing.png" alt=""><p id="out"></p>
<script>
var fired = [];
function log(x) { fired.push(x); out.textContent = fired.join(', '); }
tile.addEventListener('load', function () { log('load'); });
tile.addEventListener('error', function () {
  log('error');
  tile.src = 'pixel.gif';
  requestAnimationFrame(function () { log('frame'); });
});
</script>"""
PIXEL = base64.b64decode("R0lGODlhAQABAAD/ACwAAAAAAQABAAACADs=")
CHROMIUM_ORDERS = ("error, load, frame", "error, frame, load")


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    files = {"/": ("text/html", PAGE.encode()), "/pixel.gif": ("image/gif", PIXEL)}
    with route_server(files.get) as base:
        yield base + "/"


def test_a_new_source_loads_in_the_event_that_set_it(driver, page_url):
    assert driver.plain(page_url, "fired.join(', ')", settle_ms=300) in CHROMIUM_ORDERS
    logs = set()
    for _ in range(3):
        execution = driver.execute(page_url, store=ResponseStore(), live_network=True, capture=Capture())
        logs.add(re.search(r'<p id="out">\s*([^<]*?)\s*</p>', execution.dom).group(1))
    assert logs == {"error, load, frame"}
