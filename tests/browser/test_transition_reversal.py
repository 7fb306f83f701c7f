"""A transition that a style change interrupts is reversed as far as it had come on the virtual clock.

Chromium shortens a transition that reverses one still running by how far the first had come, so
the second's end depends on the clock the first ran on. webr4 runs a transition whose end is
pending on the virtual clock (``instrument_js/runtime/animations.js``): otherwise its progress,
and so the reversed transition's length, would follow how long the harness took. The page
starts a 6 s linear transition and reverses it from a 2 s timer: plain Chromium ends the reversed
one about 2 s later, between timers of 3 s and 6 s (an unshortened one would end at 8 s). The
margins are a second and more, so that a busy machine's plain Chromium keeps that order.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.async_api import Page

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from .plain_end import plain_end
from ..route_server import route_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><style>
#bar { width: 0; height: 10px; transition: width 6000ms linear; }
#bar.full { width: 300px; }
</style>
<div id="bar"></div><p id="out"></p>
<script>
var fired = [], bar = document.getElementById('bar');
function log(x) { fired.push(x); document.getElementById('out').textContent = fired.join(', '); }
bar.addEventListener('transitionend', function () { log('transitionend'); });
bar.getBoundingClientRect(); bar.className = 'full';
setTimeout(function () { bar.className = ''; log('reversed'); }, 2000);
setTimeout(function () { log('timer 3000'); }, 3000);
setTimeout(function () { log('timer 6000'); }, 6000);
</script>"""
ORDER = ["reversed", "timer 3000", "transitionend", "timer 6000"]


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with route_server(lambda path: ("text/html", PAGE.encode()) if path == "/" else None) as base:
        yield base + "/"


async def session(page: Page) -> None:
    """What the user does in plain Chromium, and what the test waits for there."""
    await page.wait_for_function("fired.length >= 4", timeout=30_000)


def test_a_reversed_transition_ends_as_far_from_the_reversal_as_the_first_had_come(driver, page_url):
    order, dom = plain_end(driver, page_url, session)
    assert order == ORDER
    execution = driver.execute(page_url, store=ResponseStore(), live_network=True, capture=Capture())
    assert execution.dom == dom
