"""A transition Chromium starts by itself, when a layout change brings an element under a mouse at
rest, stays Chromium's: no event of webr4's started it.

Chromium updates which elements are hovered in its rendering updates, on its real clock, so the
hover style's transition starts in whichever of webr4's events happens to be running then. Made
an event of that one, it would make each recording different from the last. The page hides the
clicked cover 50 ms after the click, bringing ``#under`` (whose ``::before`` moves on hover)
under the mouse, while a chain of timers runs on for 1.2 s. Plain Chromium is the oracle for the final page.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.async_api import Page

from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture, Execution
from webr4.resources import javascript

from ..route_server import page_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><style>
#under, #cover { position: absolute; left: 0; top: 0; width: 200px; height: 100px; }
#cover { background: #ccc; }
#under::before { content: ""; display: block; width: 10px; height: 10px; transition: transform 150ms; }
#under:hover::before { transform: translateX(50px); }
</style>
<div id="under"></div><div id="cover">Hide</div><p id="out"></p>
<script>
var ticks = 0, hoverEnds = 0;
under.addEventListener('transitionend', function () { hoverEnds++; });
function tick() { out.textContent = 'tick ' + ++ticks; if (ticks < 60) setTimeout(tick, 20); }
cover.addEventListener('click', function () {
  setTimeout(function () { cover.style.display = 'none'; }, 50);
  tick();
});
</script>"""
SESSION = [{"click": "#cover"}]


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with page_server(PAGE) as url:
        yield url


def plain_end(driver, url: str) -> tuple[int, str]:
    """How many hover transitions ended, and the final DOM, in plain Chromium."""

    async def work(page: Page) -> tuple[int, str]:
        await page.goto(url)
        await page.click("#cover")
        await page.wait_for_function("ticks === 60 && hoverEnds === 1", timeout=10_000)
        return await page.evaluate("hoverEnds"), await page.evaluate(javascript("capture_dom.js"))

    return driver.in_plain_chromium(work)


def labels(execution: Execution) -> list[str]:
    return [execution.trace.events[step.event].label for step in execution.trace.steps]


def test_a_hover_transition_chromium_starts_is_no_event(driver, page_url):
    hover_ends, dom = plain_end(driver, page_url)
    assert hover_ends == 1  # the hover does start a transition in plain Chromium
    runs = [driver.execute(page_url, store=ResponseStore(), live_network=True, capture=Capture(),
                           actions=parse_actions(SESSION)) for _ in range(2)]
    assert not [label for label in labels(runs[0]) if "div#under" in label]
    assert labels(runs[0]) == labels(runs[1])
    assert runs[0].dom == dom
