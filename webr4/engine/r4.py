"""The R4 exploration (Jensen et al., OOPSLA 2015, Algorithms 1–4) as a resumable stepper.

States are prefixes of the current event sequence τ, so the maps ``T_seq``, ``V`` and ``d`` of
the paper live on a stack of :class:`_Node` — node ``q`` is the state after ``τ_{1..q}``. Each
node keeps

* ``pending``: ``T_seq(τ_{1..q})``, the suffix sequences still to explore from it, each with its
  conflict-reversal depth, the sequence it was found in (its parent) and the reversed conflict;
* ``visited``: ``V(τ_{1..q})``, the events already explored from it.

:meth:`R4Explorer.next_plan` is Algorithm 1's loop: it backtracks (pops nodes) to the deepest
state with an unexplored suffix whose depth is within the bound ``k`` (Algorithm 4) and plans
``τ_{1..q} · suffix``. :meth:`R4Explorer.observe` takes the executed trace and runs
``updatePersistentSets_seq`` (Algorithms 2 and 3) and ``updateVisited`` on it:

* for each step ``i`` and each event ``e`` that ``τ_i`` disabled, ``e · τ_{i..n}`` goes into
  ``T_seq(τ_{1..i-1})`` (Algorithm 2, lines 5–7);
* for each uncovered race ``(i, j)`` (§4.4), the witness ``λ · τ_j · τ_i · μ`` goes there too,
  where ``λ`` are the steps strictly between ``i`` and ``j`` that happen before ``τ_j`` and ``μ``
  the remaining later steps, both in trace order (``findRaceWitness``); when ``τ_i`` is a
  response and ``τ_j`` a test's step, a second witness holds the response past the test's next
  read (:func:`_held_response_witness`), as a slow network would;
* suffixes whose first event the trace just ran from that state are moved one state down
  (Algorithm 3, line 7), so sequences sharing a prefix with an explored one are not lost.

Sleep sets (optional) additionally skip a suffix whose first event is asleep: explored from an
earlier state of the same branch and independent of everything run since. Footprints are taken
from the traces, so they are exact when an event's accesses do not depend on the state.

**Sequential by design.** R4 is a depth-first search: which sequence comes next depends on the
persistent sets the previous trace adds, so exactly one plan can be outstanding at a time
(:meth:`next_plan` raises otherwise). A parallel sweep can run several independent explorers
(one per seed trace or per session), not several plans of one explorer.

An interrupted sweep resumes by running a fresh explorer over the traces it stored: the
explorer is deterministic, so it hands out the same plans again (:mod:`webr4.rundir.store`).

For the pruning statistics (:mod:`webr4.engine.stats`) the explorer keeps running totals, over
the states it has run an event from, of their enabled events and of the events explored from
them (:meth:`R4Explorer.state_totals`): a state's enabled set is counted when the first event is
explored from it, and each further event when it is.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from webr4.engine.hb import HappensBefore, iter_bits
from webr4.engine.plans import ExplorationResult, ExploredSequence, PlannedSequence, Reversal, run
from webr4.engine.races import Race, RaceFilter, find_races
from webr4.engine.stats import StrategyStats, por_pruning
from webr4.timer_order import NoLaterStart, start_to_delay, timer_delay
from webr4.trace import AccessKind, Category, EventId, Executor, Step, Trace, event_code, event_location
from webr4.useractions import EXPECT, READ

@dataclass(frozen=True)
class Footprint:
    """The locations one executed event read and wrote."""

    reads: frozenset[str]
    writes: frozenset[str]

    @classmethod
    def of(cls, step: Step) -> Footprint:
        reads = {a.location for a in step.accesses if a.kind is AccessKind.READ}
        writes = {a.location for a in step.accesses if a.kind is AccessKind.WRITE}
        return cls(frozenset(reads), frozenset(writes))

    def independent_of(self, other: Footprint) -> bool:
        """No location written by one and read or written by the other."""
        return not (self.writes & (other.reads | other.writes)) and not (other.writes & self.reads)


@dataclass(frozen=True)
class _Entry:
    """One suffix sequence of ``T_seq`` with its depth ``d``, parent and reversed conflict.

    ``origin`` is the state (prefix length) it was inserted at, where it leaves its parent; moving
    it down (Algorithm 3) does not change that.
    """

    suffix: tuple[EventId, ...]
    depth: int
    parent: int
    reversal: Reversal
    origin: int


@dataclass(slots=True)
class _Node:
    """The exploration state attached to one prefix of the current sequence."""

    enabled: frozenset[EventId]
    event: EventId | None = None  # what the current sequence runs from here (None at its end)
    visited: dict[EventId, Footprint | None] = field(default_factory=dict)
    pending: list[_Entry] = field(default_factory=list)
    sleep: dict[EventId, Footprint] = field(default_factory=dict)


class R4Explorer:
    """R4's exploration from one seed trace, one plan at a time.

    ``bound`` is the conflict-reversal bound ``k`` (``None`` explores without bound);
    ``sleep_sets`` turns sleep-set pruning on; ``filters`` are race filters (see
    :mod:`webr4.engine.races`), which are code and are therefore passed again to :meth:`from_json`.
    ``explored[0]`` is the seed; ``explored[n]`` records sequence ``n`` with its parent and
    reversal. ``divergences`` counts traces whose replayed prefix did not match the plan.
    """

    def __init__(
        self,
        seed: Trace,
        bound: int | None = None,
        *,
        sleep_sets: bool = False,
        filters: Iterable[RaceFilter] = (),
    ) -> None:
        self.bound = bound
        self.sleep_sets = sleep_sets
        self.filters = tuple(filters)
        self.explored: list[ExploredSequence] = []
        self.divergences = 0
        self._enabled_total = 0
        self._explored_total = 0
        self._nodes: list[_Node] = []
        self._outstanding: PlannedSequence | None = None
        self._absorb(PlannedSequence(0, tuple(seed.sequence), None, None, 0), seed)

    # -- the stepper ---------------------------------------------------------------------------

    def next_plan(self) -> PlannedSequence | None:
        """Backtrack to the deepest state with an unexplored suffix and plan it; ``None`` when done."""
        if self._outstanding is not None:
            raise RuntimeError(f"sequence {self._outstanding.index} is still outstanding; observe it first")
        while self._nodes:
            node = self._nodes[-1]
            while node.pending:
                entry = node.pending.pop(0)
                if self._explorable(entry, node):
                    self._visit(node, entry.suffix[0], None)
                    depth = len(self._nodes) - 1
                    prefix = tuple(n.event for n in self._nodes[:depth] if n.event is not None)  # all are set
                    self._outstanding = PlannedSequence(
                        index=len(self.explored),
                        plan=prefix + entry.suffix,
                        parent=entry.parent,
                        reversal=entry.reversal,
                        depth=entry.depth,
                        prefix_length=entry.origin,
                    )
                    return self._outstanding
            self._nodes.pop()
        return None

    def observe(self, planned: PlannedSequence, trace: Trace) -> None:
        """Take the trace executed for ``planned`` (the plan :meth:`next_plan` last returned)."""
        if planned != self._outstanding:
            raise ValueError(f"sequence {planned.index} is not the outstanding plan")
        self._outstanding = None
        self._absorb(planned, trace)

    def withdraw(self, planned: PlannedSequence) -> None:
        """Take back ``planned`` (the plan :meth:`next_plan` last returned) unexecuted.

        Its first event is unmarked as explored from the state it leaves, so the suffixes pending
        there that start with that event (which its trace would have moved one state down) are
        planned from there instead; the states it would have added never exist, and neither do
        the sequences its races would have added. It keeps its index, recorded as withdrawn.
        """
        if planned != self._outstanding:
            raise ValueError(f"sequence {planned.index} is not the outstanding plan")
        self._outstanding = None
        node = self._nodes[-1]
        del node.visited[planned.plan[len(self._nodes) - 1]]  # explorable, so unvisited until planned
        self._explored_total -= 1
        if not node.visited:
            self._enabled_total -= len(node.enabled)
        self.explored.append(ExploredSequence.never_run(planned))

    def reads_accesses(self, planned: PlannedSequence) -> bool:
        """A sequence at the bound adds no sequence (a race it shows would be one reversal too
        many): its accesses are read only for sleep sets."""
        return self.sleep_sets or self.bound is None or planned.depth < self.bound

    @property
    def outstanding(self) -> PlannedSequence | None:
        return self._outstanding

    @property
    def pending(self) -> int:
        """Suffixes waiting in the persistent sets within the bound: an upper estimate of the
        sequences still to explore (some will turn out explored already; new races add more)."""
        return sum(1 for node in self._nodes for entry in node.pending
                   if self.bound is None or entry.depth <= self.bound)

    def stats(self) -> StrategyStats:
        """How much partial-order reduction has pruned so far."""
        return StrategyStats(pruning=por_pruning(self))

    def state_totals(self) -> tuple[int, int]:
        """Over every state the exploration has run an event from: the sum of their enabled-set
        sizes, and the sum of the numbers of events explored (planned or run) from them."""
        return self._enabled_total, self._explored_total

    def branches(self) -> list[R4Explorer]:
        """The independent parts of a bound-1 exploration, in the order this explorer takes them.

        Call it on an explorer with bound 1, without sleep sets, that has only taken its seed. At
        bound 1 every pending suffix comes from the seed, and no later trace adds one; the suffixes
        of one state that start with the same event form a branch: the first is planned and the
        others move into the states below it, which only that branch visits. Each branch is an
        explorer holding that branch alone, so with a deterministic executor the branches together
        explore exactly what this explorer explores, whatever order they are taken in. Their
        :meth:`state_totals` count only what they explore beyond the seed.
        """
        if self.bound != 1 or self.sleep_sets or len(self.explored) != 1 or self._outstanding is not None:
            raise ValueError("only a bound-1 explorer without sleep sets that has taken only its seed has branches")
        result: list[R4Explorer] = []
        for depth in reversed(range(len(self._nodes))):
            groups: dict[EventId, list[_Entry]] = {}
            for entry in self._nodes[depth].pending:
                groups.setdefault(entry.suffix[0], []).append(entry)
            result += [self._branch(depth, entries) for entries in groups.values()]
        return result

    def _branch(self, depth: int, entries: list[_Entry]) -> R4Explorer:
        """A copy whose stack ends at state ``depth``, with ``entries`` its only pending suffixes."""
        branch = copy.copy(self)
        branch.explored = list(self.explored)
        branch._enabled_total = branch._explored_total = 0
        branch._nodes = [_Node(n.enabled, n.event, dict(n.visited), [], dict(n.sleep))
                         for n in self._nodes[: depth + 1]]
        branch._nodes[depth].pending = list(entries)
        return branch

    def _visit(self, node: _Node, event: EventId, footprint: Footprint | None) -> None:
        """Mark ``event`` explored from ``node``, counting it (and the state, the first time)."""
        if event not in node.visited:
            if not node.visited:
                self._enabled_total += len(node.enabled)
            self._explored_total += 1
        node.visited[event] = footprint

    # -- updating the maps from one trace ------------------------------------------------------

    def _absorb(self, planned: PlannedSequence, trace: Trace) -> None:
        """Update the maps from ``trace``. States before the first one that changed keep their
        visited events (each holds its own event already), so the work past the persistent sets
        is proportional to the new part of the sequence; footprints are taken only for sleep sets.
        """
        sequence = trace.sequence
        explored_from = max(len(self._nodes) - 1, 0)  # the state next_plan backtracked to
        start = self._rebase(explored_from, planned.plan, trace, sequence)
        footprints = [Footprint.of(step) if self.sleep_sets else None for step in trace.steps[start:]]
        if self.sleep_sets and start == explored_from:
            self._update_sleep(start, sequence, [f for f in footprints if f is not None])  # all are set
        self._update_persistent_sets(planned, trace)
        self._move_shared_prefixes(start, sequence)
        for node, event, footprint in zip(self._nodes[start:], sequence[start:], footprints):
            self._visit(node, event, footprint)
        self.explored.append(ExploredSequence(planned, tuple(sequence), tuple(trace.skipped)))

    def _rebase(self, prefix_length: int, plan: Sequence[EventId], trace: Trace, sequence: list[EventId]) -> int:
        """Make the node stack describe ``trace``; returns the first depth that changed.

        Nodes up to the longest common prefix of the stack and the trace are kept; a common prefix
        shorter than the planned one means the replay diverged, and the states past it are lost.
        The stack's events are the plan's first ``prefix_length`` entries, so a faithful replay
        is recognised by one comparison.
        """
        common = 0
        if sequence[:prefix_length] == list(plan[:prefix_length]):
            common = prefix_length
        while common < min(prefix_length, len(sequence)) and self._nodes[common].event == sequence[common]:
            common += 1
        if common < prefix_length:
            self.divergences += 1
        del self._nodes[common + 1 :]
        if not self._nodes:
            self._nodes.append(_Node(enabled=trace.enabled_before(0)))
        origin = self._nodes[common]
        origin.enabled = trace.enabled_before(common)
        origin.event = sequence[common] if common < len(sequence) else None
        self._nodes.extend(_Node(step.enabled, step.event) for step in trace.steps[common + 1 :])
        if common < len(sequence):
            self._nodes.append(_Node(trace.enabled_at_end))
        return common

    def _update_sleep(self, start: int, sequence: Sequence[EventId], footprints: Sequence[Footprint]) -> None:
        """Sleep sets of the new states: what slept or was explored before, minus what conflicts.

        ``footprints`` are those of the steps from ``start`` on.
        """
        origin = self._nodes[start]
        asleep = dict(origin.sleep)
        asleep.update((e, fp) for e, fp in origin.visited.items() if fp is not None)
        for depth in range(start, len(sequence)):
            ran, footprint = sequence[depth], footprints[depth - start]
            asleep = {e: fp for e, fp in asleep.items() if e != ran and fp.independent_of(footprint)}
            self._nodes[depth + 1].sleep = asleep

    def _update_persistent_sets(self, planned: PlannedSequence, trace: Trace) -> None:
        """Algorithm 2 with Algorithm 4's insertion: new suffixes get depth ``d + 1``."""
        depth = planned.depth + 1
        if self.bound is not None and depth > self.bound:
            return
        steps, sequence = trace.steps, trace.sequence
        hb = HappensBefore(steps)
        witnesses: dict[int, list[tuple[int, Race]]] = {}
        for (i, j), races in sorted(find_races(trace, hb, self.filters).uncovered_pairs().items()):
            witnesses.setdefault(i, []).append((j, races[0]))
        for i, step in enumerate(steps):
            node = self._nodes[i]
            for disabled in sorted(step.enabled - trace.enabled_before(i + 1) - {step.event}):
                suffix = (disabled, *sequence[i:])
                reversal = Reversal(step.event, disabled, event_location(disabled), disable=True,
                                    codes=_codes(trace, step.event, disabled))
                self._insert(node, _Entry(suffix, depth, planned.index, reversal, i))
            for j, race in witnesses.get(i, ()):
                origin = _reversal_state(trace, hb, i, j)
                suffix = _race_witness(sequence, hb, origin, j)
                reversal = Reversal(step.event, sequence[j], race.location, sites=(race.first_site, race.second_site),
                                    codes=_codes(trace, step.event, sequence[j]))
                self._insert(self._nodes[origin], _Entry(suffix, depth, planned.index, reversal, origin))
                held = _held_response_witness(trace, hb, origin, j)
                if held is not None:
                    self._insert(self._nodes[origin],
                                 _Entry(held, depth, planned.index, replace(reversal, held=True), origin))

    def _insert(self, node: _Node, entry: _Entry) -> None:
        if entry.suffix[0] in node.visited or entry.suffix[0] not in node.enabled:
            return  # already explored from here (or not runnable here): never explorable
        if all(other.suffix != entry.suffix for other in node.pending):
            node.pending.append(entry)

    def _move_shared_prefixes(self, start: int, sequence: Sequence[EventId]) -> None:
        """Algorithm 3, line 7: suffixes starting with the event just run move one state down.

        Leading events not enabled in the lower state are dropped, as approximate replay would
        skip them; a suffix that empties is done. States before ``start`` are skipped: after
        every trace no state holds a suffix starting with its own event (this pass moves them
        all, and :meth:`_insert` refuses visited events), and those states' events are unchanged.
        """
        for depth in range(start, len(sequence)):
            node, below, event = self._nodes[depth], self._nodes[depth + 1], sequence[depth]
            if not node.pending:
                continue
            moving = [entry for entry in node.pending if entry.suffix[0] == event]
            if not moving:
                continue
            node.pending = [entry for entry in node.pending if entry.suffix[0] != event]
            for entry in moving:
                tail = entry.suffix[1:]
                while tail and tail[0] not in below.enabled:
                    tail = tail[1:]
                if tail and all(other.suffix != tail for other in below.pending):
                    below.pending.append(_Entry(tail, entry.depth, entry.parent, entry.reversal, entry.origin))

    def _explorable(self, entry: _Entry, node: _Node) -> bool:
        """Algorithm 4's ``unexplored_crb``, plus sleep sets when enabled."""
        first = entry.suffix[0]
        return (
            first not in node.visited
            and first not in node.sleep
            and first in node.enabled
            and (self.bound is None or entry.depth <= self.bound)
        )


def _codes(trace: Trace, first: EventId, second: EventId) -> tuple[str | None, str | None]:
    """What code the two events run, as their trace events say (None for one it lacks)."""
    earlier, later = trace.events.get(first), trace.events.get(second)
    return (event_code(earlier) if earlier else None, event_code(later) if later else None)


def _reversal_state(trace: Trace, hb: HappensBefore, i: int, j: int) -> int:
    """The state from which the race ``(i, j)`` is reversed: ``i``, unless both are timers and
    ``τ_i`` was due no later than ``τ_j``. A clock fires timers by due time, so ``τ_j`` fires first
    only when ``τ_i``'s chain of timers starts after it: the reversal then runs from the step that
    starts that chain (:func:`~webr4.timer_order.start_to_delay`), which the witness
    ``λ · τ_j · τ_start · μ`` puts after ``τ_j``. When no such step exists or it happens before
    ``τ_j``, the reversal stays at ``i``: the executor fires ``τ_i`` first, as a browser would,
    and the verdict is ``unrealised``."""
    first, second = trace.steps[i], trace.steps[j]
    early, late = trace.events.get(first.event), trace.events.get(second.event)
    if timer_delay(early) is None or timer_delay(late) is None or first.time > second.time:
        return i
    assert early is not None and late is not None
    start = start_to_delay(late, early, trace.events)
    if isinstance(start, NoLaterStart):
        return i
    at = next((k for k in range(i - 1, -1, -1) if trace.steps[k].event == start.id), None)
    return i if at is None or hb.happens_before(at, j) else at


def _race_witness(sequence: Sequence[EventId], hb: HappensBefore, i: int, j: int) -> tuple[EventId, ...]:
    """``λ · τ_j · τ_i · μ`` for the uncovered race ``(i, j)``; ``μ`` is copied slice by slice
    between the positions ``λ`` and ``τ_j`` take out."""
    between = ((1 << j) - 1) & ~((1 << (i + 1)) - 1)
    lam = list(iter_bits(hb.ancestors(j) & between))
    mu: list[EventId] = []
    start = i + 1
    for taken in (*lam, j):
        mu += sequence[start:taken]
        start = taken + 1
    mu += sequence[start:]
    return (*(sequence[x] for x in lam), sequence[j], sequence[i], *mu)


def _held_response_witness(trace: Trace, hb: HappensBefore, i: int, j: int) -> tuple[EventId, ...] | None:
    """For a response ``τ_i`` racing a test's step ``τ_j``: the witness that holds the response
    past the test's next read, as a slow network does, or None when there is no such witness.

    :func:`_race_witness` runs the response right after ``τ_j``, so a read a few steps later (after
    more typing, say) still finds what the response wrote; the race with the read itself is
    covered by the one with ``τ_j`` and would take a reversal per step in between. Here the steps
    up to the first ``read`` step after ``τ_j``, with all that happens before them, run before the
    response. There is none when ``τ_i`` is not a response, ``τ_j`` not a user step, an ``expect``
    step comes first (it waits for what it asserts, as the test does), or a step up to the read
    happens after the response (it needs it)."""
    events = trace.events
    response, step = events.get(trace.steps[i].event), events.get(trace.steps[j].event)
    if response is None or step is None:
        return None
    if response.category is not Category.NETWORK or step.category is not Category.USER:
        return None
    for r in range(j + 1, len(trace.steps)):
        later = events.get(trace.steps[r].event)
        if later is None or later.category is not Category.USER:
            continue
        if later.type == EXPECT or hb.happens_before(i, r):
            return None
        if later.type == READ:
            break
    else:
        return None
    sequence = trace.sequence
    held = hb.ancestors(r) | hb.ancestors(j) | (1 << j) | (1 << r)
    ahead = [k for k in range(i + 1, r + 1) if held >> k & 1]
    taken = set(ahead)
    rest = [sequence[k] for k in range(i + 1, len(sequence)) if k not in taken]
    return (*(sequence[k] for k in ahead), sequence[i], *rest)


def explore(
    executor: Executor,
    seed: Trace,
    bound: int | None = None,
    *,
    sleep_sets: bool = False,
    filters: Iterable[RaceFilter] = (),
    max_sequences: int | None = None,
    max_seconds: float | None = None,
    clock: Callable[[], float] | None = None,
) -> ExplorationResult:
    """Explore from ``seed`` with bound ``k = bound`` until done or out of budget.

    The seed counts as sequence 0 (and towards ``max_sequences``); its trace is included in the
    result's ``traces``.
    """
    explorer = R4Explorer(seed, bound, sleep_sets=sleep_sets, filters=filters)
    options: dict[str, Any] = {"max_sequences": max_sequences, "max_seconds": max_seconds}
    if clock is not None:
        options["clock"] = clock
    result = run(explorer, executor, **options)
    result.traces[0] = seed
    return result
