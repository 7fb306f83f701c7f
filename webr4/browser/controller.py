"""One controlled execution: the loop that decides, step by step, which pending event runs.

The page runtime (``instrument_js/runtime/``) holds every asynchronous event; this loop keeps
the pending set, picks the next event — the next enabled event of the plan, else the default
policy — and has it run: JavaScript callbacks inside the page, parse chunks and held scripts by
releasing their response at the network, user actions through Playwright. Each step's record
(events created, events gone, accesses, errors) becomes a :class:`~webr4.trace.Step`
(:mod:`webr4.browser.tracebuilder`). Calls into the page and the records they return go
through :mod:`webr4.browser.pagechannel`.

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
plan offers nothing, the default policy (:mod:`webr4.browser.schedule`: earliest virtual due
time, then user actions after page work due at the same time, then creation order) chooses,
until nothing is pending or a bound ends the run.

A user step is enabled while its target is actionable (:mod:`webr4.browser.readiness`), and
waits for a quiet page as the default policy says; the page's due events run meanwhile, in
virtual time, as steps of the trace, so replays repeat them. A step given up at the end of its
wait, ``Limits.step_wait_ms``, is named in the trace's harness errors with why it never happened.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass, replace
from typing import Awaitable, Sequence, TypeVar

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from webr4.browser.actions import UserAction, url_glob_matches
from webr4.browser.allowance import wait_within
from webr4.browser.limits import Limits
from webr4.browser.network import NetworkError, NetworkGate
from webr4.browser.pagechannel import PageChannel
from webr4.browser.readiness import TargetState, target_state
from webr4.browser.records import (ActuationRequest, ChunkRelease, PageError, RecordError, ScriptRelease, StepReport,
                                   StretchReport)
from webr4.browser.schedule import GIVE_UP, PAST_HORIZON, USER_PRIORITY, Candidate, Scheduler
from webr4.browser.tracebuilder import TraceBuilder
from webr4.trace import Category, ErrorRecord, EventId, Navigation, Trace
from webr4.vocabulary import Truncation

T = TypeVar("T")

_STRETCH_MS = 200  # wall time the page may run events by itself before reporting back
_NAVIGATION_WAIT_S = 2.0  # how long a navigation the page began may take to reach the network
_ALLOCATING_MB = 512.0  # a heap this large after a stopped loop (pages rarely hold 100 MB): it was filling memory
_CUT_SHORT = frozenset({Truncation.HORIZON, Truncation.MAX_EVENTS, Truncation.RUN_TIMEOUT})


_Actuation = tuple[EventId, dict[EventId, Candidate], bool]
"""An event for the harness to execute: its id, the enabled set before it, whether planned."""


@dataclass
class _RunState:
    """How the run stands, beyond what its trace records."""

    truncated: str | None = None
    navigation: Navigation | None = None
    target: TargetState = TargetState.READY  # the next user step's target, when last looked at


class Controller:
    """Runs one plan in one fresh page; use :meth:`run` once."""

    def __init__(self, page: Page, cdp: CDPSession, gate: NetworkGate, actions: Sequence[UserAction],
                 limits: Limits, logged_events: frozenset[EventId] | None = None) -> None:
        """``logged_events``: the only events after the head whose accesses the page logs (None:
        every event's)."""
        self.page = page
        self.logged_events = logged_events
        self.channel = PageChannel(page, cdp)  # cdp opened before the run: a busy renderer cannot attach a new session
        self.gate = gate
        self.actions = list(actions)
        self.limits = limits
        self.state = _RunState()
        self.scheduler = Scheduler(self.actions, limits.horizon_ms, limits.step_wait_ms)
        self.builder = TraceBuilder(gate)

    async def run(self, url: str, plan: Sequence[EventId]) -> Trace:
        """Navigate to ``url`` and execute ``plan`` approximately. Raises :class:`NetworkError`
        when the document itself cannot be loaded."""
        try:
            return await self._run(url, plan)
        finally:
            self.channel.close()

    async def _run(self, url: str, plan: Sequence[EventId]) -> Trace:
        started = time.monotonic()
        self.scheduler.follow(plan, await self._open(url))
        going = True
        while going:
            if await self._left_page():
                break
            if len(self.builder.steps) >= self.limits.max_events:
                self.state.truncated = Truncation.MAX_EVENTS
                break
            if time.monotonic() - started > self.limits.wall_time_s(len(self.actions)):
                self.state.truncated = Truncation.RUN_TIMEOUT
                break
            if self.scheduler.next_step is None:
                # No user action is left to interleave: the page chooses and runs events itself.
                stop = await self._run_stretch()
                going = await self._execute(*stop) if isinstance(stop, tuple) else stop is None
                continue
            enabled = await self._enabled()
            chosen, planned = self.scheduler.choose(enabled, self.builder.now, self.builder.events)
            if chosen == GIVE_UP:
                self._give_up_step(", and the page had nothing left to run" if len(enabled) == 0
                                   else f" for {self.limits.step_wait_ms:g} ms (the step wait)")
                continue
            if chosen == PAST_HORIZON:
                self.state.truncated = Truncation.HORIZON
                chosen = None
            going = chosen is not None and await self._execute(chosen, enabled, planned)
        if self.state.navigation is None:
            await self._left_page()  # the run's last event may have left the page
        if self.scheduler.next_step is not None and self.state.truncated in _CUT_SHORT:
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
        record = self.builder
        if self.gate.navigation is None:
            if not record.leaving:
                return False
            try:
                await asyncio.wait_for(self.gate.navigated.wait(), _NAVIGATION_WAIT_S)
            except asyncio.TimeoutError:
                record.leaving, record.leaving_event = False, None
                return False
        assert self.gate.navigation is not None
        event = record.leaving_event if record.leaving else None
        if event is None and record.steps:
            event = record.steps[-1].event
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
        if any(action.observation is not None for action in self.actions):
            await self._install_playwright_in_page()
        for _ in range(200):
            opening = await self.channel.start(chunks, self.logged_events)
            while isinstance(opening, ActuationRequest):  # the head wrote a script: it loads now
                await self._release_written(opening)
                opening = await self.channel.start(chunks, self.logged_events)
            if opening is not None:
                head = opening.head
                self.builder.absorb(opening.record, step=0)
                self.builder.add_step(head, {head: Candidate(head, 0.0, 0, 0)}, True, opening.record)
                return head
            await asyncio.sleep(0.005)
        raise NetworkError(f"{url} did not start the webr4 runtime (is it an HTML page in the top frame?)")

    async def _install_playwright_in_page(self) -> None:
        """Have Playwright install its script in the page's own world now, before any event: a
        test's read step hands it the elements it read, and the listeners that script adds would
        otherwise be logged as that step's writes."""
        handle = await self.page.evaluate_handle("() => document")
        try:
            await self.page.evaluate("(node) => 0", handle)
        finally:
            await handle.dispose()

    # ------------------------------------------------------------------ choosing
    async def _enabled(self) -> dict[EventId, Candidate]:
        enabled = dict(self.builder.pending)
        action = self.scheduler.next_step
        if action is not None:
            self.state.target = await self._step_state(action)
            if self.state.target is TargetState.READY:
                enabled[action.event_id] = Candidate(action.event_id, self.scheduler.user_due(action), USER_PRIORITY, 0)
        return enabled

    async def _step_state(self, action: UserAction) -> TargetState:
        """Whether the next user step can run now: a test's wait for a response or a load state
        once it has happened in this run, any other step once its target is actionable."""
        if action.awaited_response is not None:
            return TargetState.READY if self._responded(action.awaited_response) else TargetState.NO_RESPONSE
        if action.loading_state is not None:
            return TargetState.READY if self._loaded(action.loading_state) else TargetState.LOADING
        return await target_state(self.page, action, self.state.target)

    def _loading_events(self, state: str) -> set[EventId]:
        """The pending events a page must run before it reaches the load ``state`` a test waits for
        (``domcontentloaded``: its parse chunks and DOMContentLoaded; ``load``: every element load
        and the window's load too; ``commit``: none)."""
        return {event_id for event_id in self.builder.pending if self._loads(event_id, state)}

    def _loads(self, event_id: EventId, state: str) -> bool:
        """Whether the page must run ``event_id`` before it reaches the load ``state``."""
        event = self.builder.events.get(event_id)
        if event is None or state == "commit":
            return False
        script = event.category is Category.NETWORK and event.type == "script"
        if state == "domcontentloaded":  # async scripts need not run before it
            return event.category is Category.PARSE or event.type == "DOMContentLoaded" or (
                script and event.params.get("kind") != "async")
        return event.category in (Category.PARSE, Category.LIFECYCLE) or script

    def _responded(self, glob: str) -> EventId | None:
        """The response a test's ``expect_response`` waits for, once it has run: the first
        executed network event whose URL matches ``glob``."""
        for step in self.builder.steps:
            event = self.builder.events.get(step.event)
            url = event.params.get("url") if event is not None and event.category is Category.NETWORK else None
            if isinstance(url, str) and url_glob_matches(glob, url):
                return step.event
        return None

    def _loaded(self, state: str) -> bool:
        return not self._loading_events(state)

    async def _enabled_safely(self) -> dict[EventId, Candidate]:
        try:
            return await asyncio.wait_for(self._enabled(), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            return dict(self.builder.pending)

    def _give_up_step(self, why: str) -> None:
        """The next user step never happens: note why in the trace, and go on to the one after."""
        action = self.actions[self.scheduler.next_user]
        reason = "the page never went quiet" if self.state.target is TargetState.READY else self.state.target.value
        self.builder.errors.append(ErrorRecord(
            "harness", f"{action.step_text} never happened: {reason}{why}", None, len(self.builder.steps)))
        self.scheduler.next_user += 1

    def _cut_short(self, by: str) -> None:
        """The run was cut by the bound ``by`` before the next user step: note which, and what to change."""
        action = self.actions[self.scheduler.next_user]
        bound = {Truncation.HORIZON: f"its next event was due after --horizon {self.limits.horizon_ms:g} ms",
                 Truncation.MAX_EVENTS: f"it had run --max-events {self.limits.max_events} events",
                 Truncation.RUN_TIMEOUT: f"it had taken {self.limits.wall_time_s(len(self.actions)):g} s, the "
                                         "longest a run of this many steps may take"}[Truncation(by)]
        self.builder.errors.append(ErrorRecord(
            "harness", f"{action.step_text} never happened: the run was cut when {bound}", None,
            len(self.builder.steps)))
        self.scheduler.next_user += 1

    # ------------------------------------------------------------------ executing
    async def _execute(self, event_id: EventId, enabled: dict[EventId, Candidate], planned: bool) -> bool:
        """Run one event; False when the run cannot go on (timeout, page gone)."""
        index = len(self.builder.steps)
        try:
            record = await self._within_allowance(self._dispatch(event_id, enabled[event_id]),
                                                  self.limits.event_timeout_s)
        except asyncio.TimeoutError:
            looping = await self.channel.script_busy()
            await self.channel.terminate_script()
            self._timed_out(event_id, enabled, planned, looping, await self.channel.heap_mb() if looping else None)
            return False
        except PlaywrightError as error:
            self._lost(error)
            return False
        self.builder.add_step(event_id, enabled, planned, record)
        self.builder.absorb(record, step=index)
        return True

    async def _within_allowance(self, work: Awaitable[T], seconds: float) -> T:
        """``work`` given ``seconds`` of the page's time: time the gate spends rewriting scripts
        and preparing the document meanwhile is added (:mod:`webr4.browser.allowance`)."""
        return await wait_within(work, seconds, lambda: self.gate.busy_s)

    async def _run_stretch(self) -> _Actuation | str | None:
        """Let the page choose and run events by itself (no user action is left to interleave),
        following the plan from where the scheduler's follower is, and take back its state.

        Returns why it stopped: ``None`` to go on, the event to execute from Python (it must be
        actuated), or a reason the run is over.
        """
        steps_left = self.limits.max_events - len(self.builder.steps)
        run = self.channel.run_stretch(self.scheduler.follower.to_page(), self.limits.horizon_ms, steps_left,
                                       _STRETCH_MS)
        try:
            stretch = await self._within_allowance(run, self.limits.event_timeout_s + _STRETCH_MS / 1000)
        except asyncio.TimeoutError:
            return await self._stretch_timed_out()
        except PlaywrightError as error:
            self._lost(error)
            return Truncation.PAGE_LOST
        self._absorb_stretch(stretch)
        why = stretch.stop
        if why == "actuate":
            if stretch.next is None:
                raise RecordError("the page runtime sent a stretch report that stops to actuate but names no event")
            event_id, planned = stretch.next
            return event_id, dict(self.builder.pending), planned
        if why == Truncation.HORIZON:
            self.state.truncated = Truncation.HORIZON
        return None if why in ("slice", "navigated") else why

    async def _stretch_timed_out(self) -> str | None:
        """A stretch ran out of time: stop the script, keep what the page finished, and record
        the event that hung; returns why the run is over."""
        looping = await self.channel.script_busy()
        await self.channel.terminate_script()
        heap_mb = await self.channel.heap_mb() if looping else None
        drained = await self.channel.drain_stretch()
        if drained is None:
            self.state.truncated = Truncation.EVENT_TIMEOUT
            return self.state.truncated
        steps = list(drained.steps)
        # The event that hung is still running, or (its script terminated) it has just
        # finished: then it is the last step, and nothing ran after it (the slice was over).
        hung = drained.running or (steps.pop()[:2] if steps else None)
        self._absorb_stretch(replace(drained, steps=tuple(steps)))
        if hung and not drained.running:  # its step is replaced, but what it handed over stays
            self.builder.take_promoted(drained.steps[-1][2])
        if hung:
            self._timed_out(hung[0], dict(self.builder.pending), hung[1], looping, heap_mb)
        else:
            self.state.truncated = Truncation.EVENT_TIMEOUT
        return self.state.truncated

    def _absorb_stretch(self, stretch: StretchReport) -> None:
        if stretch.before is not None:  # arrivals reported before the stretch's first step
            self.builder.absorb(stretch.before, step=None)
        if stretch.waiting is not None and stretch.diverged is not None:
            self.scheduler.follower.from_page(stretch.consumed, stretch.waiting, stretch.skipped, stretch.diverged,
                                              stretch.matched)
        for event_id, planned, record in stretch.steps:
            index = len(self.builder.steps)
            self.builder.add_step(event_id, self.builder.pending, planned, record)  # read before it changes
            self.builder.absorb(record, step=index)

    async def _dispatch(self, event_id: EventId, candidate: Candidate) -> StepReport:
        timeout = self.limits.event_timeout_s
        action = self.scheduler.next_step
        if action is not None and action.event_id == event_id:
            return await self._user_action(action, candidate)
        reply = await self.channel.begin(event_id)
        if not isinstance(reply, ActuationRequest):
            return reply
        actuation = reply.actuate
        if isinstance(actuation, ChunkRelease):
            await self.gate.release_chunk(actuation.index, timeout)
            reply = await self.channel.finish(event_id, asdict(actuation))
        else:
            reply = await self._release_script(event_id, actuation, timeout)
        while isinstance(reply, ActuationRequest):  # the chunk wrote a script: it loads now
            await self._release_written(reply)
            reply = await self.channel.finish(event_id, asdict(actuation))
        return reply

    async def _release_script(self, event_id: EventId, actuation: ScriptRelease,
                              timeout: float) -> StepReport | ActuationRequest:
        """Release the held script of ``event_id`` at the network while the page waits for it to run;
        what ``finish`` answers. A script can run without a request of its own to release: Chromium
        gives it the response it fetches for another element of the same URL, or its memory cache's;
        the release then stops waiting for that request once the script has run."""
        instrument = not actuation.worker
        release = asyncio.ensure_future(self.gate.release_script(actuation.url, timeout, instrument=instrument))
        finish = asyncio.ensure_future(self.channel.finish(event_id, asdict(actuation)))
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

    async def _user_action(self, action: UserAction, candidate: Candidate) -> StepReport:
        self.builder.events[action.event_id] = action.event()
        response = self._responded(action.awaited_response) if action.awaited_response is not None else None
        if response is not None:  # it happens after the response it waited for
            self.builder.preds[action.event_id] = [response]
        if action.loading_state is not None:  # it happens after the page's loading, as Playwright's wait does
            self.builder.preds[action.event_id] = [
                step.event for step in self.builder.steps if self._loads(step.event, action.loading_state)]
        await self.channel.user_begin(action.event_id, candidate.due)
        failure = None
        try:
            observed = await action.perform(self.page, timeout_ms=self.limits.event_timeout_s * 500)
        except (PlaywrightError, AssertionError) as error:
            said = (str(error).strip() or "no answer").splitlines()[0]
            failure = f"{action.kind} on {action.selector} failed: {said}"
        else:
            if action.kind == "read":
                self.builder.events[action.event_id] = action.event(observed)
        record = await self.channel.user_finish(action.event_id)
        if failure:
            record = replace(record, errors=(*record.errors, PageError("harness", failure, None, action.event_id)))
        self.scheduler.next_user += 1
        self.scheduler.last_user_time = record.now
        return record

    def _timed_out(self, event_id: EventId, enabled: dict[EventId, Candidate], planned: bool,
                   looping: bool, heap_mb: float | None = None) -> None:
        """Record that ``event_id`` hung (its script was terminated): its step, an error, the end.

        ``looping``: the page's script was still running when the time was up, so the event is
        an endless loop — an outcome of the page that every run of this order repeats
        (``truncated`` is ``endless-loop``); otherwise it waited for something that never came
        (``event-timeout``, a failed run). ``heap_mb``: the page's heap once the loop was
        stopped; a loop that filled it is said to have been allocating memory."""
        events = self.builder.events
        label = events[event_id].label if event_id in events else event_id
        limit = f"{self.limits.event_timeout_s:g} s"
        if looping and heap_mb is not None and heap_mb >= _ALLOCATING_MB:
            message = (f"endless loop in {label}: its script ran for {limit} allocating memory all the while "
                       f"(the page's heap reached {heap_mb / 1024:.1f} GB) and was stopped before memory ran out")
        elif looping:
            message = f"endless loop in {label}: its script ran for {limit} and was stopped"
        else:
            message = f"{label} did not finish within {limit}"
        self.builder.errors.append(ErrorRecord("harness", message, None, len(self.builder.steps)))
        self.state.truncated = Truncation.ENDLESS_LOOP if looping else Truncation.EVENT_TIMEOUT
        self.builder.add_step(event_id, enabled, planned, None)

    def _lost(self, error: PlaywrightError) -> None:
        self.builder.errors.append(ErrorRecord(
            "harness", f"the page stopped responding: {str(error).splitlines()[0]}", None, len(self.builder.steps)))
        self.state.truncated = Truncation.PAGE_LOST

    def _trace(self, enabled_at_end: dict[EventId, Candidate]) -> Trace:
        follower = self.scheduler.follower
        return self.builder.trace(enabled_at_end, self.actions[self.scheduler.next_user:], list(follower.skipped),
                                  dict(follower.matched), self.state.truncated, self.state.navigation)
