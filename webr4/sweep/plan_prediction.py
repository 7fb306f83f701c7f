"""Guessing the plans a strategy will ask for next, so idle workers can run them early.

R4 is a depth-first search: the next plan depends on the trace of the current one, so a sweep
cannot simply hand out N plans at once. Instead, a copy of the strategy is fed *predicted* traces
— the planned order, each event taking the step it had in a trace already seen — and asked for
its next plans. Those are executed speculatively. The real strategy still consumes only real
traces, and a plan's execution is deterministic, so a wrong guess costs an idle worker's time
and never changes the result: a sweep with N workers explores exactly what one worker does.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable

from webr4.engine import PlannedSequence, Strategy
from webr4.engine.grouping import ReversalGroups
from webr4.trace import EventId, Step, Trace

TraceFor = Callable[[PlannedSequence], Trace | None]
"""The real trace of a planned sequence when it is already known, else ``None``."""


def predict(plan: Iterable[EventId], known: Iterable[Trace]) -> Trace | None:
    """The trace ``plan`` would give if every event behaved as in the first known trace that ran
    it; ``None`` when some planned event was never seen to run."""
    seen: dict[EventId, tuple[Trace, int]] = {}
    for trace in known:
        for index, step in enumerate(trace.steps):
            seen.setdefault(step.event, (trace, index))
    steps: list[Step] = []
    position: dict[EventId, int] = {}
    events = {}
    for event in plan:
        if event in position:
            continue
        if event not in seen:
            return None
        origin, index = seen[event]
        old = origin.steps[index]
        predecessors = tuple(sorted(position[origin.steps[p].event] for p in old.predecessors
                                    if origin.steps[p].event in position))
        position[event] = len(steps)
        steps.append(Step(old.event, old.enabled, predecessors, old.accesses, old.time, True))
        events[event] = origin.events[event]
    return Trace(steps=steps, events=events)


def upcoming(strategy: Strategy, current: PlannedSequence, trace_for: TraceFor,
             known: Callable[[], Iterable[Trace]], count: int,
             groups: ReversalGroups | None = None) -> list[PlannedSequence]:
    """Up to ``count`` plans ``strategy`` is likely to hand out after ``current`` (outstanding)
    and the sweep to run: with its ``groups``, those a representative would stand for are
    withdrawn, every sequence not judged yet guessed to agree with its parent, as most do.

    Neither ``strategy`` nor ``groups`` is touched: deep copies are advanced with real traces
    where ``trace_for`` has them and predictions elsewhere, and stop at the first plan they
    cannot predict.
    """
    if count <= 0:
        return []
    shadow = copy.deepcopy(strategy)
    guess = copy.deepcopy(groups) if groups is not None else ReversalGroups(None)
    ahead: list[PlannedSequence] = []
    planned = current
    while len(ahead) < count:
        trace = trace_for(planned) or predict(planned.plan, known())
        if trace is None:
            break
        shadow.observe(planned, trace)
        guess.judged(planned.index, agrees=True)
        following = shadow.next_plan()
        while following is not None and guess.admit(following) is not None:
            shadow.withdraw(following)
            following = shadow.next_plan()
        if following is None:
            break
        ahead.append(following)
        planned = following
    return ahead
