"""The trace of one controlled run, built as the page's records come in.

Each record (events created, events gone, accesses, errors) becomes what the trace knows of its
events and a :class:`~webr4.trace.Step`, with its happens-before predecessors: the events the
runtime lists as its direct predecessors and its creator, followed through events that never ran;
user events are totally ordered after the head. The page holds back the variables and properties
an event alone has touched until another event touches them
(``instrument_js/access_log/holding.js``); a record then hands them over, and they join the step
of the event that made them, in the place the full log gives them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Sequence

from webr4.browser.network import NetworkGate
from webr4.browser.records import AccessEntry, RecordError, StepReport
from webr4.browser.schedule import Candidate
from webr4.access_summary import by_location
from webr4.timer_order import with_timer_order
from webr4.gcpause import gc_paused
from webr4.trace import ACCESS_KINDS, Access, Category, ErrorRecord, Event, EventId, Navigation, Step, Trace

if TYPE_CHECKING:
    from webr4.browser.actions import UserAction

_Promoted = tuple[int, int, tuple[Access, ...]]
"""A held-back location handed over: its position and rank in its step, its accesses."""


@dataclass
class TraceBuilder:
    """What one run has recorded so far; ``gate`` maps the sites of served code back to the
    page's own and words the page's errors (:class:`~webr4.browser.network.NetworkGate`)."""

    gate: NetworkGate
    steps: list[Step] = field(default_factory=list)
    events: dict[EventId, Event] = field(default_factory=dict)
    preds: dict[EventId, list[EventId]] = field(default_factory=dict)
    step_of: dict[EventId, int] = field(default_factory=dict)
    pending: dict[EventId, Candidate] = field(default_factory=dict)
    errors: list[ErrorRecord] = field(default_factory=list)
    uncontrolled: list[str] = field(default_factory=list)
    now: float = 0.0  # the run's virtual time
    last_user_step: int | None = None
    leaving: bool = False  # the page began to navigate away (beforeunload, window.open)
    leaving_event: EventId | None = None
    promoted: dict[int, list[_Promoted]] = field(default_factory=dict)  # by step index

    def add_step(self, event_id: EventId, enabled: dict[EventId, Candidate], planned: bool,
                 record: StepReport | None) -> None:
        """Append the step of ``event_id``; ``record`` None: it never finished (no accesses)."""
        index = len(self.steps)
        event = self.events.get(event_id)
        sources = list(self.preds.get(event_id, ()))
        if event is not None and event.creator:
            sources.append(event.creator)
        preds = self._steps_before(sources)
        if event is not None and event.category is Category.USER:
            # User events are totally ordered, and the first one follows the head: every
            # execution starts with it, so no user event can ever come before it.
            if self.last_user_step is not None:
                preds.add(self.last_user_step)
            elif index > 0:
                preds.add(0)
            self.last_user_step = index
        with gc_paused():
            accesses = self._accesses(record.accesses) if record is not None else ()
        candidate = enabled[event_id]
        self.steps.append(Step(
            event=event_id, enabled=frozenset(enabled), predecessors=tuple(sorted(preds)), accesses=accesses,
            time=max(self.now, candidate.due), planned=planned,
            unlisted_writes=record.unlisted_writes if record is not None else (),
        ))
        self.step_of[event_id] = index
        self.pending.pop(event_id, None)

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
            if source in self.step_of:
                steps.add(self.step_of[source])
            else:
                sources.extend(self.preds.get(source, ()))
        return steps

    def _accesses(self, entries: Sequence[AccessEntry]) -> tuple[Access, ...]:
        """The accesses of ``entries``; built with the collector paused (:func:`gc_paused`) by the
        caller: up to 10^5 accesses, and no cycle among them."""
        fix, kinds = self.gate.original_site, ACCESS_KINDS
        return tuple(Access(kinds[kind], location, fix(site), value) for kind, location, site, value in entries)

    def take_promoted(self, record: StepReport) -> None:
        """Keep the held-back locations ``record`` hands over for the steps that made them."""
        with gc_paused():  # once for them all: a framework's page hands over 10^4 locations, one entry each
            for event_id, position, rank, entries in record.promoted:
                index = self.step_of.get(event_id)
                if index is None:
                    raise RecordError(f"the page runtime handed over accesses of {event_id}, which has no step")
                self.promoted.setdefault(index, []).append((position, rank, self._accesses(entries)))

    def _with_promoted(self, index: int, step: Step) -> Step:
        """``step`` with the held-back locations handed over for it, each in its place."""
        promoted = sorted(self.promoted.get(index, ()), key=lambda p: (p[0], p[1]))
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

    def absorb(self, record: StepReport, step: int | None) -> None:
        """Take in what ``record`` says beyond its step: the events created and gone, errors
        (of step ``step``, ``None`` when before any), the time, leaving, what it hands over."""
        self.take_promoted(record)
        fix = self.gate.original_site
        for created in record.created:
            params = dict(created.params)
            label = created.label
            if params.get("site"):
                served, params["site"] = params["site"], fix(params["site"])
                label = label.replace(served.rsplit("/", 1)[-1], params["site"].rsplit("/", 1)[-1])
            self.events[created.id] = Event(
                id=created.id, category=Category(created.category), type=created.type, label=label,
                creator=created.creator, params=params,
            )
            self.preds[created.id] = list(created.preds)
        for error in record.errors:
            self.errors.append(ErrorRecord(error.kind, *self.gate.page_error(error.message, error.site), step))
        self.uncontrolled.extend(record.uncontrolled)
        for created in record.created:
            self.pending[created.id] = Candidate(created.id, created.due, created.prio, created.seq or 0)
        for event in record.gone:
            self.pending.pop(event, None)
        self.now = max(self.now, record.now)
        if record.leaving is not None and not self.leaving:
            self.leaving, self.leaving_event = True, record.leaving.event

    def trace(self, enabled_at_end: dict[EventId, Candidate], unstarted: Sequence[UserAction],
              skipped: list[EventId], matched: dict[EventId, EventId], truncated: str | None,
              navigation: Navigation | None) -> Trace:
        """The run's trace: ``unstarted`` are the user steps that never ran, ``skipped`` and
        ``matched`` what following the plan did, ``truncated`` the bound that ended the run."""
        for action in unstarted:
            self.events.setdefault(action.event_id, action.event())
        errors = list(self.errors)
        errors.extend(ErrorRecord("harness", note, None, None) for note in self.gate.notes)
        steps = [self._with_promoted(index, step) for index, step in enumerate(self.steps)]
        return Trace(
            steps=with_timer_order(steps, self.events),
            events=self.events,
            enabled_at_end=frozenset(enabled_at_end),
            skipped=skipped,
            matched=matched,
            truncated=truncated,
            errors=errors,
            uncontrolled=sorted(set(self.uncontrolled) | set(self.gate.uncontrolled)),
            navigation=navigation,
        )
