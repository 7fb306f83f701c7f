"""CSS transitions and animations end against timers in the order plain Chromium ends them.

Chromium runs them on its real clock and timers here run on the virtual one, so webr4 makes each
end an event due at the end on the virtual clock (``instrument_js/runtime/animations.js``). The
page starts a 4.8 s transition, a 1.2 s animation and a 2.4 s transition that a 240 ms timer
cancels, among timers of 240, 2800 and 7200 ms: plain Chromium is the oracle for the order of the
handlers, the events' fields and the final page.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.async_api import Page

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from .plain_end import plain_end
from ..route_server import page_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><style>
#box { width: 10px; height: 10px; transition: width 4800ms linear; }
#box.wide { width: 100px; }
@keyframes grow { from { opacity: 0; } to { opacity: 1; } }
#spin.on { animation: grow 1200ms; }
#cut { width: 10px; transition: width 2400ms; }
#cut.wide { width: 90px; }
</style>
<div id="box"></div><div id="spin"></div><div id="cut"></div><p id="out"></p>
<script>
var fired = [];
function log(x) { fired.push(x); out.textContent = fired.join(', '); }
document.addEventListener('transitionend', function (e) {
  log(['transitionend', e.target.id, e.propertyName, e.elapsedTime, e.bubbles, e.cancelable].join(' '));
  e.target.setAttribute('data-ended', e.propertyName);
});
spin.addEventListener('animationend', function (e) {
  log(['animationend', e.animationName, e.elapsedTime, e.bubbles, e.cancelable].join(' '));
});
box.getBoundingClientRect(); cut.getBoundingClientRect();
box.className = 'wide'; spin.className = 'on'; cut.className = 'wide';
setTimeout(function () { cut.style.transition = 'none'; log('timer 240'); }, 240);
setTimeout(function () { log('timer 2800'); }, 2800);
setTimeout(function () { log('timer 7200'); }, 7200);
</script>"""
ORDER = ["timer 240", "animationend grow 1.2 true true", "timer 2800", "transitionend box width 4.8 true true",
         "timer 7200"]  # each at least 960 ms from the next in plain Chromium, so that a busy machine keeps the order


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with page_server(PAGE) as url:
        yield url


async def session(page: Page) -> None:
    """What the user does in plain Chromium, and what the test waits for there."""
    await page.wait_for_function("fired.length >= 5", timeout=30_000)


def test_transition_and_animation_ends_keep_chromiums_order_against_timers(driver, page_url):
    order, dom = plain_end(driver, page_url, session)
    assert order == ORDER
    execution = driver.execute(page_url, store=ResponseStore(), live_network=True, capture=Capture())
    assert execution.dom == dom
    ends = [execution.trace.events[step.event].type for step in execution.trace.steps]
    assert ends.count("transitionend") == 2 and ends.count("animationend") == 1  # the cancelled one ends as a no-op
