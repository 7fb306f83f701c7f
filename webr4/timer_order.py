"""Happens-before between timers: the order in which a browser's clock must fire them.

A browser keeps one clock and fires ``setTimeout`` and ``setInterval`` callbacks by due time
(the virtual time the timer was created plus its delay, already clamped as HTML clamps nested
timers), ties in creation order, whatever task created them. Which pairs of timers that order
fixes in *every* execution, and not only in the recorded one, is what this module claims.

**The model of time.** Events take no virtual time; a timer fires exactly at its due time (the
clock never passes the due time of a pending timer); every other event — a parse chunk, a
network completion, a user action, an animation frame, a message — may happen at any time the
clock allows. So the time of a timer step is fixed by the step that created it: if that is a
timer too, by *its* creator, and so on up to the first step that is not a timer, the timer's
**anchor**. Relative to its anchor a timer's due time is exact: the sum of the delays along
the chain, its **offset**. Anchors have no fixed time, but happens-before orders them: an
anchor that happens before another ran no later on the clock.

**The claim.** Timer ``A`` fires before timer ``B`` in every execution of this model that
keeps the other happens-before edges when ``A``'s anchor is ``B``'s anchor or happens before
it, and either

* ``A``'s offset is smaller than ``B``'s (then ``A`` is due strictly earlier), or
* the offsets are equal and ``A``'s creating step is ``B``'s or happens before it (then ``A``
  is due no later and was created first, and equal due times fire in creation order).

This generalises HTML's rule for one task (timers it sets with non-decreasing delays fire in
creation order) to timers of different tasks, to chains of timers (a 50 ms polling interval
fires its firings due before a 60 s timeout set next to it) and to nested timers.

**What is not claimed.** Nothing orders a timer against a non-timer event: the time of a
network completion, a parse chunk or a user action is free, so a browser leaves that order
open, and the explorer may reverse it. Anchors whose order happens-before leaves open give no
edge between their timers, even when time would force one (for example a timer chain that
must elapse before a network completion is even requested); such orders stay open, never
wrongly closed. Inside one step, timers are taken to have been created in the order they
fired, which holds in any trace whose timers fired in due order (the default policy's
order); the edges always point forward in the trace.

Only direct edges are listed: a candidate that happens before another candidate is left out.

**Running a later timer first.** A reversal that runs timer ``B`` before timer ``A``, due no
later, is realisable only when ``A``'s chain starts later: its anchor (:func:`chain_start`) waits
until ``B`` has fired (:func:`start_to_delay`). When ``B`` descends from that anchor too, no browser
runs the order. The engine plans such reversals from the anchor's step, every executor fires
timers by due time whatever a plan says, and the plain-Chromium witness holds the anchor back.

The rule is part of the trace model: every executor (the browser, the engine's
model executor) adds these edges to the steps' predecessors when it builds a trace
(:func:`with_timer_order`), so everything that reads a trace sees them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from webr4.trace import Category, Event, EventId, Step, creation_edges


def timer_delay(event: Event | None) -> float | None:
    """The delay of a ``setTimeout``/``setInterval``-like timer event, ``None`` for any other."""
    if event is None or event.category is not Category.TIMER:
        return None
    delay = event.params.get("delay")
    return float(delay) if isinstance(delay, (int, float)) else None


@dataclass
class _Anchored:
    """The timers anchored at one step, as bitsets of their steps by offset and creating step.

    Timers of one anchor fire in offset order in a trace whose timers fired in due order, so
    the offsets arrive sorted and ``below[k]`` (the timers with offset under ``offsets[k]``) is
    kept as they come; in any other trace every level is looked at.
    """

    levels: dict[float, dict[int, int]] = field(default_factory=dict)  # offset -> creator -> bits
    offsets: list[float] = field(default_factory=list)  # distinct, in the order they came
    below: list[int] = field(default_factory=list)
    total: int = 0
    sorted: bool = True

    def add(self, offset: float, step: int, creator: int) -> None:
        if not self.offsets or offset > self.offsets[-1]:
            self.offsets.append(offset)
            self.below.append(self.total)
        elif offset < self.offsets[-1]:
            self.sorted = False
        by_creator = self.levels.setdefault(offset, {})
        by_creator[creator] = by_creator.get(creator, 0) | (1 << step)
        self.total |= 1 << step

    def before(self, offset: float, creator: int, ancestors: list[int]) -> int:
        """Bits of the timers here that must fire before one with ``offset`` created by step
        ``creator``: those due earlier, and those due as early and created first."""
        if self.sorted:
            k = bisect_left(self.offsets, offset)
            bits = self.below[k] if k < len(self.offsets) else self.total
        else:
            bits = 0
            for own, by_creator in self.levels.items():
                if own < offset:
                    for created in by_creator.values():
                        bits |= created
        for other, created in self.levels.get(offset, {}).items():
            if other == creator or (ancestors[creator] >> other) & 1:
                bits |= created
        return bits


def timer_edges(steps: Sequence[Step], events: Mapping[EventId, Event]) -> dict[int, tuple[int, ...]]:
    """Step of a timer → the earlier timer steps that must fire before it (direct edges only),
    by the rule of this module, given the steps' own predecessors and creation edges."""
    created = creation_edges(steps)
    last_step: dict[EventId, int] = {}
    ancestors: list[int] = []
    anchor: list[int] = []
    offset: list[float] = []
    anchored: dict[int, _Anchored] = {}
    edges: dict[int, tuple[int, ...]] = {}
    for j, step in enumerate(steps):
        creator = created.get(j)
        event = events.get(step.event)
        if creator is None and event is not None and event.creator in last_step:
            creator = last_step[event.creator]
        direct = set(step.predecessors)
        if creator is not None:
            direct.add(creator)
        delay = timer_delay(event)
        if delay is not None and creator is not None:
            anchor.append(anchor[creator])
            offset.append(offset[creator] + delay)
            before = 0
            for root, group in anchored.items():
                if root == anchor[j] or (ancestors[anchor[j]] >> root) & 1:
                    before |= group.before(offset[j], creator, ancestors)
            before &= (1 << j) - 1
            mine = []
            while before:
                i = before.bit_length() - 1
                mine.append(i)
                before &= ~(ancestors[i] | (1 << i))
            if mine:
                edges[j] = tuple(sorted(mine))
                direct.update(mine)
            anchored.setdefault(anchor[j], _Anchored()).add(offset[j], j, creator)
        else:
            anchor.append(j)
            offset.append(0.0)
        bits = 0
        for i in direct:
            if 0 <= i < j:
                bits |= ancestors[i] | (1 << i)
        ancestors.append(bits)
        last_step[step.event] = j
    return edges


def with_timer_order(steps: Sequence[Step], events: Mapping[EventId, Event]) -> list[Step]:
    """``steps`` with the timer edges of :func:`timer_edges` added to their predecessors."""
    edges = timer_edges(steps, events)
    return [
        replace(step, predecessors=tuple(sorted(set(step.predecessors) | set(edges[j])))) if j in edges else step
        for j, step in enumerate(steps)
    ]


# ------------------------------------------------------------------ running a later timer first


def chain_start(timer: Event, events: Mapping[EventId, Event]) -> Event | None:
    """The first event ``timer`` descends from that is no timer (``timer`` itself when it is
    none): the start of its chain of timers; ``None`` when a creator on the way is unknown."""
    event: Event | None = timer
    while event is not None and event.category is Category.TIMER:
        event = events.get(event.creator) if event.creator else None
    return event


def chain_offset(timer: Event, events: Mapping[EventId, Event]) -> float:
    """How long after the start of its chain (:func:`chain_start`) ``timer`` is due: the sum of
    the delays along the chain (0 for an event that is no timer)."""
    offset, event = 0.0, timer
    while (delay := timer_delay(event)) is not None and event.creator is not None and event.creator in events:
        offset += delay
        event = events[event.creator]
    return offset


def creators(event: Event, events: Mapping[EventId, Event]) -> set[EventId]:
    """The ids of the events ``event`` descends from, through its creators."""
    seen: set[EventId] = set()
    creator = event.creator
    while creator and creator not in seen and creator in events:
        seen.add(creator)
        creator = events[creator].creator
    return seen


@dataclass(frozen=True)
class NoLaterStart:
    """Why no browser fires one timer before another due no later than it: ``reason`` finishes
    the sentence "… is due no earlier (a clock fires timers by due time), and …"."""

    reason: str


def start_to_delay(late: Event, early: Event, events: Mapping[EventId, Event]) -> Event | NoLaterStart:
    """The event that must wait until timer ``late`` has fired for ``late`` to fire before timer
    ``early``, which is due no later than it: the start of ``early``'s chain
    (:func:`chain_start`). None can wait when it is unknown, or when ``late`` descends from it too
    (then ``late`` is due after it as well, and no later start changes the order)."""
    start = chain_start(early, events)
    if start is None:
        return NoLaterStart(f"what set {early.label} going is unknown")
    if start.id == late.id or start.id in creators(late, events):
        return NoLaterStart(f"both descend from {start.label}")
    return start
