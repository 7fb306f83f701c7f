"""One controlled execution: the loop that decides, step by step, which pending event runs.

The page runtime (``instrument_js/runtime/``) holds every asynchronous event; this loop keeps
the pending set, picks the next event — the next enabled event of the plan, else the default
policy — and has it run: JavaScript callbacks inside the page, parse chunks and held scripts by
releasing their response at the network, user actions through Playwright. Each step's record
(events created, events gone, accesses, errors) becomes a :class:`~webr4.trace.Step`. The
page holds back the variables and properties an event alone has touched until another event
touches them (``instrument_js/access_log.js``); a record then hands them over, and they join the
step of the event that made them, in the place the full log gives them.

Once no user action is left, the page makes the same choices itself for a stretch of steps
(``runStretch``) and hands the records over together, because one Playwright round trip costs
more than most events; it stops at anything only Python can do (releasing a held response).

A page that tries to leave (a followed link, a submitted form, a ``location`` change,
``window.open``) ends the run after that event: the network gate refuses the navigation, so the
page stays as it was, and the trace records where it tried to go and which event did it. Nothing
is enabled after it: leaving disabled every event still pending.

Approximate replay (R4 §2.3) follows the plan as :mod:`webr4.browser.replay` decides: a planned
event runs when it (or, when its creator changed, the event that stands for it) is pending; one
that is not is recorded as skipped and waits for its chance, running as soon as it is pending;
once the run has left the plan, events the plan does not name run when a browser would run them. When the
plan offers nothing, the default policy — earliest virtual due time, then user actions after page
work due at the same time, then creation order — chooses, until nothing is pending or a bound
ends the run.

A user step is enabled while its target is actionable (:mod:`webr4.browser.readiness`). The
default policy also waits like a person for the page to settle: it begins a step (a key comes
up after it goes down without waiting) only once the page is quiet — none of its events but
animation frames due within :data:`QUIET_MS` of the step — and lets the page's due events run
(in virtual time, as steps of the trace, so replays repeat them) until then. Both waits are
bounded, in virtual time after the step was due: a step whose target is actionable goes ahead
after :data:`QUIET_PATIENCE_MS` on a page that never goes quiet; one whose target is not is
given up after ``Limits.step_wait_ms``, or at once when nothing is left to run. The trace's
harness errors then say why it never happened.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Awaitable, Sequence, TypeVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import CDPSession, Page

from webr4.access_summary import by_location
from webr4.browser.actions import UserAction
from webr4.browser.budget import wait_within
from webr4.browser.network import NetworkError, NetworkGate
from webr4.browser.readiness import TargetState, target_state
from webr4.browser.replay import PlanFollower
from webr4.browser.records import (AccessEntry, ActuationRequest, ChunkRelease, Opening, PageError, RecordError,
                                   ScriptRelease, StepRecord, StretchReport, parse, parse_reply)
from webr4.gcpause import gc_paused
from webr4.instrument.chunks import ChunkModel
from webr4.timer_order import with_timer_order
from webr4.trace import ACCESS_KINDS, Access, Category, ErrorRecord, Event, EventId, Navigation, Step, Trace
from webr4.vocabulary import Truncation

T = TypeVar("T")

_USER_PRIORITY = 2
_STRETCH_MS = 200  # wall time the page may run events by itself before reporting back
_NAVIGATION_WAIT_S = 2.0  # how long a navigation the page began may take to reach the network
_ALLOCATING_MB = 512.0  # a heap this large after a stopped loop (pages rarely hold 100 MB): it was filling memory
_BUSY_PROBE_S = 1.0  # how long a page busy in a script takes to answer before it counts as looping
QUIET_MS = 50.0
"""A user step waits while any page event other than an animation frame is due within this many
virtual milliseconds of it: a module loader's chain of short timers, a response just arrived."""
QUIET_PATIENCE_MS = 1_000.0
"""How long, in virtual time, a step whose target is actionable waits for a page that keeps
being busy (a fast polling timer) before it goes ahead anyway."""
RUN_TIME_PER_STEP_S = 0.25
"""Wall time a run may take per user event on top of :attr:`Limits.run_timeout_s`: a step costs
about 30 ms on a quiet machine (Playwright waits two animation frames for a stable target) and
several times that on a loaded one."""
_CUT_SHORT = frozenset({Truncation.HORIZON, Truncation.MAX_EVENTS, Truncation.RUN_TIMEOUT})
_NOT_QUIETING = frozenset({"requestAnimationFrame"})  # an animation loop never ends; no one waits for it


@dataclass(frozen=True)
class Limits:
    """Bounds that end a run early (the trace then names the one that did, ``truncated``), and
    the parse-chunk model the document is split by: a session keeps them, so that every replay
    runs under the same ones."""

    horizon_ms: float = 60_000.0  # virtual time beyond which the default policy stops
    max_events: int = 5_000
    event_timeout_s: float = 10.0  # wall time one event may take (endless loops)
    run_timeout_s: float = 120.0  # wall time a run may take, plus RUN_TIME_PER_STEP_S for each user step
    settle_ms: int = 5_000  # wall time to wait for native completions after an event
    parse_chunks: str = "yield"  # the kind of :class:`ChunkModel`
    chunk_kb: int = 16  # its data-arrival interval
    step_wait_ms: float = 30_000.0  # virtual time a user step waits for an actionable target (Playwright's default)

    def __post_init__(self) -> None:
        ChunkModel(self.parse_chunks, self.chunk_kb)  # raises ValueError for a model that does not exist

    def wall_time_s(self, user_events: int) -> float:
        """The wall time a run of ``user_events`` user events may take before it is cut
        (``run-timeout``): Playwright checks each step's target, so a long session takes longer."""
        return self.run_timeout_s + RUN_TIME_PER_STEP_S * user_events

    @property
    def chunking(self) -> ChunkModel:
        return ChunkModel(self.parse_chunks, self.chunk_kb)


@dataclass(frozen=True)
class _Candidate:
    id: EventId
    due: float
    prio: int
    seq: int

    @property
    def order(self) -> tuple[float, int, int]:
        return (self.due, self.prio, self.seq)


_Promoted = tuple[int, int, tuple[Access, ...]]
"""A held-back location handed over: its position and rank in its step, its accesses."""
_GIVE_UP = "give up"  # the default choice when the next user step has waited as long as it may
_Actuation = tuple[EventId, dict[EventId, _Candidate], bool]
"""An event for the harness to execute: its id, the enabled set before it, whether planned."""


@dataclass
class _RunState:
    steps: list[Step] = field(default_factory=list)
    events: dict[EventId, Event] = field(default_factory=dict)
    preds: dict[EventId, list[EventId]] = field(default_factory=dict)
    step_of: dict[EventId, int] = field(default_factory=dict)
    pending: dict[EventId, _Candidate] = field(default_factory=dict)
    errors: list[ErrorRecord] = field(default_factory=list)
    uncontrolled: list[str] = field(default_factory=list)
    now: float = 0.0
    next_user: int = 0
    last_user_time: float = 0.0
    last_user_step: int | None = None
    truncated: str | None = None
    leaving: bool = False  # the page began to navigate away (beforeunload, window.open)
    leaving_event: EventId | None = None
    navigation: Navigation | None = None
    target: TargetState = TargetState.READY  # the next user step's target, when last looked at
    promoted: dict[int, list[_Promoted]] = field(default_factory=dict)  # by step index


class Controller:
    """Runs one plan in one fresh page; use :meth:`run` once."""

    def __init__(self, page: Page, cdp: CDPSession, gate: NetworkGate, actions: Sequence[UserAction],
                 limits: Limits) -> None:
        self.page = page
        self.cdp = cdp  # opened before the run: a busy renderer cannot attach a new session
        self.gate = gate
        self.actions = list(actions)
        self.limits = limits
        self.state = _RunState()
        self.follower = PlanFollower(())  # the plan's, once the page is open
        self._crashed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        page.on("crash", self._on_crash)

    async def run(self, url: str, plan: Sequence[EventId]) -> Trace:
        """Navigate to ``url`` and execute ``plan`` approximately. Raises :class:`NetworkError`
        when the document itself cannot be loaded."""
        try:
            return await self._run(url, plan)
        finally:
            # The page's listener would tie this controller, and the trace it built, into the
            # page's reference cycles until a full collection.
            self.page.remove_listener("crash", self._on_crash)

    async def _run(self, url: str, plan: Sequence[EventId]) -> Trace:
        started = time.monotonic()
        head = await self._open(url)
        self.follower = PlanFollower(plan)
        self.follower.start_at(head)
        going = True
        while going:
            if await self._left_page():
                break
            if len(self.state.steps) >= self.limits.max_events:
                self.state.truncated = Truncation.MAX_EVENTS
                break
            if time.monotonic() - started > self.limits.wall_time_s(len(self.actions)):
                self.state.truncated = Truncation.RUN_TIMEOUT
                break
            if self.state.next_user >= len(self.actions):
                # No user action is left to interleave: the page chooses and runs events itself.
                stop = await self._run_stretch()
                going = await self._execute(*stop) if isinstance(stop, tuple) else stop is None
                continue
            enabled = await self._enabled()
            choice = self.follower.choose({event: candidate.order for event, candidate in enabled.items()})
            chosen = None if choice is None else choice.event
            planned = choice is not None and choice.planned is not None
            if chosen is None:
                chosen = self._default_choice(enabled)
                if chosen == _GIVE_UP:
                    self._give_up_step(", and the page had nothing left to run" if len(enabled) == 0
                                       else f" for {self.limits.step_wait_ms:g} ms (the step wait)")
                    continue
            going = chosen is not None and await self._execute(chosen, enabled, planned)
        if self.state.navigation is None:
            await self._left_page()  # the run's last event may have left the page
        if self.state.next_user < len(self.actions) and self.state.truncated in _CUT_SHORT:
            self._cut_short(self.state.truncated)
        # Leaving is a final state: the document is gone with whatever it still had pending, so
        # the event that left disabled them all (and R4 tries each of them before it).
        return self._trace({} if self.state.navigation else await self._enabled_safely())

    async def _left_page(self) -> bool:
        """Whether the page has navigated away; the run then ends, and leaving is its outcome.

        The runtime says which event began a navigation, the gate where it went. One the runtime
        saw begin is waited for at the network; one that never arrives there (cancelled in
        ``beforeunload``, an empty ``window.open``) is forgotten. One only the gate saw (a
        ``target=_blank`` link) is put down to the last event.
        """
        if self.gate.navigation is None:
            if not self.state.leaving:
                return False
            try:
                await asyncio.wait_for(self.gate.navigated.wait(), _NAVIGATION_WAIT_S)
            except asyncio.TimeoutError:
                self.state.leaving, self.state.leaving_event = False, None
                return False
        assert self.gate.navigation is not None
        event = self.state.leaving_event if self.state.leaving else None
        if event is None and self.state.steps:
            event = self.state.steps[-1].event
        self.state.navigation = replace(self.gate.navigation, event=event)
        return True

    # ------------------------------------------------------------------ opening the page
    async def _open(self, url: str) -> EventId:
        """Load the document up to the end of its head (the first event); return that event."""
        try:
            await self.page.goto(url, wait_until="commit", timeout=30_000)
        except PlaywrightError as error:
            if self.gate.document_error:
                raise NetworkError(self.gate.document_error) from None
            raise NetworkError(f"cannot load {url}: {str(error).splitlines()[0]}") from None
        await asyncio.wait_for(self.gate.document_ready.wait(), 30)
        if self.gate.document_error:
            raise NetworkError(self.gate.document_error)
        chunks = self.gate.document.chunked.chunks if self.gate.document else 0
        for _ in range(200):
            raw = await self._runtime("start", chunks)
            while raw is not None and "actuate" in raw:  # the head wrote a script: it loads now
                await self._release_written(parse(ActuationRequest, raw, "actuation"))
                raw = await self._runtime("start", chunks)
            if raw is not None:
                opening = parse(Opening, raw, "opening")
                head = opening.head
                self._absorb(opening.record, step=0)
                self._add_step(head, {head: _Candidate(head, 0.0, 0, 0)}, True, opening.record)
                return head
            await asyncio.sleep(0.005)
        raise NetworkError(f"{url} did not start the webr4 runtime (is it an HTML page in the top frame?)")

    # ------------------------------------------------------------------ choosing
    async def _enabled(self) -> dict[EventId, _Candidate]:
        enabled = dict(self.state.pending)
        if self.state.next_user < len(self.actions):
            action = self.actions[self.state.next_user]
            self.state.target = await target_state(self.page, action, self.state.target)
            if self.state.target is TargetState.READY:
                enabled[action.event_id] = _Candidate(action.event_id, self._user_due(action), _USER_PRIORITY, 0)
        return enabled

    def _user_due(self, action: UserAction) -> float:
        return self.state.last_user_time + action.delay

    async def _enabled_safely(self) -> dict[EventId, _Candidate]:
        try:
            return await asyncio.wait_for(self._enabled(), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            return dict(self.state.pending)

    def _default_choice(self, enabled: dict[EventId, _Candidate]) -> EventId | None:
        """The least (due, prio, seq), first in creation order on ties, except that the next user
        step waits for a quiet page (see the module's docstring); ``None`` past the horizon or
        when nothing is enabled, :data:`_GIVE_UP` when the next user step's wait is over.
        ``defaultChoice`` in the runtime makes the same choice during a stretch (no user step)."""
        step = self.actions[self.state.next_user] if self.state.next_user < len(self.actions) else None
        page = [c for c in enabled.values() if step is None or c.id != step.event_id]
        first = min(page, key=lambda c: c.order) if page else None
        if step is not None:
            due = self._user_due(step)
            user = enabled.get(step.event_id)
            if user is None:
                if first is None or first.due > due + self.limits.step_wait_ms:
                    return _GIVE_UP
            elif first is None or (first.order > user.order and not (
                    step.starts_step and first.due <= due + min(QUIET_PATIENCE_MS, self.limits.step_wait_ms)
                    and self._busy(page, user))):
                first = user
        if first is None:
            return None
        if first.due > self.limits.horizon_ms:
            self.state.truncated = Truncation.HORIZON
            return None
        return first.id

    def _busy(self, page: list[_Candidate], user: _Candidate) -> bool:
        """Whether a page event that a person would wait for is due within :data:`QUIET_MS` of
        the user step ``user``."""
        until = max(self.state.now, user.due) + QUIET_MS
        return any(c.due <= until and self.state.events[c.id].type not in _NOT_QUIETING
                   for c in page if c.id in self.state.events)

    def _give_up_step(self, why: str) -> None:
        """The next user step never happens: note why in the trace, and go on to the one after."""
        action = self.actions[self.state.next_user]
        reason = "the page never went quiet" if self.state.target is TargetState.READY else self.state.target.value
        self.state.errors.append(ErrorRecord(
            "harness", f"{action.step_text} never happened: {reason}{why}", None, len(self.state.steps)))
        self.state.next_user += 1

    def _cut_short(self, by: str) -> None:
        """The run was cut by the bound ``by`` before the next user step: note which, and what to change."""
        action = self.actions[self.state.next_user]
        bound = {Truncation.HORIZON: f"its next event was due after --horizon {self.limits.horizon_ms:g} ms",
                 Truncation.MAX_EVENTS: f"it had run --max-events {self.limits.max_events} events",
                 Truncation.RUN_TIMEOUT: f"it had taken {self.limits.wall_time_s(len(self.actions)):g} s, the "
                                         "longest a run of this many steps may take"}[Truncation(by)]
        self.state.errors.append(ErrorRecord(
            "harness", f"{action.step_text} never happened: the run was cut when {bound}", None, len(self.state.steps)))
        self.state.next_user += 1

    # ------------------------------------------------------------------ executing
    async def _execute(self, event_id: EventId, enabled: dict[EventId, _Candidate], planned: bool) -> bool:
        """Run one event; False when the run cannot go on (timeout, page gone)."""
        index = len(self.state.steps)
        try:
            record = await self._within_budget(self._dispatch(event_id, enabled[event_id]), self.limits.event_timeout_s)
        except asyncio.TimeoutError:
            looping = await self._script_busy()
            await self._terminate_script()
            self._timed_out(event_id, enabled, planned, looping, await self._heap_mb() if looping else None)
            return False
        except PlaywrightError as error:
            self._lost(error)
            return False
        self._add_step(event_id, enabled, planned, record)
        self._absorb(record, step=index)
        return True

    async def _within_budget(self, work: Awaitable[T], seconds: float) -> T:
        """``work`` given ``seconds`` of the page's time: time the gate spends rewriting scripts
        and preparing the document meanwhile is added (:mod:`webr4.browser.budget`)."""
        return await wait_within(work, seconds, lambda: self.gate.busy_s)

    async def _run_stretch(self) -> _Actuation | str | None:
        """Let the page choose and run events by itself (no user action is left to interleave),
        following the plan from where :attr:`follower` is, and take back the follower's state.

        Returns why it stopped: ``None`` to go on, the event to execute from Python (it must be
        actuated), or a reason the run is over.
        """
        budget = self.limits.max_events - len(self.state.steps)
        run = self._runtime("runStretch", self.follower.to_page(), self.limits.horizon_ms, budget, _STRETCH_MS)
        try:
            text = await self._within_budget(run, self.limits.event_timeout_s + _STRETCH_MS / 1000)
        except asyncio.TimeoutError:
            looping = await self._script_busy()
            await self._terminate_script()
            heap_mb = await self._heap_mb() if looping else None
            drained = await self._drain()
            if drained is None:
                self.state.truncated = Truncation.EVENT_TIMEOUT
                return self.state.truncated
            steps = list(drained.steps)
            # The event that hung is still running, or (its script terminated) it has just
            # finished: then it is the last step, and nothing ran after it (the slice was over).
            hung = drained.running or (steps.pop()[:2] if steps else None)
            self._absorb_stretch(replace(drained, steps=tuple(steps)))
            if hung and not drained.running:  # its step is replaced, but what it handed over stays
                self._take_promoted(drained.steps[-1][2])
            if hung:
                self._timed_out(hung[0], dict(self.state.pending), hung[1], looping, heap_mb)
            else:
                self.state.truncated = Truncation.EVENT_TIMEOUT
            return self.state.truncated
        except PlaywrightError as error:
            self._lost(error)
            return Truncation.PAGE_LOST
        stretch = parse(StretchReport, json.loads(text), "stretch report")
        self._absorb_stretch(stretch)
        why = stretch.stop
        if why == "actuate":
            if stretch.next is None:
                raise RecordError("the page runtime sent a stretch report that stops to actuate but names no event")
            event_id, planned = stretch.next
            return event_id, dict(self.state.pending), planned
        if why == Truncation.HORIZON:
            self.state.truncated = Truncation.HORIZON
        return None if why in ("slice", "navigated") else why

    async def _drain(self) -> StretchReport | None:
        """What the stopped stretch finished, or None when the page cannot say."""
        try:
            text = await asyncio.wait_for(self._runtime("drainStretch"), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            return None
        return parse(StretchReport, json.loads(text), "stretch report")

    def _absorb_stretch(self, stretch: StretchReport) -> None:
        if stretch.before is not None:  # arrivals reported before the stretch's first step
            self._absorb(stretch.before, step=None)
        if stretch.waiting is not None and stretch.diverged is not None:
            self.follower.from_page(stretch.consumed, stretch.waiting, stretch.skipped, stretch.diverged,
                                    stretch.matched)
        for event_id, planned, record in stretch.steps:
            index = len(self.state.steps)
            self._add_step(event_id, self.state.pending, planned, record)  # read before it changes
            self._absorb(record, step=index)

    async def _dispatch(self, event_id: EventId, candidate: _Candidate) -> StepRecord:
        timeout = self.limits.event_timeout_s
        if self.state.next_user < len(self.actions) and self.actions[self.state.next_user].event_id == event_id:
            return await self._user_action(self.actions[self.state.next_user], candidate)
        reply = parse_reply(await self._runtime("begin", event_id))
        if not isinstance(reply, ActuationRequest):
            return reply
        actuation = reply.actuate
        if isinstance(actuation, ChunkRelease):
            await self.gate.release_chunk(actuation.index, timeout)
            reply = parse_reply(await self._runtime("finish", event_id, asdict(actuation)))
        else:
            reply = parse_reply(await self._release_script(event_id, actuation, timeout))
        while isinstance(reply, ActuationRequest):  # the chunk wrote a script: it loads now
            await self._release_written(reply)
            reply = parse_reply(await self._runtime("finish", event_id, asdict(actuation)))
        return reply

    async def _release_script(self, event_id: EventId, actuation: ScriptRelease, timeout: float) -> Any:
        """Release the held script of ``event_id`` at the network while the page waits for it to run;
        what ``finish`` answers. A script can run without a request of its own to release: Chromium
        gives it the response it fetches for another element of the same URL, or its memory cache's;
        the release then stops waiting for that request once the script has run."""
        instrument = not actuation.worker
        release = asyncio.ensure_future(self.gate.release_script(actuation.url, timeout, instrument=instrument))
        finish = asyncio.ensure_future(self._runtime("finish", event_id, asdict(actuation)))
        try:
            await asyncio.wait([release, finish], return_when=asyncio.FIRST_COMPLETED)
            if not finish.done():
                await release  # raises when no request came in time
            return await finish
        finally:
            for task in (release, finish):
                task.cancel()  # nothing when it is done; a release serving a request serves it to the end
            await asyncio.gather(release, finish, return_exceptions=True)

    async def _release_written(self, request: ActuationRequest) -> None:
        """Release a parser-blocking script that ``document.write`` put in the parser's way: it
        runs within the event that wrote it, before parsing goes on, as in Chromium."""
        if not isinstance(request.actuate, ScriptRelease):
            raise RecordError("the page runtime asked to release a parse chunk while one was running")
        await self.gate.release_script(request.actuate.url, self.limits.event_timeout_s)

    def _on_crash(self, _: Page) -> None:
        if not self._crashed.done():
            self._crashed.set_result(None)

    async def _runtime(self, method: str, *args: Any) -> Any:
        """``window.__webr4[method](*args)`` in the page, awaited; None before the runtime exists.

        Called through CDP, not ``page.evaluate``: Playwright's evaluation helpers run in the
        page's own world and pass arguments and results with the page's builtins (array methods,
        ``Map``, ``Function.prototype.call``), so a page that replaced those would see every call.
        """
        arguments = ", ".join(json.dumps(arg) for arg in args)
        expression = f"window.__webr4 ? window.__webr4.{method}({arguments}) : null"
        call = asyncio.ensure_future(self.cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                                        "returnByValue": True}))
        # A crashed renderer never answers over CDP, where page.evaluate would fail at once.
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

    async def _user_action(self, action: UserAction, candidate: _Candidate) -> StepRecord:
        self.state.events[action.event_id] = action.event()
        await self._runtime("userBegin", action.event_id, candidate.due)
        failure = None
        try:
            await action.perform(self.page, timeout_ms=self.limits.event_timeout_s * 500)
        except PlaywrightError as error:
            failure = f"{action.kind} on {action.selector} failed: {str(error).splitlines()[0]}"
        raw = await self._runtime("finish", action.event_id, {"kind": "user"})
        record = parse(StepRecord, raw, "step record")
        if failure:
            record = replace(record, errors=(*record.errors, PageError("harness", failure, None, action.event_id)))
        self.state.next_user += 1
        self.state.last_user_time = record.now
        return record

    def _timed_out(self, event_id: EventId, enabled: dict[EventId, _Candidate], planned: bool,
                   looping: bool, heap_mb: float | None = None) -> None:
        """Record that ``event_id`` hung (its script was terminated): its step, an error, the end.

        ``looping``: the page's script was still running when the time was up, so the event is
        an endless loop — an outcome of the page that every run of this order repeats
        (``truncated`` is ``endless-loop``); otherwise it waited for something that never came
        (``event-timeout``, a failed run). ``heap_mb``: the page's heap once the loop was
        stopped; a loop that filled it is said to have been allocating memory."""
        label = self.state.events[event_id].label if event_id in self.state.events else event_id
        limit = f"{self.limits.event_timeout_s:g} s"
        if looping and heap_mb is not None and heap_mb >= _ALLOCATING_MB:
            message = (f"endless loop in {label}: its script ran for {limit} allocating memory all the while "
                       f"(the page's heap reached {heap_mb / 1024:.1f} GB) and was stopped before memory ran out")
        elif looping:
            message = f"endless loop in {label}: its script ran for {limit} and was stopped"
        else:
            message = f"{label} did not finish within {limit}"
        self.state.errors.append(ErrorRecord("harness", message, None, len(self.state.steps)))
        self.state.truncated = Truncation.ENDLESS_LOOP if looping else Truncation.EVENT_TIMEOUT
        self._add_step(event_id, enabled, planned, None)

    def _lost(self, error: PlaywrightError) -> None:
        self.state.errors.append(ErrorRecord(
            "harness", f"the page stopped responding: {str(error).splitlines()[0]}", None, len(self.state.steps)))
        self.state.truncated = Truncation.PAGE_LOST

    async def _script_busy(self) -> bool:
        """Whether the page's main thread is running a script: it cannot answer an evaluation."""
        try:
            await asyncio.wait_for(self.page.evaluate("0"), _BUSY_PROBE_S)
        except asyncio.TimeoutError:
            return True
        except PlaywrightError:
            return False
        return False

    async def _heap_mb(self) -> float | None:
        """The page's JavaScript heap in use, in MB (``None`` when the page does not say)."""
        try:
            usage = await asyncio.wait_for(self.cdp.send("Runtime.getHeapUsage"), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            return None
        return float(usage["usedSize"]) / 2**20

    async def _terminate_script(self) -> None:
        try:
            await asyncio.wait_for(self.cdp.send("Runtime.terminateExecution"), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            pass

    # ------------------------------------------------------------------ bookkeeping
    def _add_step(self, event_id: EventId, enabled: dict[EventId, _Candidate], planned: bool,
                  record: StepRecord | None) -> None:
        """Append the step of ``event_id``; ``record`` None: it never finished (no accesses)."""
        index = len(self.state.steps)
        event = self.state.events.get(event_id)
        sources = list(self.state.preds.get(event_id, ()))
        if event is not None and event.creator:
            sources.append(event.creator)
        preds = self._steps_before(sources)
        if event is not None and event.category is Category.USER:
            # User events are totally ordered, and the first one follows the head: every
            # execution starts with it, so no user event can ever come before it.
            if self.state.last_user_step is not None:
                preds.add(self.state.last_user_step)
            elif index > 0:
                preds.add(0)
            self.state.last_user_step = index
        accesses = self._accesses(record.accesses) if record is not None else ()
        candidate = enabled[event_id]
        self.state.steps.append(Step(
            event=event_id, enabled=frozenset(enabled), predecessors=tuple(sorted(preds)), accesses=accesses,
            time=max(self.state.now, candidate.due), planned=planned,
            unlisted_writes=record.unlisted_writes if record is not None else (),
        ))
        self.state.step_of[event_id] = index
        self.state.pending.pop(event_id, None)

    def _steps_before(self, sources: list[EventId]) -> set[int]:
        """The steps of the events in ``sources``; for one that has not run (an animation frame
        cancelled before it came), the steps of the events that had to run before it, and so on: the
        runtime lists only direct edges, so the order must not be lost through a missing link."""
        steps: set[int] = set()
        seen: set[EventId] = set()
        while sources:
            source = sources.pop()
            if source in seen:
                continue
            seen.add(source)
            if source in self.state.step_of:
                steps.add(self.state.step_of[source])
            else:
                sources.extend(self.state.preds.get(source, ()))
        return steps

    def _accesses(self, entries: Sequence[AccessEntry]) -> tuple[Access, ...]:
        fix, kinds = self.gate.original_site, ACCESS_KINDS
        with gc_paused():  # up to 10^5 accesses, and no cycle among them
            return tuple(Access(kinds[kind], location, fix(site), value) for kind, location, site, value in entries)

    def _take_promoted(self, record: StepRecord) -> None:
        """Keep the held-back locations ``record`` hands over for the steps that made them."""
        for event_id, position, rank, entries in record.promoted:
            index = self.state.step_of.get(event_id)
            if index is None:
                raise RecordError(f"the page runtime handed over accesses of {event_id}, which has no step")
            self.state.promoted.setdefault(index, []).append((position, rank, self._accesses(entries)))

    def _with_promoted(self, index: int, step: Step) -> Step:
        """``step`` with the held-back locations handed over for it, each in its place."""
        promoted = sorted(self.state.promoted.get(index, ()), key=lambda p: (p[0], p[1]))
        if not promoted:
            return step
        listed = list(by_location(step.accesses).values())
        accesses: list[Access] = []
        at = 0
        for position, _rank, entries in promoted:
            while at < position and at < len(listed):
                accesses += listed[at]
                at += 1
            accesses += entries
        for rest in listed[at:]:
            accesses += rest
        return replace(step, accesses=tuple(accesses))

    def _absorb(self, record: StepRecord, step: int | None) -> None:
        self._take_promoted(record)
        fix = self.gate.original_site
        for created in record.created:
            params = dict(created.params)
            label = created.label
            if params.get("site"):
                served, params["site"] = params["site"], fix(params["site"])
                label = label.replace(served.rsplit("/", 1)[-1], params["site"].rsplit("/", 1)[-1])
            self.state.events[created.id] = Event(
                id=created.id, category=Category(created.category), type=created.type, label=label,
                creator=created.creator, params=params,
            )
            self.state.preds[created.id] = list(created.preds)
        for error in record.errors:
            self.state.errors.append(ErrorRecord(error.kind, *self.gate.page_error(error.message, error.site), step))
        self.state.uncontrolled.extend(record.uncontrolled)
        for created in record.created:
            self.state.pending[created.id] = _Candidate(created.id, created.due, created.prio, created.seq or 0)
        for event in record.gone:
            self.state.pending.pop(event, None)
        self.state.now = max(self.state.now, record.now)
        if record.leaving is not None and not self.state.leaving:
            self.state.leaving, self.state.leaving_event = True, record.leaving.event

    def _trace(self, enabled_at_end: dict[EventId, _Candidate]) -> Trace:
        for action in self.actions[self.state.next_user:]:
            self.state.events.setdefault(action.event_id, action.event())
        errors = list(self.state.errors)
        errors.extend(ErrorRecord("harness", note, None, None) for note in self.gate.notes)
        steps = [self._with_promoted(index, step) for index, step in enumerate(self.state.steps)]
        return Trace(
            steps=with_timer_order(steps, self.state.events),
            events=self.state.events,
            enabled_at_end=frozenset(enabled_at_end),
            skipped=list(self.follower.skipped),
            matched=dict(self.follower.matched),
            truncated=self.state.truncated,
            errors=errors,
            uncontrolled=sorted(set(self.state.uncontrolled) | set(self.gate.uncontrolled)),
            navigation=self.state.navigation,
        )
