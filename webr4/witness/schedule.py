"""Plain schedules: how a stock Chromium is made to run one racing pair in a given order.

A schedule forces the order of the two events of a reversal with levers a real browser and
network offer, through Playwright's public API, and with no code of webr4's in the page:

* **holding a response** (a script, an image, an XHR or fetch, a parser-blocking script that
  starts a parse chunk, the page's images the window's ``load`` waits for) until a sign that the
  other event has happened, then releasing it (:class:`~webr4.witness.levers.Hold`; every lever
  is a dataclass of :mod:`webr4.witness.levers`);
* **Playwright's clock**, installed and paused, run to a timer's due time once the other event
  has happened (:class:`ClockRun`);
* **when a user step runs**: as soon as its target is actionable (acting early, while a
  response is held, once the page has loaded as far as webr4's order had) or only after a sign
  (:class:`StepTiming`);
* **how long a key is held**: a press's key goes down, and comes up only after a sign
  (:class:`HeldKey`), as a user holding the key does.

A sign (:class:`Sign`) is something a page shows anyway: a response received, the document's
``DOMContentLoaded`` or ``load``, a user step done, a press's key down, the clock at a time. Everything else in the
page runs as the browser runs it. A timer due after another runs first when what sets the other
going (a user step, a response) can wait for it. When an order needs a lever no browser offers (two
timers of one chain against their due time, a parse boundary inside one network read, an event
nothing holds back), :func:`plain_schedules` says so with :class:`NotForceable`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Mapping
from webr4.timer_order import NoLaterStart, chain_offset, chain_start, start_to_delay, timer_delay
from webr4.trace import Category, Event, EventId, Trace
from webr4.useractions import ACTIONS, OBSERVATIONS
from webr4.witness.levers import ClockRun, HeldKey, Hold, Sign, StepTiming
from webr4.witness.pagefacts import PageFacts
from webr4.witness.plain import CLOCK, DOM_READY, KEY_DOWN, LOAD, ORDER_TIMEOUT_S, RESPONSE, STEP, request_key

PATIENCE_FACTOR = 3.0
PATIENCE_FLOOR_S = 5.0
"""How long a plain run waits for a missing sign at least: half the ceiling, a margin a page
loading on a machine at load 10 keeps; one that shows new signs is waited for longer."""


@dataclass(frozen=True)
class PlainSchedule:
    """One order of one pair, for a stock page: ``url`` loaded with the session's ``steps`` (as
    ``session.json`` has them), ``order`` in words, and the levers. A step without a timing runs
    after the page's ``load`` and the step before it; every step that waits for a sign (all but
    a fast user's) then also waits for a quiet page (:func:`webr4.witness.plain.drive`). With
    ``clock``, Playwright's clock is installed paused before the page loads, run as ``clock_runs``
    say, before each step to the virtual time the step ran at in webr4's trace of this order
    (``step_times``: so the page's other timers fire by then, as they did there, but never past a
    racing timer whose sign has not come), and to ``horizon_ms`` at the end (at least as far past
    the last step as ``horizon_ms`` is past its time in ``step_times``). A press in ``held_keys``
    keeps its key down until a sign. ``pair`` is the signs
    of the racing pair's two events in the order this schedule forces: the run checks that the
    first came first, so that a lever that failed to hold never passes for a forced order.
    ``patience_s`` is how long the run waits for a missing sign (:func:`patience`)."""

    url: str
    steps: tuple[Mapping[str, Any], ...]
    order: str
    holds: tuple[Hold, ...] = ()
    timings: tuple[StepTiming, ...] = ()
    held_keys: tuple[HeldKey, ...] = ()
    clock: bool = False
    clock_runs: tuple[ClockRun, ...] = ()
    horizon_ms: float = 0.0
    step_times: tuple[float, ...] = ()  # per session step, the virtual ms it ran at in this order's trace
    pair: tuple[Sign, Sign] | None = None
    service_workers: str = "block"  # Playwright's context option, as the session had it
    patience_s: float = ORDER_TIMEOUT_S

    def timing(self, step: int) -> StepTiming:
        """When step ``step`` runs (after ``load`` unless the schedule says otherwise)."""
        return next((t for t in self.timings if t.step == step), StepTiming(step, Sign(LOAD)))

    @property
    def calls(self) -> list[dict[str, Any]]:
        """Each step as the Playwright ``Locator`` method that performs it and its arguments
        (:data:`~webr4.useractions.ACTIONS`), ``{"observe": selector}`` for a test's read or
        assertion (nothing to do in a plain page, a step all the same), or ``{"wait": ms}``."""
        calls: list[dict[str, Any]] = []
        for step in self.steps:
            kind = next((k for k in step if k in ACTIONS), None)
            if kind is None:
                calls.append({"wait": float(step.get("wait", 0))})
                continue
            action = ACTIONS[kind]
            if kind in OBSERVATIONS:  # a test's read or assertion: the test's, not the page's
                calls.append({"observe": str(step[kind])})
                continue
            calls.append({"method": action.method, "selector": str(step[kind]),
                          "args": [str(step[name]) for name in action.arguments]})
        return calls

    def to_json(self) -> dict[str, Any]:
        """The form :func:`webr4.witness.plain.drive` runs (``steps`` as ``calls`` too)."""
        return {**asdict(self), "steps": [dict(step) for step in self.steps], "calls": self.calls}


@dataclass(frozen=True)
class NotForceable:
    """No lever of a stock browser forces the order: ``lever`` says which one is missing."""

    lever: str


@dataclass
class _Levers:
    """The constraints collected while forcing one order."""

    holds: list[Hold] = field(default_factory=list)
    timings: list[StepTiming] = field(default_factory=list)
    held_keys: list[HeldKey] = field(default_factory=list)
    clock_runs: list[ClockRun] = field(default_factory=list)
    horizon_ms: float = 0.0  # how far the clock must run at the end for the forced order to complete
    second_shows: bool = True  # whether the second event's own sign still tells when it happened


def plain_schedules(page: PageFacts, parent: Trace, child: Trace, first: EventId, second: EventId,
                    ) -> tuple[PlainSchedule, PlainSchedule] | NotForceable:
    """The plain schedules of the parent order (``first`` before ``second``) and of the reversed
    order (``second`` before ``first``), or why a stock browser cannot be made to run one of them."""
    events = {**parent.events, **child.events}
    if first not in events or second not in events:
        return NotForceable("the racing events are not in the traces")
    times = {step.event: step.time for trace in (child, parent) for step in trace.steps}
    a, b = events[first], events[second]
    orders = []
    for before, after, trace, other in ((a, b, parent, child), (b, a, child, parent)):
        levers = _force(page, before, after, events, times, trace, other)
        if isinstance(levers, NotForceable):
            return levers
        signs = _sign(page, before, times), _sign(page, after, times) if levers.second_shows else None
        pair = (signs[0], signs[1]) if signs[0] is not None and signs[1] is not None else None
        orders.append((f"{before.label} before {after.label}", levers, pair))
    clock = any(levers.clock_runs for _order, levers, _pair in orders)
    horizon = max([step.time for trace in (parent, child) for step in trace.steps] + [0.0])
    schedules = [PlainSchedule(page.url, tuple(page.steps), order, tuple(levers.holds), tuple(levers.timings),
                               tuple(levers.held_keys), clock, tuple(levers.clock_runs),
                               max(horizon, levers.horizon_ms), _step_times(page, trace), pair, page.service_workers,
                               patience(abs(times.get(a.id, 0.0) - times.get(b.id, 0.0))))
                 for (order, levers, pair), trace in zip(orders, (parent, child))]
    return schedules[0], schedules[1]


def patience(gap_ms: float) -> float:
    """How long a plain run of a pair recorded ``gap_ms`` virtual ms apart waits for a sign that
    does not come before it gives the order up: :data:`PATIENCE_FACTOR` times that gap, at least
    :data:`PATIENCE_FLOOR_S` and at most :data:`~webr4.witness.plain.ORDER_TIMEOUT_S`. A pair a
    second apart (a response and a watchdog's timer) is given three; two events of one page load
    are given the floor, where a fixed wait of the ceiling made an order that cannot be forced
    cost ten seconds a sign (and a step whose target never appears, ten seconds a step). The run
    waits on while the page shows new signs (:meth:`webr4.witness.plain._ScheduleRun.wait`), up
    to the ceiling."""
    return min(max(PATIENCE_FACTOR * gap_ms / 1000, PATIENCE_FLOOR_S), ORDER_TIMEOUT_S)


def _step_times(page: PageFacts, trace: Trace) -> tuple[float, ...]:
    """Per session step, the virtual ms its first user event ran at in ``trace`` (-1: it did not run)."""
    times = [-1.0] * len(page.steps)
    for step in reversed(trace.steps):
        event = trace.events.get(step.event)
        if event is not None and event.category is Category.USER:
            number = page.user_steps.get(event.params.get("index", -1))
            if number is not None:
                times[number] = step.time
    return tuple(times)


def _force(page: PageFacts, a: Event, b: Event, events: Mapping[EventId, Event],
           times: Mapping[EventId, float], trace: Trace, other: Trace) -> _Levers | NotForceable:
    """The levers that make ``a`` happen before ``b`` in a plain page, as in ``trace`` (webr4's
    execution of that order; ``other`` is its execution of the other order)."""
    levers = _Levers()
    sign = _sign(page, a, times) or _creator_sign(page, a, events, times)
    if sign is None:
        return NotForceable(f"no sign a plain page shows tells when {a.label} has happened")
    if a.category is Category.TIMER:
        created = _chain_sign(page, a, events, times) or (None, 0.0)
        levers.clock_runs.append(ClockRun(times.get(a.id, 0.0), _start_sign(page, a, events, times), *created))
    if b.category is Category.USER:
        step = page.user_steps.get(b.params.get("index", -1))
        if step is None:
            return NotForceable(f"{b.label} is no step of the session")
        earlier = page.user_steps.get(a.params.get("index", -1)) if a.category is Category.USER else None
        if earlier is not None and earlier >= step:
            return NotForceable(f"{a.label} comes no earlier than {b.label} in the session: a user acts in order, "
                                "and Playwright performs one step in one call")
        begun = _begun_step(page, step, a, trace)
        if begun is None:
            levers.timings.append(StepTiming(step, sign))
        else:
            unsplit = _hold_key(step, begun, a, b, sign, levers)
            if unsplit is not None:
                return unsplit
    elif b.category is Category.TIMER and a.category is Category.TIMER and times.get(a.id, 0.0) >= times.get(b.id, 0.0):
        delayed = _delay_chain(page, a, b, sign, events, times)
        if isinstance(delayed, NotForceable):
            return delayed
        if isinstance(delayed, Hold):
            levers.holds.append(delayed)
        else:
            levers.timings.append(delayed)
        levers.horizon_ms = _chain_due(a, b, events, times)
        levers.second_shows = False
    elif b.category is Category.TIMER:
        # Held short of ``b`` until ``a``, and no further: what webr4's order ran between ``a`` and
        # ``b`` (steps on time, other timers) runs before ``b`` as it did there.
        chain = _chain_sign(page, b, events, times)
        levers.clock_runs.append(ClockRun(times.get(b.id, 0.0), sign, chain[0] if chain else None,
                                          chain[1] if chain else 0.0, forward=False))
    else:
        held = _held_requests(page, b, _after(trace, a.id, events), events)
        if isinstance(held, NotForceable):
            return held
        levers.holds.extend(Hold(request, sign) for request in held)
    if a.category is Category.USER:
        _act_early(page, a, trace, other, events, levers)
    return levers


def _begun_step(page: PageFacts, step: int, a: Event, trace: Trace) -> Event | None:
    """The user event of session step ``step`` that ``trace`` ran before ``a``, if any: holding
    the step back until ``a`` holds that event back too (a key that goes down, then up)."""
    for event_id in trace.sequence:
        if event_id == a.id:
            return None
        event = trace.events.get(event_id)
        if event is not None and event.category is Category.USER \
                and page.user_steps.get(event.params.get("index", -1)) == step:
            return event
    return None


def _hold_key(step: int, down: Event, a: Event, b: Event, up_after: Sign,
              levers: _Levers) -> None | NotForceable:
    """Force ``a`` between the two events of step ``step`` as webr4's order ran it (after
    ``down``, before ``b``): the step's key goes down on time and stays down until ``up_after``
    (``a`` has happened), and ``a`` waits for the key to be down: its clock run (the last one
    ``levers`` has) or its response. A press is the one step of two user events, its keydown and
    keyup (:data:`~webr4.useractions.ACTIONS`). ``None`` once forced so, else why it cannot be."""
    key_down = Sign(KEY_DOWN, str(step))
    if a.category is Category.TIMER:
        levers.clock_runs[-1] = replace(levers.clock_runs[-1], after=key_down)
    elif (url := _url(a)) is not None:
        levers.holds.append(Hold(request_key(url), key_down))
    else:
        return NotForceable(f"webr4's order ran {a.label} after {down.label} and before {b.label}, and nothing "
                            f"holds {a.label} back until the key is down")
    levers.held_keys.append(HeldKey(step, up_after))
    return None


def _delay_chain(page: PageFacts, a: Event, b: Event, until: Sign, events: Mapping[EventId, Event],
                 times: Mapping[EventId, float]) -> Hold | StepTiming | NotForceable:
    """How timer ``a``, due no earlier than timer ``b``, still runs first: a clock fires timers by
    due time, but ``b`` exists only once its chain of timers has started, so holding back the
    event that starts it (a user step, or a response: :func:`~webr4.timer_order.start_to_delay`,
    the lever webr4's own reversals use) until ``until`` (``a`` has fired) makes ``b`` due after
    ``a``. Not when ``a`` descends from that event too, or needs a later step."""
    cannot = f"{a.label} is due no earlier than {b.label} (a clock fires timers by due time)"
    root = start_to_delay(a, b, events)
    if isinstance(root, NoLaterStart):
        return NotForceable(f"{cannot}, and {root.reason}")
    if root.category is Category.USER:
        step = page.user_steps.get(root.params.get("index", -1))
        start = _start_sign(page, a, events, times)
        if step is None:
            return NotForceable(f"{cannot}, and {root.label}, which sets it going, is no step of the session")
        if start.kind == STEP and int(start.target) >= step:
            return NotForceable(f"{cannot}, and {root.label}, which sets it going, comes no later than the step "
                                f"that sets {a.label}")
        return StepTiming(step, until)
    url = _url(root)
    if url is None:
        return NotForceable(f"{cannot}, and nothing holds back {root.label}, which sets it going")
    return Hold(request_key(url), until)


def _chain_due(a: Event, b: Event, events: Mapping[EventId, Event], times: Mapping[EventId, float]) -> float:
    """When timer ``b`` is due once the start of its chain (held until ``a`` has fired) runs: its
    chain's delays after ``a``'s time."""
    return times.get(a.id, 0.0) + chain_offset(b, events)


def _act_early(page: PageFacts, a: Event, trace: Trace, other: Trace, events: Mapping[EventId, Event],
               levers: _Levers) -> None:
    """Step ``a`` runs as soon as its target is actionable, and so does each step before it that
    webr4's order (``trace``) ran before the window's ``load`` (where a step runs by default) or
    earlier in virtual time than its other order (``other``) did: the order needed a fast user
    there. A step it ran as the other order did keeps its own timing (after ``load``, on a quiet
    page): acting on it early would run it on a page that had not yet wired it up, which webr4's
    order never did. An early step still does not overtake the loading webr4's order had done
    before it: it waits for the sign of the last parse chunk or ``DOMContentLoaded`` that ran
    before it in ``trace``, unless one of ``levers``' holds keeps that sign back (then the one
    before)."""
    last = page.user_steps.get(a.params.get("index", -1), -1)
    here, there, before_load = _step_times(page, trace), _step_times(page, other), _before_load(page, trace)
    early = [n for n in range(last + 1) if n == last or n in before_load
             or min(here[n], there[n]) < 0 or here[n] < there[n]]
    held = {hold.request for hold in levers.holds}
    parser_free = not any(_may_block_parsing(page, request, events) for request in held)
    loaded: Sign | None = None
    after: dict[int, Sign | None] = {}
    for step in trace.steps:
        event = trace.events.get(step.event)
        if event is None:
            continue
        if event.category is Category.USER:
            number = page.user_steps.get(event.params.get("index", -1))
            if number is not None and number <= last:
                after.setdefault(number, loaded)
            continue
        progress = _loading_sign(page, event)
        if progress is not None and (progress.target not in held if progress.kind == RESPONSE else parser_free):
            loaded = progress
    levers.timings[:0] = [StepTiming(n, after.get(n)) for n in early]


def _loading_sign(page: PageFacts, event: Event) -> Sign | None:
    """The sign of ``event`` when it is the document's loading (a parse chunk after the head, or
    ``DOMContentLoaded``), else ``None``."""
    if event.category is Category.PARSE and int(event.params.get("index", -1)) >= 0:
        return _sign(page, event, {})
    if event.category is Category.LIFECYCLE and event.type == "DOMContentLoaded":
        return Sign(DOM_READY)
    return None


def _may_block_parsing(page: PageFacts, request: str, events: Mapping[EventId, Event]) -> bool:
    """Whether holding ``request`` may hold the parser (and so ``DOMContentLoaded``) back: all but
    an image and an XHR's or fetch's response may (a script, a style sheet scripts wait for)."""
    if request in _images(page, events):
        return False
    return not any(e.category is Category.NETWORK and e.type in ("xhr", "fetch") and (url := _url(e))
                   and request_key(url) == request for e in events.values())


def _images(page: PageFacts, events: Mapping[EventId, Event]) -> list[str]:
    """The request keys of the page's images: those the session recorded (a style sheet's
    background has no event) and those of ``<img>`` loads."""
    elements = {request_key(url) for e in events.values() if e.category is Category.NETWORK and e.type == "load"
                and e.params.get("tag") == "img" and (url := _url(e))}
    return sorted(elements | set(page.images))


def _before_load(page: PageFacts, trace: Trace) -> set[int]:
    """The session steps whose first user event ``trace`` ran before the window's ``load`` (every
    step it ran, when it ran no ``load``)."""
    steps: set[int] = set()
    for event_id in trace.sequence:
        event = trace.events.get(event_id)
        if event is None:
            continue
        if event.category is Category.LIFECYCLE and event.label == "window load":
            return steps
        number = page.user_steps.get(event.params.get("index", -1)) if event.category is Category.USER else None
        if number is not None:
            steps.add(number)
    return steps


def _sign(page: PageFacts, event: Event, times: Mapping[EventId, float]) -> Sign | None:
    """What a plain page shows once ``event`` has happened, if anything."""
    params = event.params
    if event.category is Category.USER:
        step = page.user_steps.get(params.get("index", -1))
        return None if step is None else Sign(STEP, str(step))
    if event.category is Category.TIMER:
        return Sign(CLOCK, f"{times.get(event.id, 0.0):g}")
    if event.category is Category.PARSE:
        index = int(params.get("index", -1))
        if index < 0:
            return Sign(RESPONSE, request_key(page.url))
        opener = page.chunk_openers[index] if index < len(page.chunk_openers) else None
        if opener is not None:
            return Sign(RESPONSE, request_key(opener))
        return Sign(DOM_READY) if index == len(page.chunk_openers) - 1 else None
    if event.category is Category.LIFECYCLE and event.type == "DOMContentLoaded":
        return Sign(DOM_READY)
    if event.category is Category.LIFECYCLE and event.type == LOAD and event.label == "window load":
        return Sign(LOAD)
    url = _url(event)
    return Sign(RESPONSE, request_key(url)) if url else None


def _start_sign(page: PageFacts, timer: Event, events: Mapping[EventId, Event],
                times: Mapping[EventId, float]) -> Sign:
    """When a timer's chain has surely started: once the event that starts it has happened (the
    document's response when that shows nothing)."""
    chain = _chain_sign(page, timer, events, times)
    return chain[0] if chain is not None else Sign(RESPONSE, request_key(page.url))


def _chain_sign(page: PageFacts, timer: Event, events: Mapping[EventId, Event],
                times: Mapping[EventId, float]) -> tuple[Sign, float] | None:
    """The sign of the event that sets ``timer`` going, if a plain page shows one, and how long
    after it ``timer`` is due. A chain of timers that a user step starts
    (:func:`~webr4.timer_order.chain_start`) goes from that step, its chain's delays after it
    (:func:`~webr4.timer_order.chain_offset`): the plain run performs every step, so its sign
    comes. Any other timer goes from its creator when that is no timer (a timer that another
    timer set shows none of its own: its clock time is not the plain clock's); a response that
    starts a chain may itself wait for what the paused clock has not fired yet."""
    start = chain_start(timer, events)
    if start is not None and start.category is Category.USER and start.id != timer.id:
        sign = _sign(page, start, times)
        return None if sign is None else (sign, chain_offset(timer, events))
    creator = events.get(timer.creator) if timer.creator else None
    if creator is None or creator.category is Category.TIMER:
        return None
    sign = _sign(page, creator, times)
    return None if sign is None else (sign, timer_delay(timer) or 0.0)


def _opener(page: PageFacts, chunk: Event) -> str | None:
    """The parser-blocking script parse chunk ``chunk`` starts with, if any."""
    index = int(chunk.params.get("index", -1))
    return page.chunk_openers[index] if 0 <= index < len(page.chunk_openers) else None


def _url(event: Event) -> str | None:
    """The URL of the request whose response is ``event`` (an XHR, a fetch, a script or element load)."""
    if event.category is not Category.NETWORK:
        return None
    value = event.params.get("url") or event.params.get("src")
    return str(value) if value else None


def _after(trace: Trace, event: EventId, events: Mapping[EventId, Event]) -> list[Event]:
    """The events ``trace`` ran after ``event`` (all it ran, when it did not run ``event``)."""
    sequence = trace.sequence
    start = sequence.index(event) + 1 if event in sequence else 0
    return [events[e] for e in sequence[start:] if e in events]


def _held_requests(page: PageFacts, event: Event, later: list[Event],
                   events: Mapping[EventId, Event]) -> list[str] | NotForceable:
    """The request keys whose responses, held, hold ``event`` back. For the document's
    ``DOMContentLoaded`` and ``load``, those of the ``later`` events (what webr4's order ran after
    the event that must come first), so that every script it ran before still runs before. With
    none left (webr4 ran the early event in the instant between the last response and the
    document's event, which takes a sub-millisecond user), what a slow network would hold: for
    ``load`` the page's images (an ``<img>``'s, a style sheet's background: they run no code and
    block no script), else, when webr4's order ran ``DOMContentLoaded`` after the early event,
    the parser-blocking scripts, as for ``DOMContentLoaded``; never a style sheet webr4 had
    loaded before the early event, which the page's scripts would wait for (the early event would
    come before them, an order webr4 did not run). With nothing to hold, the order is not
    forceable: once parsing ends with nothing left to load, Chromium fires ``load`` in that same
    task. The judgement confirms only the difference webr4 reported, not another one these holds
    cause."""
    if event.category is Category.NETWORK:
        url = _url(event)
        return [request_key(url)] if url else NotForceable(f"{event.label} names no request to hold")
    if event.category is Category.PARSE:
        index = int(event.params.get("index", -1))
        if index < 0:
            return NotForceable("the head is parsed before anything else in every browser")
        opener = page.chunk_openers[index] if index < len(page.chunk_openers) else None
        if opener is None:
            return NotForceable(f"{event.label} starts where more of the document arrives, inside one network "
                                "read: no lever holds part of a response")
        return [request_key(opener)]
    blocking = [request_key(url) for e in later if e.category is Category.PARSE
                and (url := _opener(page, e))]
    every_blocking = [request_key(url) for url in page.chunk_openers if url]
    if event.category is Category.LIFECYCLE and event.type == "DOMContentLoaded":
        return blocking or every_blocking or NotForceable(
            "DOMContentLoaded waits for no parser-blocking script here: only the document holds it back")
    if event.category is Category.LIFECYCLE and event.label == "window load":
        waited = [request_key(url) for e in later if e.category is Category.NETWORK
                  and e.type not in ("xhr", "fetch") and (url := _url(e))]
        if waited or blocking:
            return sorted(set(waited + blocking))
        dom_ready_later = any(e.category is Category.LIFECYCLE and e.type == "DOMContentLoaded" for e in later)
        return _images(page, events) or (every_blocking if dom_ready_later else []) or NotForceable(
            "nothing was left for the window's load to wait for once DOMContentLoaded had come, and the page loads "
            "no image: Chromium then fires load in the task that ends parsing, and nothing comes between the two")
    creator = _posted_by(event, events)
    if creator is not None:  # a message holds back as what posts it does
        return _held_requests(page, creator, later, events)
    return NotForceable(f"no browser lever holds back {event.label} ({event.category.value} {event.type})")


def _posted_by(event: Event, events: Mapping[EventId, Event]) -> Event | None:
    """The event that posted ``event``, a message (``postMessage``: a task of its own as soon as
    it is posted), when that is a parse chunk or a response: holding it back holds the message
    back, and once it has happened the message follows within a task."""
    creator = events.get(event.creator) if event.creator else None
    if event.category is Category.MESSAGE and creator is not None \
            and creator.category in (Category.PARSE, Category.NETWORK):
        return creator
    return None


def _creator_sign(page: PageFacts, event: Event, events: Mapping[EventId, Event],
                  times: Mapping[EventId, float]) -> Sign | None:
    """For a message, the sign of what posted it: the message runs within a task after it."""
    creator = _posted_by(event, events)
    return None if creator is None else _sign(page, creator, times)
