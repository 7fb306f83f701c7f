"""Parse chunks end only where Chromium's parser can let other tasks run, checked against
Chromium itself: each page logs whether a 0 ms timer set by an early inline script fires before
a later script, first in plain Chromium, then under webr4 with the default parse-chunk model."""

from __future__ import annotations

import re
import time
from typing import Iterator

import pytest

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.trace import Category, Trace

from ..route_server import route_server

pytestmark = pytest.mark.browser

_EARLY = ("<script>function note(w) { var h = document.documentElement;"
          " h.dataset.log = (h.dataset.log ? h.dataset.log + ',' : '') + w; }"
          " setTimeout(function () { note('timer'); }, 0);</script>")
PAGES = {
    # Arrives at once and has nothing to wait for: parsed in one go.
    "/small": f"<!DOCTYPE html><html><head>{_EARLY}</head><body><input id=a><script>note('B')</script></body></html>",
    # The parser waits for slow.js (a parser-blocking external script).
    "/blocking": (f"<!DOCTYPE html><html><head>{_EARLY}</head><body><p id=a>a</p>"
                  "<script src='slow.js'></script><script>note('B')</script></body></html>"),
    # The inline script waits for the style sheet before it runs.
    "/sheet": (f"<!DOCTYPE html><html><head>{_EARLY}</head><body><p id=a>a</p>"
               "<link rel=stylesheet href='slow.css'><script>note('B')</script></body></html>"),
}


SLOW_S = 1.5
"""How late the parser's slow script and style sheet come: far longer than a busy machine takes to
run the 0 ms timer the parser lets through while it waits."""


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    def respond(path: str) -> tuple[str, bytes]:
        if path.startswith("/slow."):
            time.sleep(SLOW_S)
            if path.endswith(".js"):
                return "text/javascript", b"note('slow')"
            return "text/css", b"p { color: teal }"
        if path in PAGES:
            return "text/html", PAGES[path].encode()
        return "text/plain", b""

    with route_server(respond) as base:
        yield base


def _log(dom: str) -> list[str]:
    found = re.search(r'data-log="([^"]*)"', dom.splitlines()[0])
    return found.group(1).split(",") if found else []


def _parse_chunks(trace: Trace) -> list[str]:
    return [e for e in trace.sequence if trace.events[e].category is Category.PARSE][1:]  # after the head


def _timer(trace: Trace) -> str:
    return next(e for e in trace.sequence if trace.events[e].category is Category.TIMER)


def test_nothing_runs_between_an_element_and_the_inline_script_after_it(driver, pages_url):
    # Chromium's parser also yields when it has run past its time budget, which a small page
    # only does on a starved machine: one of three loads shows its usual order.
    chromium = ["B", "timer"]
    assert any(driver.plain(pages_url + "/small", "document.documentElement.dataset.log").split(",") == chromium
               for _ in range(3))
    run = driver.execute(pages_url + "/small", store=ResponseStore(), live_network=True, capture=Capture())
    assert _parse_chunks(run.trace) == []  # no order can put the timer before B
    assert _log(run.dom) == chromium


@pytest.mark.parametrize("path", ["/blocking", "/sheet"])
def test_a_timer_can_fire_while_the_parser_waits(driver, pages_url, path):
    chromium = driver.plain(pages_url + path, "document.documentElement.dataset.log").split(",")
    assert chromium.index("timer") < chromium.index("B")
    store = ResponseStore()
    seed = driver.execute(pages_url + path, store=store, live_network=True, capture=Capture())
    [chunk] = _parse_chunks(seed.trace)
    timer = _timer(seed.trace)
    before = seed.trace.sequence.index(min(chunk, timer, key=seed.trace.sequence.index))
    assert {chunk, timer} <= seed.trace.steps[before].enabled  # both orders are possible
    head = seed.trace.sequence[0]
    like_chromium = driver.execute(pages_url + path, [head, timer, chunk], store=store, live_network=False,
                                   capture=Capture())
    assert _log(like_chromium.dom) == chromium
