"""An image in the document that gets a new source loads it within the event that set it.

The page's image fails to load, and its `error` handler gives it another source and asks for an
animation frame. Plain Chromium runs the new source's `load` before or after the frame, as its
decoding and rendering happen to fall; webr4 must pick one of those orders and keep it in every
run, or a recording of such a page (Leaflet's tiles that fail) does not repeat. The same holds
for an image the page blanks and then takes out of the document before the blank has loaded
(Leaflet's pruned tiles): its load still comes within the event that did it.
"""

from __future__ import annotations

import base64
import re
import time
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
ALL_FIRED = "fired.length >= 3"


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    files = {"/": ("text/html", PAGE.encode()), "/pixel.gif": ("image/gif", PIXEL)}
    with route_server(files.get) as base:
        yield base + "/"


def logs_of_three_runs(driver, url: str) -> set[str]:
    """The different logs the page ends with in three executions under webr4."""
    logs = set()
    for _ in range(3):
        execution = driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
        shown = re.search(r'<p id="out">\s*([^<]*?)\s*</p>', execution.dom)
        assert shown is not None
        logs.add(shown.group(1))
    return logs


def test_a_new_source_loads_in_the_event_that_set_it(driver, page_url):
    assert driver.plain(page_url, "fired.join(', ')", until=ALL_FIRED) in CHROMIUM_ORDERS
    assert logs_of_three_runs(driver, page_url) == {"error, load, frame"}


REMOVED = """<!DOCTYPE html><div id="level"></div><p id="out"></p>
<script>
var fired = [];
function log(x) { fired.push(x); out.textContent = fired.join(', '); }
var tile = document.createElement('img');
tile.addEventListener('load', function () { log('load'); });
tile.addEventListener('error', function () {
  log('error');
  tile.setAttribute('src', 'blank.gif');
  tile.remove();
  requestAnimationFrame(function () { log('frame'); });
});
tile.src = 'missing.png';
document.getElementById('level').appendChild(tile);
</script>"""


def _slowly(path: str) -> tuple[str, bytes] | None:
    """The page, and its blank tile a little late, as a busy machine decodes it."""
    if path == "/blank.gif":
        time.sleep(0.2)
        return "image/gif", PIXEL
    return ("text/html", REMOVED.encode()) if path == "/" else None


@pytest.fixture(scope="module")
def removed_url() -> Iterator[str]:
    with route_server(_slowly) as base:
        yield base + "/"


def test_an_image_blanked_then_removed_loads_in_the_event_that_did_it(driver, removed_url):
    # Leaflet's pruned tile: given a blank source, then taken out of the document; its load comes
    # at the image alone, which the runtime listens on since the page set its first source.
    assert driver.plain(removed_url, "fired.join(', ')", until=ALL_FIRED) in CHROMIUM_ORDERS
    assert logs_of_three_runs(driver, removed_url) == {"error, load, frame"}
