"""Fresh browser contexts for executions, the next one made ahead.

Every execution runs in a context nothing has run in: a new context with the runtime as its init
script and its route, and its one page, still at the ``about:blank`` a new page starts in, with
a CDP session to it. Making one costs 100-200 ms, most of it the CPU of starting the page's
renderer process, so :class:`ContextSupply` keeps one *spare*, made while the execution before
is still busy (the driver says when, :meth:`ContextSupply.prepare`). A spare is handed out once,
and nothing runs in it before, so isolation is the same as making the context on the spot.

What a spare cannot have is what belongs to one execution, its network (a
:class:`~webr4.browser.network.NetworkGate`). The context's one route is installed before its
page is made, as it would be on the spot (adding a route to a context whose page exists costs a
round trip to the renderer), and passes each request to the handler the execution gives
:meth:`FreshPage.serve` before it navigates; until then the page is at ``about:blank``, which
requests nothing, and a request that came anyway would be refused. Chromium runs the init
scripts added before a page was made in every document the page navigates to, and the route
serves its first navigation (``tests/browser/test_warm_context.py`` checks both in plain
Chromium).

A context blocks the page's service workers unless asked to let them run (``service_workers``,
Playwright's option, which a session keeps in its limits): blocked, Playwright replaces
``navigator.serviceWorker.register`` with a function that resolves to ``undefined``, as it does
for any plain Playwright context created with ``service_workers="block"``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Literal

from playwright.async_api import Browser, BrowserContext, CDPSession, Page, Request, Route, ViewportSize
from playwright.async_api import Error as PlaywrightError

VIEWPORT: ViewportSize = {"width": 1024, "height": 768}

ServiceWorkers = Literal["block", "allow"]
SERVICE_WORKER_POLICIES: tuple[ServiceWorkers, ...] = ("block", "allow")


Handler = Callable[[Route, Request], Awaitable[None]]


@dataclass
class _Dispatch:
    """A context's route: every request goes to ``handler``, or is refused while there is none."""

    handler: Handler | None = None

    async def __call__(self, route: Route, request: Request) -> None:
        if self.handler is not None:
            await self.handler(route, request)
        else:
            with suppress(PlaywrightError):
                await route.abort()


@dataclass(frozen=True)
class FreshPage:
    """A context no page has run in, its one page (at ``about:blank``) and a CDP session to it."""

    context: BrowserContext
    page: Page
    cdp: CDPSession
    _dispatch: _Dispatch = field(repr=False)

    def serve(self, handler: Handler) -> None:
        """Answer every request of the context with ``handler`` from now on (before navigating)."""
        self._dispatch.handler = handler


@dataclass(frozen=True)
class ContextSetup:
    """What a fresh context is made with: the init script and whether service workers run."""

    init_script: str
    service_workers: ServiceWorkers = "block"


async def open_fresh(browser: Browser, setup: ContextSetup) -> FreshPage:
    """A new context of ``browser`` made as ``setup`` says, with its route, and its page.

    The context is closed again when any step after its creation fails."""
    context = await browser.new_context(
        service_workers=setup.service_workers, viewport=VIEWPORT, device_scale_factor=1,
        locale="en-US", timezone_id="UTC",
    )
    try:
        await context.add_init_script(setup.init_script)
        dispatch = _Dispatch()
        await context.route("**/*", dispatch)
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)  # before the run: a busy renderer cannot attach one
    except BaseException:
        with suppress(PlaywrightError):
            await context.close()
        raise
    return FreshPage(context, page, cdp, dispatch)


@dataclass
class _Spare:
    setup: ContextSetup
    making: asyncio.Task[FreshPage]


class ContextSupply:
    """Hands out fresh pages of one browser, keeping one made ahead (:meth:`prepare`).

    Contract: :meth:`take` returns a :class:`FreshPage` whose context nobody else holds or has
    used, made with exactly the setup asked for. A spare made for another setup, one
    whose making failed and one that went away meanwhile are discarded, and the page is made on
    the spot instead; only that making's failure (a browser that died) reaches the caller.
    :meth:`close` ends the spare's making and closes its context; call it before the browser
    closes.
    """

    def __init__(self, browser: Browser) -> None:
        self._browser = browser
        self._spare: _Spare | None = None

    async def take(self, setup: ContextSetup) -> FreshPage:
        """A fresh page made as ``setup`` says: the spare when it fits, else one made now."""
        spare, self._spare = self._spare, None
        if spare is not None and spare.setup == setup:
            fresh = await _finished(spare.making)
            if fresh is not None and not fresh.page.is_closed():
                return fresh
        await _discard(spare)
        return await open_fresh(self._browser, setup)

    def prepare(self, setup: ContextSetup) -> None:
        """Start making the spare for the next :meth:`take` with ``setup``, unless one is already
        there or on its way."""
        if self._spare is None:
            self._spare = _Spare(setup, asyncio.create_task(open_fresh(self._browser, setup)))

    def abandon(self) -> None:
        """Let the spare go without waiting (its browser is gone, and may never answer): its
        making is cancelled and whatever it raised is collected, never reported as unretrieved."""
        spare, self._spare = self._spare, None
        if spare is not None:
            spare.making.cancel()
            spare.making.add_done_callback(_collect)

    async def close(self) -> None:
        """Close the spare, waiting for its making to end first."""
        spare, self._spare = self._spare, None
        await _discard(spare)


async def _finished(making: asyncio.Task[FreshPage]) -> FreshPage | None:
    """What ``making`` made, or ``None`` when it failed."""
    try:
        return await making
    except Exception:  # whatever went wrong, the page is made again on the spot, where it surfaces
        return None


def _collect(making: asyncio.Task[FreshPage]) -> None:
    if not making.cancelled():
        making.exception()


async def _discard(spare: _Spare | None) -> None:
    """Close the spare's context, if it was made at all."""
    if spare is None:
        return
    fresh = await _finished(spare.making)
    if fresh is not None:
        with suppress(PlaywrightError):
            await fresh.context.close()
