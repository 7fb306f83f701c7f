"""A click comes after the two animation frames of Playwright's ``stable`` check, as in Chromium.

Playwright acts on an element only once its box is the same in two animation frames, so in plain
Chromium a click comes after two rendering updates even when nothing moves, and an animation loop
the page runs meanwhile gets those two frames first. The page is Leaflet's start-up in small: its
tile fails to load, the error fades it in over two frames (a frame requested by a frame, the loop
a step does not wait for), and zooming in prunes the old level only once its tile is opaque.
Leaflet times its fade with the clock (200 ms), so its outcome also depends on how long the user
took; this page counts frames, so that plain Chromium has one answer. Plain Chromium is the oracle
for the order and the final page.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.async_api import Page

from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from .plain_end import plain_end
from ..route_server import page_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><title>Map</title>
<div id="level-13"><img id="tile" src="tiles/13/1/1.png" alt=""></div>
<button id="zoom-in">+</button><p id="out"></p>
<script>
var fired = [], opacity = 0;
var tile = document.getElementById('tile');
function log(x) { fired.push(x); document.getElementById('out').textContent = fired.join(', '); }
function fade() {
  opacity += 0.5;
  tile.style.opacity = opacity;
  if (opacity < 1) requestAnimationFrame(fade); else log('opaque');
}
tile.addEventListener('error', function () { log('tile failed'); requestAnimationFrame(fade); });
document.getElementById('zoom-in').addEventListener('click', function () {
  if (opacity < 1) { log('zoomed, old level kept'); return; }
  document.getElementById('level-13').remove();
  log('zoomed, old level pruned');
});
</script>"""
SESSION = [{"click": "#zoom-in"}]
ORDER = ["tile failed", "opaque", "zoomed, old level pruned"]


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with page_server(PAGE) as url:
        yield url


async def session(page: Page) -> None:
    """What the user does in plain Chromium, and what the test waits for there."""
    await page.click("#zoom-in")


def test_a_click_lets_an_animation_loop_run_its_next_two_frames_first(driver, page_url):
    order, dom = plain_end(driver, page_url, session)
    assert order == ORDER
    execution = driver.execute(page_url, store=ResponseStore(), live_network=True, capture=Capture(),
                               actions=parse_actions(SESSION))
    assert execution.dom == dom
