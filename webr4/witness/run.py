"""Running a plain schedule in a stock Chromium context, and what it leaves behind.

The context is fresh and has nothing of webr4's: no init script, no rewriting. Playwright serves
every response from the session's HAR as recorded (``route_from_har``); a page route holds the
responses the schedule holds back and lets each go (``route.fallback``) once its sign has been
seen. The page's scripts run unmodified, so what it shows is what a user's browser would do in
that order.

The end state is read without instrumentation, in webr4's own categories
(:mod:`webr4.state.categories`): the DOM serialised at the end (the same serialiser the
harness uses, evaluated once), a full-page screenshot, uncaught exceptions and unhandled
rejections (Playwright's ``pageerror``), ``console.error`` messages, the requests the page made,
where it tried to navigate (the navigation is refused at the network, as the harness refuses
it, so the page is read where it was) and web storage. The JS heap and the pending events
cannot be read without webr4's code in the page and stay empty.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, Request, Route, ViewportSize
from playwright.async_api import Error as PlaywrightError

from webr4.resources import javascript
from webr4.state.categories.storage import STORAGE
from webr4.state.snapshot import StateSnapshot
from webr4.useractions import ACTIONS
from webr4.witness.schedule import CLOCK, DOM_READY, LOAD, RESPONSE, STEP, PlainSchedule, Sign, request_key

SETTLE_S = 0.2
"""Real time given to the page after a sign before the schedule acts on it: the task a response
starts (its callback, the script's run, the element's load event) runs in that time."""
SETTLED = "settled"
"""A request has ended, with a response or without one (the page aborted it): a sign of the run's
own, which no schedule waits for."""
ORDER_TIMEOUT_S = 10.0
"""How long a plain run waits for the signs its schedule needs before it gives the order up."""
VIEWPORT: ViewportSize = {"width": 1024, "height": 768}

_STACK_SITE = re.compile(r"\(?((?:https?|file)://[^\s()]+):(\d+):(\d+)\)?\s*$", re.MULTILINE)


@dataclass
class PlainRun:
    """What one plain run of a schedule left: the end ``state``, whether the order was ``forced``
    (every sign the schedule waited for was seen), and if not, ``problem`` in words."""

    state: StateSnapshot
    forced: bool
    problem: str | None = None
    seconds: float = 0.0


@dataclass
class _Observed:
    """What the page showed while it ran."""

    signs: dict[str, asyncio.Event] = field(default_factory=dict)
    exceptions: list[tuple[str, str | None]] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    navigation: str | None = None
    clock_ms: float = 0.0

    def sign(self, sign: Sign) -> asyncio.Event:
        return self.signs.setdefault(sign.key, asyncio.Event())

    def see(self, sign: Sign) -> None:
        self.sign(sign).set()


async def run_plain(browser: Browser, schedule: PlainSchedule, har: Path, *,
                    trace_to: Path | None = None) -> PlainRun:
    """Run ``schedule`` in a fresh context of ``browser``, the responses served from ``har``; with
    ``trace_to``, a Playwright trace (screenshots and snapshots) of the run is written there."""
    started = time.monotonic()
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        if trace_to is not None:
            await context.tracing.start(screenshots=True, snapshots=True)
        await context.route_from_har(har, not_found="abort")
        page = await context.new_page()
        observed = _Observed()
        _listen(page, observed)
        released = {hold.request: asyncio.Event() for hold in schedule.holds}
        await _route(page, schedule.url, released, observed)
        if schedule.clock:
            await page.clock.install(time=0)
            await page.clock.pause_at(0)
        problem = await _drive(page, schedule, observed, released)
        for event in released.values():
            event.set()  # nothing stays held while the end state is read
        await _finish(page, schedule, observed)
        state = await _end_state(page, observed)
        if trace_to is not None:
            await context.tracing.stop(path=trace_to)
        return PlainRun(state, problem is None, problem, round(time.monotonic() - started, 2))
    finally:
        await context.close()


def _listen(page: Page, observed: _Observed) -> None:
    page.on("requestfinished", lambda request: observed.see(Sign(RESPONSE, request_key(request.url))))
    for ended in ("requestfinished", "requestfailed"):
        page.on(ended, lambda request: observed.see(Sign(SETTLED, request_key(request.url))))
    page.on("domcontentloaded", lambda _page: observed.see(Sign(DOM_READY)))
    page.on("load", lambda _page: observed.see(Sign(LOAD)))
    page.on("pageerror", lambda error: observed.exceptions.append(_exception(error)))
    page.on("console", lambda message: observed.console.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource") else None)


def _exception(error: PlaywrightError) -> tuple[str, str | None]:
    """An uncaught exception as the harness words it: ``Uncaught Name: message`` at the first frame
    of its stack (the page's own code, served unmodified, so the positions are the source's)."""
    site = _STACK_SITE.search(error.stack or "")
    where = f"{site.group(1)}:{site.group(2)}:{site.group(3)}" if site else None
    name = error.name or "Error"
    return f"Uncaught {name}: {error.message}", where


async def _route(page: Page, url: str, released: dict[str, asyncio.Event], observed: _Observed) -> None:
    """Hold the responses of ``released``'s requests until each is released, refuse a navigation of
    the page away from ``url`` (keeping its target) and note every request the page makes."""

    async def handle(route: Route, request: Request) -> None:
        if request.is_navigation_request() and request.frame == page.main_frame and request.url != url:
            observed.navigation = observed.navigation or request.url
            await route.abort()
            return
        if request.url != url:
            observed.requests.append(f"{request.method} {request.url}")
        gate = released.get(request_key(request.url))
        if gate is not None:
            try:
                await asyncio.wait_for(gate.wait(), ORDER_TIMEOUT_S * 2)
            except asyncio.TimeoutError:
                pass
        try:
            await route.fallback()
        except PlaywrightError:  # the page went away while the response was held
            pass

    await page.route("**/*", handle)


async def _drive(page: Page, schedule: PlainSchedule, observed: _Observed,
                 released: dict[str, asyncio.Event]) -> str | None:
    """Load the page and carry out the schedule; ``None`` when every sign it waited for came, else
    what did not happen, in words."""
    problems: list[str] = []

    async def wait(sign: Sign | None) -> bool:
        if sign is None:
            return True
        try:
            await asyncio.wait_for(observed.sign(sign).wait(), ORDER_TIMEOUT_S)
        except asyncio.TimeoutError:
            problems.append(f"{sign.words()} never happened in plain Chromium (waited {ORDER_TIMEOUT_S:g} s)")
            return False
        await asyncio.sleep(SETTLE_S)
        return True

    async def release(request: str, sign: Sign) -> None:
        await wait(sign)
        released[request].set()
        try:  # what the response starts runs before the schedule goes on (the page may have aborted it)
            await asyncio.wait_for(observed.sign(Sign(SETTLED, request)).wait(), ORDER_TIMEOUT_S)
        except asyncio.TimeoutError:
            return
        await asyncio.sleep(SETTLE_S)

    async def clock() -> None:
        for run in sorted(schedule.clock_runs, key=lambda r: r.to_ms):
            if not await wait(run.after):
                return
            if run.to_ms > observed.clock_ms:
                await page.clock.run_for(int(run.to_ms - observed.clock_ms))
                observed.clock_ms = run.to_ms
            observed.see(Sign(CLOCK, f"{run.to_ms:g}"))
            await asyncio.sleep(SETTLE_S)

    async def steps() -> None:
        for number, step in enumerate(schedule.steps):
            if "wait" in step:
                await asyncio.sleep(float(step["wait"]) / 1000)
                continue
            if not await wait(schedule.timing(number).after):
                return
            kind = next(k for k in step if k in ACTIONS)
            try:
                await ACTIONS[kind].perform(page.locator(str(step[kind])), step, ORDER_TIMEOUT_S * 1000)
            except PlaywrightError as error:
                problems.append(f"step {number + 1} ({kind} on {step[kind]}) failed in plain Chromium: "
                                f"{str(error).splitlines()[0]}")
                return
            observed.see(Sign(STEP, str(number)))

    work: list[Awaitable[None]] = [release(hold.request, hold.until) for hold in schedule.holds]
    work += [clock(), steps()]
    try:
        await page.goto(schedule.url, wait_until="commit")
    except PlaywrightError as error:
        return f"the page did not load in plain Chromium: {str(error).splitlines()[0]}"
    observed.see(Sign(RESPONSE, request_key(schedule.url)))
    await asyncio.gather(*work)
    return problems[0] if problems else None


async def _finish(page: Page, schedule: PlainSchedule, observed: _Observed) -> None:
    """Let the page come to rest: its ``load`` (bounded), the clock run to the horizon, a settle."""
    try:
        await page.wait_for_load_state("load", timeout=ORDER_TIMEOUT_S * 1000)
    except PlaywrightError:
        pass
    if schedule.clock and schedule.horizon_ms > observed.clock_ms:
        await page.clock.run_for(int(schedule.horizon_ms - observed.clock_ms) + 1)
        observed.clock_ms = schedule.horizon_ms
    await asyncio.sleep(SETTLE_S * 2)


async def _end_state(page: Page, observed: _Observed) -> StateSnapshot:
    """The end state in webr4's categories, read without instrumenting the page."""
    dom: str = await page.evaluate(javascript("capture_dom.js"))
    storage: Any = await page.evaluate(STORAGE.page_script or "() => ({})")
    shot = await page.screenshot(full_page=True, caret="hide", animations="disabled")
    return StateSnapshot(dom=dom, screenshot=shot, exceptions=list(observed.exceptions),
                         console=list(observed.console), requests=sorted(observed.requests),
                         navigation=observed.navigation, storage=dict(storage or {}))
