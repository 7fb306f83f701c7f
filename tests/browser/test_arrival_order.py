"""Completions that arrive while one event settles are ordered by what the page did, not by which
response the network delivered first: detached images (preloading) by when their source was set."""

from __future__ import annotations

import io
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from PIL import Image

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
def slow_first_url():
    png = _png()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            if self.path.endswith("slow.png"):
                time.sleep(0.5)  # the image whose source is set first arrives last
            body, kind = (PAGE, "text/html") if self.path == "/" else (png, "image/png")
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_preloaded_images_load_in_the_order_their_sources_were_set(driver, slow_first_url):
    trace = driver.execute(slow_first_url).trace
    loads = [trace.events[s.event].label for s in trace.steps if "png" in trace.events[s.event].label]
    assert [("slow" in label, "fast" in label) for label in loads] == [(True, False), (False, True)]
