"""A user step waits for its target to stop moving, as Playwright's ``stable`` check does.

Playwright acts on an element only once its box is the same over two animation frames, so in plain
Chromium a click on a button that a CSS transition slides in comes after the transition ended and
after its ``transitionend``. webr4 makes that end an event on the virtual clock
(``instrument_js/runtime/animations.js``); the step must still come after it. The page is a
dialog in Bootstrap's manner: opening it slides it in over 300 ms, and until ``transitionend`` (or
a 305 ms fallback timer) it ignores a close. Plain Chromium is the oracle for the order and the
final page.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.async_api import Page

from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from .plain_end import plain_end
from ..route_server import route_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><style>
#dialog { display: none; transform: translateY(-100px); transition: transform 300ms linear; }
#dialog.show { transform: none; }
</style>
<button id="open-dialog">Open</button>
<div id="dialog"><input id="customer"><button id="save">Save</button></div><p id="out"></p>
<script>
var fired = [], moving = false;
var dialog = document.getElementById('dialog'), customer = document.getElementById('customer');
function log(x) { fired.push(x); document.getElementById('out').textContent = fired.join(', '); }
function settled() { if (!moving) return; moving = false; log('shown'); }
document.getElementById('open-dialog').addEventListener('click', function () {
  moving = true; dialog.style.display = 'block'; dialog.offsetHeight; dialog.classList.add('show');
  dialog.addEventListener('transitionend', settled, { once: true });
  setTimeout(settled, 305);
  log('open');
});
document.getElementById('save').addEventListener('click', function () {
  if (moving) { log('close ignored'); return; }
  dialog.classList.remove('show'); dialog.style.display = 'none'; log('closed ' + customer.value);
});
</script>"""
SESSION = [{"click": "#open-dialog"}, {"fill": "#customer", "value": "Cleo"}, {"click": "#save"}]
ORDER = ["open", "shown", "closed Cleo"]


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with route_server(lambda path: ("text/html", PAGE.encode()) if path == "/" else None) as base:
        yield base + "/"


async def session(page: Page) -> None:
    """What the user does in plain Chromium, and what the test waits for there."""
    await page.click("#open-dialog")
    await page.fill("#customer", "Cleo")
    await page.click("#save")


def test_a_step_on_a_sliding_target_waits_for_its_transition_to_end(driver, page_url):
    order, dom = plain_end(driver, page_url, session)
    assert order == ORDER
    execution = driver.execute(page_url, store=ResponseStore(), live_network=True, capture=Capture(),
                               actions=parse_actions(SESSION))
    assert execution.dom == dom
