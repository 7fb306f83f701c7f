"""Pages nobody wrote for webr4 end as they do in plain Chromium: same final DOM.

Each page runs once in plain Chromium through Playwright (the oracle) and once under webr4's
control, and the normalised DOMs (``capture_dom.js``) must be equal.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import sync_playwright

from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.browser.launch import CHROMIUM_ARGS, chromium_path
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.resources import javascript
from webr4.serve import serve
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.record.session import SessionError, record

from .websocket_server import websocket_server

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent / "pages" / "fidelity"


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base


def plain_dom(url: str, shown: str) -> str:
    """The page's DOM in plain Chromium once an element matches the Playwright selector ``shown``:
    waited for from Playwright's isolated world, so nothing runs in the page's own world (where a
    page may count calls of its builtins) before the capture."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(p), args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page()
            page.goto(url)
            page.locator(shown).wait_for(state="attached", timeout=10_000)
            return page.evaluate(javascript("capture_dom.js"))
        finally:
            browser.close()


def webr4_dom(driver, url: str) -> tuple[str, list]:
    execution = driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
    return execution.dom, [e for e in execution.trace.errors if e.kind == "harness"]


def test_attributes_that_look_like_handlers_are_left_alone(driver, pages_url):
    url = pages_url + "attributes.html"
    dom, harness = webr4_dom(driver, url)
    assert not harness
    assert dom == plain_dom(url, "#out:not(:empty)")
    assert "e.g. online=yes | set onerror=x | yes | press onclick=go to start | 3 | 3" in dom


def test_a_script_detached_while_it_loads_still_runs(driver, pages_url):
    url = pages_url + "jsonp.html"
    dom, harness = webr4_dom(driver, url)
    assert not harness  # the recording used to wait for a load event that never came
    assert dom == plain_dom(url, "#out[title='loaded']")


def test_worker_messages_are_delivered_and_marked_uncontrolled(driver, pages_url):
    url = pages_url + "worker.html"
    execution = driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
    assert execution.dom == plain_dom(url, "#out:text-is('sum 42, done')")
    trace = execution.trace
    messages = [e for e in trace.sequence if trace.events[e].type == "worker"]
    assert [trace.events[e].label for e in messages] == ["message from worker /worker.js"] * 2
    assert trace.uncontrolled == ["worker /worker.js"]


def _out(dom: str) -> str:
    lines = dom.splitlines()
    return lines[next(i for i, line in enumerate(lines) if 'id="out"' in line) + 1].strip()


def test_a_worker_message_is_an_event_whose_order_is_explored(driver, pages_url):
    url = pages_url + "worker-race.html"
    store = ResponseStore()
    seed = driver.execute(url, store=store, live_network=True, capture=Capture())
    order = seed.trace.sequence
    message = next(e for e in order if seed.trace.events[e].type == "worker")
    timer = next(e for e in order if seed.trace.events[e].type == "setTimeout")
    assert order.index(message) < order.index(timer) and _out(seed.dom) == "timer"
    flipped_plan = order[: order.index(message)] + [timer, message]
    flipped = driver.execute(url, flipped_plan, store=store, live_network=False, capture=Capture())
    assert flipped.trace.sequence[: len(flipped_plan)] == flipped_plan
    assert _out(flipped.dom) == "worker"


def test_websocket_events_are_controlled_and_the_socket_marked_uncontrolled(driver, pages_url):
    with websocket_server() as port:
        url = f"{pages_url}websocket.html?port={port}"
        execution = driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
        assert execution.dom == plain_dom(url, "#out:text-matches('close$')")
    assert _out(execution.dom) == "open, hello, echo:ping, close"
    trace = execution.trace
    labels = [trace.events[e].label for e in trace.sequence if trace.events[e].type == "websocket"]
    where = f"websocket ws://127.0.0.1:{port}/"
    assert labels == [f"{kind} from {where}" for kind in ("open", "message", "message", "close")]
    assert trace.uncontrolled == [where]


def test_an_endless_loop_ends_the_run_at_its_event_and_the_recording_repeats(pages_url, tmp_path):
    limits = Limits(event_timeout_s=1.0)

    async def record_and_explore():  # the seed alone: its replays are the repeated recording
        async with Driver() as driver:
            session = await record(driver, pages_url + "loop.html", tmp_path / "session", [], limits=limits)
            return session, await explore(driver, session, tmp_path / "run", SweepSettings(bound=1, max_sequences=1))

    session, summary = asyncio.run(record_and_explore())  # no "repeating the recording failed"
    seed = session.seed_trace()
    assert seed.truncated == "endless-loop"
    last = seed.events[seed.sequence[-1]]
    assert last.type == "setTimeout" and "100ms" in last.label
    assert [e.message for e in seed.errors if e.kind == "harness"] == [
        f"endless loop in {last.label}: its script ran for 1 s and was stopped"]
    assert summary.seed_events == len(seed.steps)


def test_a_polyfill_replacing_dom_methods_and_constructors_ends_as_in_plain_chromium(driver, pages_url):
    url = pages_url + "polyfill.html"
    dom, harness = webr4_dom(driver, url)
    assert not harness
    # The page counts calls of its replaced natives: webr4 making any of them shows in the DOM.
    assert dom == plain_dom(url, "#out:not(:empty)")
    assert "clicks 1, x 1, addEventListener 1, appendChild 1" in dom


def test_a_step_after_an_event_that_never_finished_names_that_event(pages_url, tmp_path):
    async def record_with_a_click():
        async with Driver() as driver:
            await record(driver, pages_url + "loop.html", tmp_path / "session", [{"wait": 500}, {"click": "#out"}],
                         limits=Limits(event_timeout_s=1.0))

    with pytest.raises(SessionError, match=r"^step 1 \(click on #out\) never happened: the page was stuck in "
                                           r"setTimeout.*100ms.*, which never finished$"):
        asyncio.run(record_with_a_click())


def test_a_page_that_replaces_the_builtins_the_runtime_uses_ends_as_in_plain_chromium(driver, pages_url):
    url = pages_url + "builtins.html"
    dom, harness = webr4_dom(driver, url)
    assert not harness
    # The page counts calls of its wrapped builtins: webr4 making any of them shows in the DOM.
    assert dom == plain_dom(url, "#out:not(:empty)")
    assert "fetch 7, frame, image error, interval, load, message hello, microtask, sync, timer, xhr 7 |" in dom


@pytest.mark.parametrize("chunks", ["yield", "element"])
def test_scripts_that_document_write_puts_in_the_parser_run_in_chromium_order(driver, pages_url, chunks):
    # A boot loader: the head writes a script that writes another; the body writes markup with an
    # inline script, and a script after the document's own blocking one. Chromium runs each
    # written script where it was written, blocking the parser (oracle: the same page, plain).
    url = pages_url + "docwrite.html"
    execution = driver.execute(url, store=ResponseStore(), live_network=True, limits=Limits(parse_chunks=chunks),
                               capture=Capture())
    assert execution.trace.truncated is None
    assert not [e for e in execution.trace.errors if e.kind == "harness"]
    # Same elements in the same places; inline scripts differ only by webr4's rewriting.
    assert _without_script_text(execution.dom) == _without_script_text(plain_dom(url, "#out:not(:empty)"))
    assert ("head, after writing a, a, after writing a2, a2 sees no first, next inline, written inline true, "
            "after writing markup, b, after writing c, c sees no last") in execution.dom


def _without_script_text(dom: str) -> list[str]:
    """The lines of a captured DOM (``capture_dom.js``: one tag or text per line) without the
    text inside script elements."""
    kept, inside = [], False
    for line in dom.splitlines():
        tag = line.strip()
        if tag.startswith("</script"):
            inside = False
        if not inside:
            kept.append(line)
        if tag.startswith("<script"):
            inside = True
    return kept


def test_a_window_capture_listener_sees_each_resource_event_once(driver, pages_url):
    url = pages_url + "window-capture.html"
    dom, harness = webr4_dom(driver, url)
    assert not harness
    assert dom == plain_dom(url, "#out:not(:empty)")
    assert "<p id=\"out\">error img missing.png</p>" in dom.replace("\n", "").replace("  ", "")
