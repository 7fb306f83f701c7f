"""Driving a stock page through a plain schedule: Playwright and the standard library only.

This module imports nothing of webr4, so that an exported regression test
(:mod:`webr4.witness.export`) carries it verbatim and needs only ``pytest`` and ``playwright``.
A schedule is the JSON form of :class:`webr4.witness.schedule.PlainSchedule`: ``url``, ``calls``
(each user step as the Playwright ``Locator`` method and its arguments, ``{"observe": selector}``
for a test's read, or ``{"wait": ms}``), ``holds``, ``timings``, ``held_keys``, ``clock``,
``clock_runs``, ``horizon_ms`` and ``patience_s`` (how long a sign may keep the run waiting while
the page shows nothing new); a sign is ``{"kind", "target"}``.

The context is fresh and has no init script: Playwright serves every response from the HAR as
recorded (``route_from_har``); a page route holds the responses the schedule holds back and lets
each go (``route.fallback``) once its sign has been seen, and refuses a navigation away from the
page (keeping its target), so that the page is read where it was. Signs are what the page shows
anyway: ``requestfinished``, ``domcontentloaded``, ``load``, a step done, a held key down, the
clock run.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import parse_qsl, urlsplit

from playwright.async_api import Browser, Locator, Page, Request, Route, ViewportSize
from playwright.async_api import Error as PlaywrightError

RESPONSE, STEP, CLOCK, DOM_READY, LOAD = "response", "step", "clock", "domcontentloaded", "load"
KEY_DOWN = "key-down"
"""The sign that a held press's key is down (``target``: the session step's number)."""
SETTLED = "settled"
"""A request has ended, with a response or without one (the page aborted it): a sign of the run's
own, which no schedule waits for."""
SETTLE_S = 0.2
"""Real time given to the page after a sign before the schedule acts on it: the task a response
starts (its callback, the script's run, the element's load event) runs in that time."""
QUIET_POLLS = 120
"""How many polls (one every :data:`SETTLE_S` / 8: 3 s or more) a step that waits for a sign also
waits for a quiet page (no request in flight but a held one, for :data:`SETTLE_S`, and its target
visible) before it goes ahead anyway; polls, not seconds, so a busy machine's clock runs as far."""
QUIET_TICK_MS = 4
"""How far a paused clock goes on per poll while a step waits for a quiet page (480 ms in all)."""
ORDER_TIMEOUT_S = 10.0
"""The longest a plain run waits for a sign while the page shows nothing new before it gives the
order up: the ceiling of a schedule's ``patience_s``, and its patience when it has none."""
ORDER_CEILING_S = 60.0
"""The longest a plain run waits for one sign, or one quiet page, while new signs keep coming."""
CLOCK_START_MS = 600_000
"""Where the paused clock starts (``Date.now()`` in a schedule with a clock): well after the
moment it was installed at, as ``pause_at`` only goes forward."""
VIEWPORT: ViewportSize = {"width": 1024, "height": 768}

_STACK_SITE = re.compile(r"\(?((?:https?|file)://[^\s()]+):(\d+):(\d+)\)?\s*$", re.MULTILINE)


def request_key(url: str) -> str:
    """The request a URL names, as webr4's events name it: scheme, host, path and the query's
    keys (an event keeps only the keys of a query that carries cache busters)."""
    parts = urlsplit(url)
    keys = sorted({key for key, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return f"{parts.scheme}://{parts.netloc}{parts.path}?{'&'.join(keys)}"


def sign_key(sign: dict[str, Any]) -> str:
    return f"{sign['kind']}:{sign.get('target', '')}"


def sign_words(sign: dict[str, Any]) -> str:
    kind, target = sign["kind"], sign.get("target", "")
    if kind == RESPONSE:
        return f"the response to {urlsplit(target).path} is received"
    if kind == STEP:
        return f"step {int(target) + 1} is done"
    if kind == KEY_DOWN:
        return f"step {int(target) + 1}'s key is down"
    if kind == CLOCK:
        return f"the clock reaches {target} ms"
    return f"the document's {kind} event has fired"


class _Observed:
    """What the page showed while it ran."""

    def __init__(self) -> None:
        self.signs: dict[str, asyncio.Event] = {}
        self.seen: list[str] = []  # the signs in the order they first came
        self.exceptions: list[list[str | None]] = []
        self.console: list[str] = []
        self.requests: list[str] = []
        self.in_flight: dict[Request, str] = {}  # each request the page is waiting on -> its key
        self.navigation: str | None = None
        self.clock_ms = 0.0
        self.clock_at: dict[str, float] = {}  # each sign -> the paused clock's time when it first came

    def sign(self, kind: str, target: str = "") -> asyncio.Event:
        return self.signs.setdefault(f"{kind}:{target}", asyncio.Event())

    def started(self, request: Request) -> None:
        self.in_flight[request] = request_key(request.url)

    def ended(self, request: Request) -> None:
        self.in_flight.pop(request, None)

    def see(self, kind: str, target: str = "") -> None:
        sign = self.sign(kind, target)
        if not sign.is_set():
            self.seen.append(f"{kind}:{target}")
            self.clock_at[f"{kind}:{target}"] = self.clock_ms
        sign.set()


async def drive(browser: Browser, schedule: dict[str, Any], har: Path, *, dom_script: str, storage_script: str,
                focus_script: str | None = None, trace_to: Path | None = None,
                reads: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
    """Run ``schedule`` in a fresh context of the Playwright ``browser``, the responses served from
    ``har``, and read the end: ``problem`` (``None`` when every sign the schedule waited for came,
    else what did not happen), ``dom`` (what ``dom_script`` returns), ``screenshot`` (PNG bytes),
    ``exceptions`` (``[message, site]`` pairs), ``console`` (``console.error`` texts), ``requests``
    (``METHOD url``, sorted), ``navigation`` (where the page tried to go, or ``None``) and
    ``storage`` (what ``storage_script`` returns), and ``focus`` (what ``focus_script`` returns, when
    given; else ``None``), ``signs`` (the keys of the signs seen, in the order they first came) and
    ``reads`` (per entry of ``reads``, what :func:`read_page` finds at the end). With ``trace_to``,
    a Playwright trace of the run (screenshots and snapshots) is written there."""
    context = await browser.new_context(viewport=VIEWPORT, service_workers=schedule.get("service_workers", "block"))
    try:
        if trace_to is not None:
            await context.tracing.start(screenshots=True, snapshots=True, title=schedule.get("order"))
        await context.route_from_har(har, not_found="abort")
        page = await context.new_page()
        observed = _Observed()
        _listen(page, observed)
        released = {hold["request"]: asyncio.Event() for hold in schedule["holds"]}
        await _route(page, schedule["url"], released, observed)
        if schedule["clock"]:
            await page.clock.install(time=0)
            await page.clock.pause_at(CLOCK_START_MS)
        problem = await _carry_out(page, schedule, observed, released)
        for gate in released.values():
            gate.set()  # nothing stays held while the end state is read
        await _finish(page, schedule, observed)
        problem = problem or _unforced(schedule.get("pair"), observed)
        end = {"problem": problem, "dom": await page.evaluate(dom_script),
               "storage": await page.evaluate(storage_script),
               "focus": await page.evaluate(focus_script) if focus_script else None,
               "screenshot": await page.screenshot(full_page=True, caret="hide", animations="disabled"),
               "exceptions": observed.exceptions, "console": observed.console,
               "requests": sorted(observed.requests), "navigation": observed.navigation,
               "signs": list(observed.seen), "reads": [await read_page(page, read) for read in reads]}
        if trace_to is not None:
            await context.tracing.stop(path=trace_to)
        return end
    finally:
        await context.close()


def _listen(page: Page, observed: _Observed) -> None:
    page.on("request", observed.started)
    page.on("requestfinished", lambda request: observed.see(RESPONSE, request_key(request.url)))
    for ended in ("requestfinished", "requestfailed"):
        page.on(ended, lambda request: observed.see(SETTLED, request_key(request.url)))
        page.on(ended, observed.ended)
    page.on("domcontentloaded", lambda _page: observed.see(DOM_READY))
    page.on("load", lambda _page: observed.see(LOAD))
    page.on("pageerror", lambda error: observed.exceptions.append(_exception(error)))
    page.on("console", lambda message: observed.console.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource") else None)


def _exception(error: PlaywrightError) -> list[str | None]:
    """An uncaught exception as webr4 words it: ``Uncaught Name: message`` at the first frame of
    its stack (the page's own code, served unmodified, so the positions are the source's)."""
    site = _STACK_SITE.search(error.stack or "")
    where = f"{site.group(1)}:{site.group(2)}:{site.group(3)}" if site else None
    return [f"Uncaught {error.name or 'Error'}: {error.message}", where]


async def _route(page: Page, url: str, released: dict[str, asyncio.Event], observed: _Observed) -> None:
    """Hold the responses of ``released``'s requests until each is released, refuse a navigation
    away from ``url`` (keeping its target) and note every request the page makes."""

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


def _unforced(pair: list[dict[str, Any]] | None, observed: _Observed) -> str | None:
    """What went wrong when the racing pair's second sign came before its first (a lever that did
    not hold: a load nothing the schedule held was still waiting for), else ``None``."""
    if not pair:
        return None
    first, second = (f"{sign['kind']}:{sign.get('target', '')}" for sign in pair)
    seen = observed.seen
    if second in seen and (first not in seen or seen.index(first) > seen.index(second)):
        return f"{sign_words(pair[1])} before {sign_words(pair[0])} in plain Chromium: no lever held it back"
    return None


async def _carry_out(page: Page, schedule: dict[str, Any], observed: _Observed,
                     released: dict[str, asyncio.Event]) -> str | None:
    """Load the page and carry out the schedule; ``None`` when every sign it waited for came, else
    what did not happen, in words."""
    try:
        await page.goto(schedule["url"], wait_until="commit")
    except PlaywrightError as error:
        return f"the page did not load in plain Chromium: {str(error).splitlines()[0]}"
    observed.see(RESPONSE, request_key(schedule["url"]))
    run = _ScheduleRun(page, schedule, observed, released)
    await asyncio.gather(*[run.release(hold["request"], hold["until"]) for hold in schedule["holds"]],
                         run.clock(), run.steps())
    return run.problems[0] if run.problems else None


class _ScheduleRun:
    """A schedule being carried out on a loaded page: its holds released, its clock run and its
    steps performed side by side, each when its sign has come. ``problems`` collects what did not
    happen, in words, in the order it was found."""

    def __init__(self, page: Page, schedule: dict[str, Any], observed: _Observed,
                 released: dict[str, asyncio.Event]) -> None:
        self.page = page
        self.schedule = schedule
        self.observed = observed
        self.released = released  # each held request -> set once its response may go
        self.problems: list[str] = []
        self.timings = {timing["step"]: timing["after"] for timing in schedule["timings"]}
        self.held_keys = {held["step"]: held["up_after"] for held in schedule["held_keys"]}
        self.patience = min(float(schedule.get("patience_s", ORDER_TIMEOUT_S)), ORDER_TIMEOUT_S)
        self.ticking = asyncio.Lock()  # one clock run at a time
        self.steps_done = 0  # how many of the session's steps have been performed
        self.steps_over = False  # the steps are done, or stopped at one that could not go ahead

    async def wait(self, sign: dict[str, Any] | None) -> bool:
        """Until ``sign`` has come and :data:`SETTLE_S` more (``None``: at once); ``False``, with the
        problem noted, when it did not come within the schedule's ``patience_s`` (a step's sign, the
        run's own: :data:`ORDER_TIMEOUT_S`), counted again while the page shows new signs or the
        steps go on (a busy machine), within :data:`ORDER_CEILING_S` in all."""
        if sign is None:
            return True
        came = self.observed.sign(sign["kind"], sign.get("target", ""))
        step, started, going_on = sign["kind"] == STEP, time.monotonic(), True
        while going_on and not came.is_set():
            steps_done, shown = self.steps_done, len(self.observed.seen)
            until = time.monotonic() + (ORDER_TIMEOUT_S if step else self.patience)
            while not came.is_set() and time.monotonic() < until and not (step and self.steps_over):
                await asyncio.sleep(SETTLE_S / 8)
            progressed = len(self.observed.seen) > shown or (step and self.steps_done > steps_done)
            going_on = (progressed and not (step and self.steps_over)
                        and time.monotonic() - started < ORDER_CEILING_S)
        if not came.is_set():
            self.problems.append(f"{sign_words(sign)} never happened in plain Chromium "
                                 f"(waited {time.monotonic() - started:.0f} s)")
            return False
        await asyncio.sleep(SETTLE_S)
        return True

    async def release(self, request: str, sign: dict[str, Any]) -> None:
        """Let ``request``'s held response go once ``sign`` has come (or was given up)."""
        await self.wait(sign)
        self.released[request].set()
        try:  # what the response starts runs before the schedule goes on (the page may have aborted it)
            await asyncio.wait_for(self.observed.sign(SETTLED, request).wait(), ORDER_TIMEOUT_S)
        except asyncio.TimeoutError:
            return
        await asyncio.sleep(SETTLE_S)

    async def quiet(self, target: str) -> None:
        """Until no request but a held one has been in flight for :data:`SETTLE_S` and ``target``
        is visible, at most :data:`QUIET_POLLS` after the last request in flight, or
        :data:`ORDER_TIMEOUT_S` after the last new sign while requests stay in flight: a step runs
        on a quiet page whose due timers have run, as in webr4. With a clock, it goes on by
        :data:`QUIET_TICK_MS` a poll meanwhile (short of a racing timer whose sign has not come)."""
        loop = asyncio.get_running_loop()
        start = calm_since = news_since = loop.time()
        shown, calm_polls = len(self.observed.seen), 0
        while calm_polls < QUIET_POLLS and loop.time() < start + ORDER_CEILING_S:
            calm_polls += 1
            if len(self.observed.seen) > shown:
                shown, news_since = len(self.observed.seen), loop.time()
            if self.schedule["clock"]:
                await self.run_clock(min(self.observed.clock_ms + QUIET_TICK_MS, self.ceiling()), due_now=True)
            if any(key not in self.released or self.released[key].is_set()
                   for key in self.observed.in_flight.values()):
                if loop.time() - news_since >= ORDER_TIMEOUT_S:  # requests in flight, nothing new
                    return
                calm_since, calm_polls = loop.time(), 0
            elif loop.time() - calm_since >= SETTLE_S and await _visible(self.page, target):
                return
            await asyncio.sleep(SETTLE_S / 8)

    async def run_clock(self, to_ms: float, due_now: bool = False) -> None:
        """Run the paused clock on to ``to_ms``; with ``due_now``, fire the timers due by then even
        when it is there already."""
        async with self.ticking:
            if to_ms > self.observed.clock_ms:
                await self.page.clock.run_for(int(to_ms - self.observed.clock_ms))
                self.observed.clock_ms = to_ms
            elif due_now and to_ms >= self.observed.clock_ms:  # timers set since, due by now: a paused clock fires none
                await self.page.clock.run_for(0)
            else:
                return
            self.fired_held()

    def fired_held(self) -> None:
        """See the sign of each run that only holds whose timer the clock has just run to: it has
        fired (a timer due where the clock stands, set since its last run, has not)."""
        for run in self.schedule["clock_runs"]:
            if not run["forward"] and (run.get("created") is None or self.seen(run["created"])) \
                    and _due(run, self.observed) <= self.observed.clock_ms:
                self.observed.see(CLOCK, f"{run['to_ms']:g}")

    def seen(self, sign: dict[str, Any] | None) -> bool:
        return sign is not None and self.observed.sign(sign["kind"], sign.get("target", "")).is_set()

    def ceiling(self) -> float:
        """How far the clock may go now: short of every racing timer whose sign has not come (of
        its due time as webr4 had it, or, once the event that sets it has been seen, as the plain
        clock has it: ``delay_ms`` after the clock then); free before a timer exists."""
        held = []
        for run in self.schedule["clock_runs"]:
            created = run.get("created")
            if self.seen(run["after"]) or (created is not None and not self.seen(created)):
                continue
            start = self.observed.clock_at.get(sign_key(created), 0.0) if created is not None else None
            held.append(run["to_ms"] - 1 if start is None else start + run.get("delay_ms", 0.0) - 1)
        return min(held, default=float("inf"))

    async def clock(self) -> None:
        """Make the schedule's clock runs in order of their times, each once its sign, and the
        start of its timer's chain, have come; a run that only holds ends with its sign (the
        schedule is not carried out before it, and the end's clock run waits for it)."""
        for run in sorted(self.schedule["clock_runs"], key=lambda r: r["to_ms"]):
            if not await self.wait(run["after"]):
                return
            if not run["forward"]:
                continue
            if not await self.wait(run.get("created")):
                return
            await self.run_clock(_due(run, self.observed), due_now=True)
            self.observed.see(CLOCK, f"{run['to_ms']:g}")
            await asyncio.sleep(SETTLE_S)

    async def steps(self) -> None:
        """Perform the user's steps in order, each once its sign has come; stop at the first that
        cannot go ahead."""
        for number, call in enumerate(self.schedule["calls"]):
            if "wait" in call:
                await asyncio.sleep(float(call["wait"]) / 1000)
                continue
            if not await self.step(number, call):
                break
        self.steps_over = True

    async def step(self, number: int, call: dict[str, Any]) -> bool:
        """Perform step ``number`` once its sign has come, on a page as webr4 had it by then;
        ``False`` (the problem noted) when the schedule cannot go on."""
        after = self.timings.get(number, {"kind": LOAD, "target": ""})
        if not await self.wait(after):
            return False
        step_times = self.schedule["step_times"]
        recorded = step_times[number] if number < len(step_times) else -1
        if self.schedule["clock"] and recorded >= 0:  # the page's timers up to the step, as they ran in webr4
            await self.run_clock(min(recorded, self.ceiling()))
            await asyncio.sleep(SETTLE_S)
        if after is not None:  # a fast user acts at once; any other step waits for a quiet page
            await self.quiet(call.get("selector") or call["observe"])
        # After a quiet page's wait for its target, the patience; a fast user's target may still be loading.
        timeout_ms = (self.patience if after is not None else ORDER_TIMEOUT_S) * 1000
        try:  # (the test's own read, "observe", has nothing to do to the page)
            locator = self.page.locator(call.get("selector") or call["observe"]).first  # as webr4: the first match
            if number in self.held_keys:
                await self.hold_key(number, locator, call["args"][0], timeout_ms)
            elif "observe" not in call:
                await getattr(locator, call["method"])(*call["args"], timeout=timeout_ms)
        except PlaywrightError as error:
            if not self.forced():
                self.problems.append(f"step {number + 1} ({call['method']} on {call['selector']}) failed in plain "
                                     f"Chromium: {str(error).splitlines()[0]}")
                return False
            # The order was forced before it: a step that cannot happen now (its target never
            # appeared: the todo was lost) is part of the outcome, as in webr4's own run.
        self.steps_done += 1
        self.observed.see(STEP, str(number))
        return True

    async def hold_key(self, number: int, locator: Locator, key: str, timeout_ms: float) -> None:
        """Press ``key`` on ``locator`` as ``press`` does (focus it within ``timeout_ms``, the key down
        and up), the key held down until step ``number``'s ``up_after`` sign has come (or was given up)."""
        await locator.focus(timeout=timeout_ms)
        keys = _chord(key)
        for name in keys:
            await self.page.keyboard.down(name)
        self.observed.see(KEY_DOWN, str(number))
        await self.wait(self.held_keys[number])
        for name in reversed(keys):
            await self.page.keyboard.up(name)

    def forced(self) -> bool:
        """Whether every hold was released and every clock run made (a run that only holds: its
        sign seen): the order is decided."""
        return all(gate.is_set() for gate in self.released.values()) and all(
            self.seen(run["after"] if not run["forward"] else {"kind": CLOCK, "target": f"{run['to_ms']:g}"})
            for run in self.schedule["clock_runs"])


def _due(run: dict[str, Any], observed: _Observed) -> float:
    """When a clock run's timer is due on the plain clock: its time in webr4's order or, once the
    event that sets it going has come, ``delay_ms`` after the clock then, whichever is later."""
    created = run.get("created")
    start = observed.clock_at.get(sign_key(created)) if created is not None else None
    return float(run["to_ms"]) if start is None else max(float(run["to_ms"]), start + run.get("delay_ms", 0.0))


def _chord(key: str) -> list[str]:
    """The keys of a ``press`` key string, modifiers first (``"Shift+A"`` → ``["Shift", "A"]``;
    a ``+`` after a ``+`` is the plus key itself), as Playwright's ``press`` splits it."""
    names = key.split("+")
    if len(names) > 1 and names[-1] == "":  # "Shift++": the last key is "+"
        names = [*names[:-2], "+"]
    return names


READ_KINDS = ("count", "text", "value", "checked", "visible", "attribute")


async def read_page(page: Page, read: dict[str, str]) -> Any:
    """What the page shows of ``read["selector"]`` as a web-first assertion sees it (``kind`` one
    of :data:`READ_KINDS`; ``name``: the attribute's): how many elements match, or of the first,
    its text content with white space collapsed, form value, checked state, visibility or
    attribute (``None`` when there is no such element, or it has no such state)."""
    locator = page.locator(read["selector"])
    try:
        if read["kind"] == "count":
            return await locator.count()
        if read["kind"] == "visible":
            return await locator.first.is_visible()
        if await locator.count() == 0:
            return None
        first = locator.first
        if read["kind"] == "text":
            return " ".join((await first.text_content(timeout=1000) or "").split())
        if read["kind"] == "value":
            return await first.input_value(timeout=1000)
        if read["kind"] == "checked":
            return await first.is_checked(timeout=1000)
        return await first.get_attribute(read["name"], timeout=1000)
    except PlaywrightError:
        return None


async def _visible(page: Page, selector: str) -> bool:
    """Whether the first element ``selector`` matches is visible (an invalid selector: no)."""
    try:
        return await page.locator(selector).first.is_visible()
    except PlaywrightError:
        return False


async def _finish(page: Page, schedule: dict[str, Any], observed: _Observed) -> None:
    """Let the page come to rest: its ``load`` (bounded), the clock run to the horizon
    (:func:`_horizon`) and on, firing what is due there (a timer held back to the end), a settle."""
    try:
        await page.wait_for_load_state("load", timeout=ORDER_TIMEOUT_S * 1000)
    except PlaywrightError:
        pass
    horizon = _horizon(schedule, observed)
    if schedule["clock"] and horizon >= observed.clock_ms:
        await page.clock.run_for(int(horizon - observed.clock_ms) + 1)
        observed.clock_ms = horizon
    await asyncio.sleep(SETTLE_S * 2)


def _horizon(schedule: dict[str, Any], observed: _Observed) -> float:
    """How far the plain clock runs at the end: to the schedule's horizon, and as far past the last
    step performed as webr4's horizon was past that step (the plain clock goes on while steps wait
    for a quiet page, so a timer a late step sets is due later than in webr4), and past every
    racing timer's due time on the plain clock."""
    last = max((n for n, at in enumerate(schedule["step_times"]) if at >= 0
                and observed.sign(STEP, str(n)).is_set()), default=None)
    after_last = [] if last is None else [observed.clock_at[f"{STEP}:{last}"] + schedule["horizon_ms"]
                                          - schedule["step_times"][last]]
    return max([schedule["horizon_ms"], *after_last] + [_due(run, observed) for run in schedule["clock_runs"]])
