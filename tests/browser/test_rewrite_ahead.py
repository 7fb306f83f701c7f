"""Held scripts are fetched and rewritten when the browser asks for them, not one by one as the
page is let run them."""

from __future__ import annotations

import asyncio

import pytest

from tests.route_server import route_server
from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture, Execution
from webr4.instrument.cache import CachedRewriter
from webr4.instrument.rewrite import RewriteResult
from webr4.resources import javascript

pytestmark = pytest.mark.browser

NAMES = ("a", "b", "c")
PAGE = ("<!doctype html><html><head><title>t</title>"
        + "".join(f'<script async src="/{name}.js"></script>' for name in NAMES)
        + "</head><body>" + "".join(f'<p id="{name}">waiting</p>' for name in NAMES) + "</body></html>").encode()
ANSWERS = {"/": ("text/html", PAGE)} | {
    f"/{name}.js": ("text/javascript", f'document.getElementById("{name}").textContent = "{name} ran";'.encode())
    for name in NAMES}
BARRIER_S = 10.0  # how long one rewrite waits for the others to be asked for: far longer than a page load


class BarrierRewriter(CachedRewriter):
    """Rewrites like the default, but each held script's rewrite first waits until every one of
    them has been asked for; ``alone`` lists the scripts whose rewrite was asked for while
    another one had to finish first (that one waited ``BARRIER_S`` in vain)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()
        self.alone: list[str] = []
        self._everyone: asyncio.Event | None = None

    async def rewrite_async(self, source: str, url: str, **options: object) -> RewriteResult:
        name = url.rsplit("/", 1)[-1].removesuffix(".js")
        if name in NAMES:
            if self._everyone is None:
                self._everyone = asyncio.Event()
            self.asked.add(name)
            if self.asked == set(NAMES):
                self._everyone.set()
            try:
                await asyncio.wait_for(self._everyone.wait(), BARRIER_S)
            except asyncio.TimeoutError:
                self.alone.append(name)
        return await super().rewrite_async(source, url, **options)  # type: ignore[arg-type]


async def _plain_dom(driver: Driver, url: str) -> str:
    context = await driver.browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(url, wait_until="load")
        return await page.evaluate(javascript("capture_dom.js"))
    finally:
        await context.close()


def test_held_scripts_are_all_being_rewritten_before_the_first_one_runs():
    recording, replaying = BarrierRewriter(), BarrierRewriter()
    limits = Limits(horizon_ms=1_000, event_timeout_s=30.0)

    async def run(url: str) -> tuple[Execution, Execution, str]:
        store = ResponseStore()
        async with Driver(rewriter=recording) as driver:
            recorded = await driver.execute(url, store=store, live_network=True, limits=limits, capture=Capture())
            plain = await _plain_dom(driver, url)
        async with Driver(rewriter=replaying) as driver:
            replayed = await driver.execute(url, tuple(recorded.trace.sequence), store=store, live_network=False,
                                            limits=limits, capture=Capture())
        return recorded, replayed, plain

    with route_server(ANSWERS.get) as base:
        recorded, replayed, plain = asyncio.run(run(base + "/"))
    assert (recording.alone, replayed.trace.sequence, replaying.alone) == ([], recorded.trace.sequence, [])
    assert recorded.dom == replayed.dom == plain
    assert all(f"{name} ran" in plain for name in NAMES)

