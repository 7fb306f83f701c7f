"""``selectionchange`` is an event webr4 controls, and runs where plain Chromium runs it.

Chromium queues the task when a step changes the selection and runs it on its own time; an
editor's handler answers it with a timer, which then landed before or after the next step. The
page logs a click on an editable text, the `selectionchange`s of the document and of a field
which a button focuses and selects text in next, and the timers each handler sets. Plain
Chromium is the oracle for the order (up to the one it leaves to chance) and the final page, and
every `selectionchange` must be a step of webr4's trace.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.async_api import Page

from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from .plain_end import plain_end
from ..route_server import page_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><div id="editor" contenteditable="true">hello world</div>
<input id="field" value="abc"><button id="pick">pick</button><p id="out"></p>
<script>
var fired = [];
function log(x) { fired.push(x); out.textContent = fired.join(', '); }
document.addEventListener('selectionchange', function (e) {
  log('selectionchange of ' + (e.target.id || 'document') + ' bubbles ' + e.bubbles);
  setTimeout(function () { log('selection timer'); }, 1);
});
pick.addEventListener('click', function () { field.focus(); field.setSelectionRange(1, 2); });
editor.addEventListener('click', function () {
  log('click');
  setTimeout(function () { log('click timer'); }, 0);
});
</script>"""
SESSION = [{"click": "#editor"}, {"click": "#pick"}]
ORDER = ["click", "selectionchange of document bubbles false", "click timer", "selection timer",
         "selectionchange of field bubbles true", "selection timer"]


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with page_server(PAGE) as url:
        yield url


async def session(page: Page) -> None:
    """What the user does in plain Chromium, and what the test waits for there."""
    await page.click("#editor")
    await page.wait_for_function("fired.filter((x) => x.endsWith('timer')).length >= 2")  # the click's, the selection's
    await page.click("#pick")
    await page.wait_for_function(f"fired.length >= {len(ORDER)}")


def logged(dom: str) -> list[str]:
    shown = re.search(r'<p id="out">\s*([^<]*?)\s*</p>', dom)
    assert shown is not None
    return shown.group(1).split(", ")


def test_selection_changes_run_as_events_in_chromiums_order(driver, page_url):
    order, dom = plain_end(driver, page_url, session)
    execution = driver.execute(page_url, store=ResponseStore(), live_network=True, capture=Capture(),
                               actions=parse_actions(SESSION))
    # Chromium runs the click's selectionchange before or after the click's handler, as the
    # mouse events happen to fall: webr4 always runs it after, and everything else as Chromium.
    assert logged(execution.dom) == ORDER
    assert sorted(order) == sorted(ORDER)
    assert re.sub(r'<p id="out">[^<]*</p>', "", execution.dom) == re.sub(r'<p id="out">[^<]*</p>', "", dom)
    steps = [execution.trace.events[step.event].type for step in execution.trace.steps]
    assert steps.count("selectionchange") == order.count("selection timer")
