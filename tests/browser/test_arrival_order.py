"""Completions that arrive while one event settles are ordered by what the page did, not by which
response the network delivered first: detached images (preloading) by when their source was set."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator

import pytest
from PIL import Image

from ..route_server import route_server
from webr4.execution import Capture

pytestmark = pytest.mark.browser  # every test here drives Chromium

PAGE = b"""<!DOCTYPE html><body><script>
window.addEventListener("load", function () {
  var slow = new Image(), fast = new Image();
  slow.src = "slow.png";
  fast.src = "fast.png";
});
</script></body>"""


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1, 1)).save(out, "PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def slow_first_url() -> Iterator[str]:
    png = _png()

    def respond(path: str) -> tuple[str, bytes]:
        if path.endswith("slow.png"):
            time.sleep(0.5)  # the image whose source is set first arrives last
        return ("text/html", PAGE) if path == "/" else ("image/png", png)

    with route_server(respond) as base:
        yield base + "/"


def test_preloaded_images_load_in_the_order_their_sources_were_set(driver, slow_first_url):
    trace = driver.execute(slow_first_url, capture=Capture()).trace
    loads = [trace.events[s.event].label for s in trace.steps if "png" in trace.events[s.event].label]
    assert [("slow" in label, "fast" in label) for label in loads] == [(True, False), (False, True)]
