"""The channel to the page runtime of one controlled run: calls into ``window.__webr4`` and the
records they return, each checked against its schema (:mod:`webr4.browser.records`), and the
probes of a page whose script hangs (busy, heap, terminate).

Calls go through CDP, not ``page.evaluate``: Playwright's evaluation helpers run in the page's
own world and pass arguments and results with the page's builtins (array methods, ``Map``,
``Function.prototype.call``), so a page that replaced those would see every call. A crashed
renderer never answers over CDP, so a crash fails the call in flight at once.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Collection, Mapping

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from webr4.browser.records import ActuationRequest, Opening, StepReport, StretchReport, parse, parse_reply
from webr4.trace import EventId

_BUSY_PROBE_S = 1.0  # how long a page busy in a script takes to answer before it counts as looping


class PageChannel:
    """Calls into the runtime of ``page`` over ``cdp`` (opened before the run: a busy renderer
    cannot attach a new session); :meth:`close` once the run is over."""

    def __init__(self, page: Page, cdp: CDPSession) -> None:
        self.page = page
        self.cdp = cdp
        self._crashed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        page.on("crash", self._on_crash)

    def close(self) -> None:
        """Let go of the page: its listener would tie this channel, and what holds it, into the
        page's reference cycles until a full collection."""
        self.page.remove_listener("crash", self._on_crash)

    def _on_crash(self, _: Page) -> None:
        if not self._crashed.done():
            self._crashed.set_result(None)

    async def call(self, method: str, *args: Any) -> Any:
        """``window.__webr4[method](*args)`` in the page, awaited; None before the runtime exists."""
        arguments = ", ".join(json.dumps(arg) for arg in args)
        expression = f"window.__webr4 ? window.__webr4.{method}({arguments}) : null"
        call = asyncio.ensure_future(self.cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                                        "returnByValue": True}))
        either: list[asyncio.Future[Any]] = [call, self._crashed]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if not call.done():
            call.cancel()
            raise PlaywrightError("Target crashed")
        reply = call.result()
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            text = str(details.get("exception", {}).get("description") or details.get("text") or "an exception")
            raise PlaywrightError(f"the page runtime failed in {method}: {text.splitlines()[0]}")
        return reply["result"].get("value")

    # ------------------------------------------------------------------ the runtime's API
    async def start(self, chunks: int,
                    logged_events: Collection[EventId] | None = None) -> Opening | ActuationRequest | None:
        """Start the run in a document of ``chunks`` parse chunks, the page logging the accesses of
        ``logged_events`` alone from then on (None: every event's): the opening once the head is
        parsed, a request to release a script the head wrote first, ``None`` before the runtime
        is there."""
        raw = await self.call("start", chunks, None if logged_events is None else sorted(logged_events))
        if raw is None:
            return None
        return parse(ActuationRequest, raw, "actuation") if "actuate" in raw else parse(Opening, raw, "opening")

    async def begin(self, event_id: EventId) -> StepReport | ActuationRequest:
        """Run ``event_id``: its step report, or what to release at the network first."""
        return parse_reply(await self.call("begin", event_id))

    async def finish(self, event_id: EventId, actuation: Mapping[str, Any]) -> StepReport | ActuationRequest:
        """Finish ``event_id`` once ``actuation`` was released: its step report, or a script it
        wrote that must be released before it can."""
        return parse_reply(await self.call("finish", event_id, actuation))

    async def user_begin(self, event_id: EventId, due: float) -> None:
        """A user step begins, at virtual time ``due``."""
        await self.call("userBegin", event_id, due)

    async def user_finish(self, event_id: EventId) -> StepReport:
        """The step report of the user step ``event_id``, once performed."""
        return parse(StepReport, await self.call("finish", event_id, {"kind": "user"}), "step report")

    async def run_stretch(self, follower: Mapping[str, Any], horizon_ms: float, budget: int,
                          slice_ms: int) -> StretchReport:
        """Let the page choose and run events by itself, following the plan from the state
        ``follower`` (the page's form of the plan follower), for at most ``budget`` events and
        ``slice_ms`` of wall time."""
        text = await self.call("runStretch", follower, horizon_ms, budget, slice_ms)
        return parse(StretchReport, json.loads(text), "stretch report")

    async def drain_stretch(self) -> StretchReport | None:
        """What a stopped stretch finished, or None when the page cannot say."""
        try:
            text = await asyncio.wait_for(self.call("drainStretch"), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            return None
        return parse(StretchReport, json.loads(text), "stretch report")

    # ------------------------------------------------------------------ a hanging script
    async def script_busy(self) -> bool:
        """Whether the page's main thread is running a script: it cannot answer an evaluation."""
        try:
            await asyncio.wait_for(self.page.evaluate("0"), _BUSY_PROBE_S)
        except asyncio.TimeoutError:
            return True
        except PlaywrightError:
            return False
        return False

    async def heap_mb(self) -> float | None:
        """The page's JavaScript heap in use, in MB (``None`` when the page does not say)."""
        try:
            usage = await asyncio.wait_for(self.cdp.send("Runtime.getHeapUsage"), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            return None
        return float(usage["usedSize"]) / 2**20

    async def terminate_script(self) -> None:
        """Stop the script the page is running."""
        try:
            await asyncio.wait_for(self.cdp.send("Runtime.terminateExecution"), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            pass
