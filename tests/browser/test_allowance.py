"""An event's time allowance is the page's: time webr4 spends rewriting what the page loads is not
counted against it."""

from __future__ import annotations

import asyncio

import pytest

from tests.route_server import route_server
from webr4.browser.allowance import HarnessTime, wait_within
from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.execution import Capture
from webr4.instrument.cache import CachedRewriter
from webr4.instrument.rewrite import RewriteResult


def test_harness_time_extends_the_allowance_and_page_time_does_not():
    async def scenario() -> tuple[str, bool]:
        harness = [0.0]

        async def harness_busy_then_done() -> str:
            await asyncio.sleep(0.15)
            harness[0] += 0.15  # the harness reports 0.15 s of its own work meanwhile
            await asyncio.sleep(0.1)
            return "done"

        finished = await wait_within(harness_busy_then_done(), 0.2, lambda: harness[0])
        try:
            await wait_within(asyncio.sleep(0.5), 0.2, lambda: harness[0])
        except asyncio.TimeoutError:
            return finished, True
        return finished, False

    finished, page_time_ran_out = asyncio.run(scenario())
    assert finished == "done"
    assert page_time_ran_out


def test_harness_time_counts_work_still_under_way():
    async def scenario() -> tuple[float, float]:
        clock = HarnessTime()

        async def rewriting_elsewhere() -> None:
            with clock.counting():
                await asyncio.sleep(0.2)

        work = asyncio.ensure_future(rewriting_elsewhere())
        await asyncio.sleep(0.05)
        during = clock.seconds  # the work has not finished, and already counts
        await work
        return during, clock.seconds

    during, after = asyncio.run(scenario())
    assert 0 < during < after


def test_work_done_ahead_of_need_counts_but_is_not_waited_for():
    async def scenario() -> tuple[bool, bool, float]:
        clock = HarnessTime()
        ahead_done, needed_done = asyncio.Event(), asyncio.Event()

        async def work(done: asyncio.Event, ahead: bool) -> None:
            with clock.counting(ahead=ahead):
                await done.wait()

        ahead = asyncio.ensure_future(work(ahead_done, True))
        needed = asyncio.ensure_future(work(needed_done, False))
        await asyncio.sleep(0.05)
        quiet = asyncio.ensure_future(clock.quiet())
        await asyncio.sleep(0)
        waited_for_needed = not quiet.done()
        needed_done.set()
        await needed
        await asyncio.wait_for(quiet, 1)  # the work done ahead is still under way
        still_ahead = not ahead.done()
        counted = clock.seconds
        ahead_done.set()
        await ahead
        return waited_for_needed, still_ahead, counted

    waited_for_needed, still_ahead, counted = asyncio.run(scenario())
    assert waited_for_needed and still_ahead
    assert counted >= 0.1  # both pieces, each under way for 0.05 s at least


class SlowRewriter(CachedRewriter):
    """Rewrites like the default, as slowly as a large script on a busy machine."""

    async def rewrite_async(self, source: str, url: str, **options: object) -> RewriteResult:
        if url.endswith("/big.js"):
            await asyncio.sleep(4.0)
        return await super().rewrite_async(source, url, **options)  # type: ignore[arg-type]


PAGE = b"""<!doctype html><html><head><title>t</title></head><body>
<p id="out">waiting</p>
<script src="/big.js"></script>
<script>document.getElementById("out").textContent += " then inline";</script>
</body></html>"""
BIG = b'document.getElementById("out").textContent = "big ran";'


@pytest.mark.browser
def test_a_script_slow_to_rewrite_is_not_an_event_timeout():
    answers = {"/": ("text/html", PAGE), "/big.js": ("text/javascript", BIG)}

    async def run(url: str):
        async with Driver(rewriter=SlowRewriter()) as driver:
            return await driver.execute(url, limits=Limits(horizon_ms=1_000, event_timeout_s=3.0), capture=Capture())

    with route_server(answers.get) as base:
        execution = asyncio.run(run(base + "/"))
    assert execution.trace.truncated is None
    assert [e.message for e in execution.trace.errors if e.kind == "harness"] == []
    assert "big ran then inline" in execution.dom
