"""An animation frame's callbacks run before the ResizeObserver callbacks of the same rendering
update, as in plain Chromium (rAF callbacks, then style and layout, then resize observations).

The page's `input` handler resizes a box and asks for an animation frame, whose callback resizes
it again; a ResizeObserver logs the sizes it is told. Plain Chromium is the oracle for the order
and the sizes, and for the final page.
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

PAGE = """<!DOCTYPE html><input id="field"><div id="box" style="width: 10px; height: 10px"></div><p id="out"></p>
<script>
var fired = [];
function log(x) { fired.push(x); out.textContent = fired.join(', '); }
new ResizeObserver(function (entries) {
  var rect = entries[0].contentRect;
  log('resize ' + rect.width + 'x' + rect.height);
}).observe(box);
field.addEventListener('input', function () {
  log('input');
  box.style.width = field.value.length * 10 + 'px';
  requestAnimationFrame(function () { log('frame'); box.style.height = '20px'; });
});
</script>"""
SESSION = [{"fill": "#field", "value": "abcd"}]
ORDER = ["resize 10x10", "input", "frame", "resize 40x20"]


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with page_server(PAGE) as url:
        yield url


async def session(page: Page) -> None:
    """What the user does in plain Chromium, and what the test waits for there."""
    await page.wait_for_function("fired.length >= 1")
    await page.fill("#field", "abcd")
    await page.wait_for_function(f"fired.length >= {len(ORDER)}")
    await page.wait_for_timeout(200)


def test_resize_observations_follow_the_frames_callbacks(driver, page_url):
    order, dom = plain_end(driver, page_url, session)
    assert order == ORDER
    execution = driver.execute(page_url, store=ResponseStore(), live_network=True, capture=Capture(),
                               actions=parse_actions(SESSION))
    assert execution.dom == dom, [execution.trace.events[step.event].label for step in execution.trace.steps]
