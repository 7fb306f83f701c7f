"""Judging one explored sequence against its parent: what raced, what differed, and the verdict.

:func:`judge` is everything a sweep learns from a child execution and its parent, as plain data:
the racing pair (:func:`racing_pair`), the locations they conflict on in words, where each touched
them, the difference between the two end states under the noise mask, the verdict, whether the
planned order happened and how far it is from the recorded timing. Writing any of it down is the
sweep's job.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from webr4.classify.classifier import classify
from webr4.classify.differences import describe_differences
from webr4.classify.explain import explaining_first
from webr4.classify.verdict import Verdict
from webr4.engine.describe import describe_locations
from webr4.engine.plans import PlannedSequence
from webr4.engine.realism import shift_in_words, timing_shift, unrealised
from webr4.state.diff import StateDiff
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot
from webr4.trace import Event, Trace
from webr4.vocabulary import failure


@dataclass(frozen=True)
class Judgement:
    """One child against its parent. ``first`` ran first in the parent; ``locations`` are the
    pair's conflicting locations as (words, key), those that explain the difference first, then
    most visible first (:mod:`webr4.classify.explain`); ``sites`` where each of the
    pair first touched them (None through browser APIs); ``failure`` why the child's or the
    parent's execution failed (None when neither did: then, and only then, the two end states
    are compared); ``unrealised`` why the planned order did not happen (None when it did, or
    when the child failed); ``timing`` the child's distance from the recorded timing."""

    first: Event
    second: Event
    locations: list[tuple[str, str]]
    location_key: str
    sites: tuple[str | None, str | None]
    difference: StateDiff
    verdict: Verdict
    differences: dict[str, list[str]]
    failure: str | None
    unrealised: str | None
    timing: str
    timing_ms: float


def judge(planned: PlannedSequence, seed: Trace, parent_trace: Trace, parent_state: StateSnapshot,
          child_trace: Trace, child_state: StateSnapshot, mask: NoiseMask, rules: Iterable[str] | None) -> Judgement:
    """Compare the child ``planned`` produced with its parent and classify the difference; the
    child's timing is measured against the recording, ``seed``. ``rules`` names the classifier
    rules in force (all when None). The state of a failed execution is no state: with a failed
    child or parent there is no difference, and the verdict is ``error``."""
    child_failure, parent_failure = failure(child_trace), failure(parent_trace)
    failed = (f"the reversal's execution failed: {child_failure}" if child_failure
              else f"the parent's execution failed: {parent_failure}" if parent_failure else None)
    difference = StateDiff() if failed else mask.diff(parent_state, child_state)
    first, second, location = racing_pair(planned, parent_trace, child_trace)
    verdict = classify(parent_trace, child_trace, difference, (first, second),
                       child_failed=child_failure is not None, rules=rules)
    named = explaining_first(describe_locations(parent_trace, first.id, second.id, location), difference)
    keys = [key for _words, key in named] or [location]
    shift = timing_shift(seed, child_trace.planned_sequence)
    return Judgement(
        first=first, second=second, locations=list(named), location_key=keys[0],
        sites=(access_site(parent_trace, first.id, keys), access_site(parent_trace, second.id, keys)),
        difference=difference, verdict=verdict, differences=describe_differences(difference),
        failure=failed,
        unrealised=None if child_failure else unrealised(child_trace, first.id, second.id,
                                                         {**seed.events, **parent_trace.events}),
        timing=shift_in_words(shift, seed.events), timing_ms=shift.ms if shift else 0.0,
    )


def racing_pair(planned: PlannedSequence, parent: Trace, child: Trace) -> tuple[Event, Event, str]:
    """The reversed pair and its location key; for strategies without one, the events at the
    first position where the two sequences part (and no location)."""
    if planned.reversal is not None:
        r = planned.reversal
        return _event(r.first, parent, child), _event(r.second, parent, child), r.location
    for before, after in zip(parent.sequence, child.planned_sequence):
        if before != after:
            return _event(before, parent, child), _event(after, parent, child), ""
    return _event(parent.sequence[-1], parent), _event(child.sequence[-1], child), ""


def access_site(trace: Trace, event_id: str, locations: list[str]) -> str | None:
    """Where ``event_id`` touched the racing locations in ``trace``: its first access with a
    site to the first of ``locations`` that has one (accesses through browser APIs have none)."""
    for step in trace.steps:
        if step.event == event_id:
            sites: dict[str, str] = {}
            for access in step.accesses:
                if access.site and access.location in locations:
                    sites.setdefault(access.location, access.site)
            return next((sites[location] for location in locations if location in sites), None)
    return None


def _event(event_id: str, *traces: Trace) -> Event:
    for trace in traces:
        if event_id in trace.events:
            return trace.events[event_id]
    raise KeyError(event_id)
