"""When a run that need not terminate may stop: the full-cycle proviso and a firing limit.

Event-driven programs loop: interval timers, pollers, timers that re-arm each other. A run of one
has no final state, so an executor needs a rule for where to end it that still lets the
exploration see every conflict. :class:`EndOfRun` is that rule, after Trimananda et al.
(*Stateful DPOR for event-driven applications that do not terminate*, Algorithm 4,
``IsFullCycle``):

* a run may stop only in a state it has been in before (same canonical fingerprint), and only
  if the **cycle** since some earlier occurrence of that state is *full*: every event enabled in
  any state of the cycle fired at least once within it. Then every event that could conflict
  with a step of the cycle has had its turn in the cycle, so the conflicts that reversals feed
  on have all been observed; stopping at the first repeat is not enough, because an event that
  stayed enabled but never ran would never be seen to conflict. Every earlier occurrence is
  tried, not only the first as in the paper: a run that picks the least-fired event by default
  then reaches a full cycle in any finite state space, since an event enabled early and never
  again cannot hold up the cycles closed after it.
* as a fallback for programs whose state never repeats (a counter), the run stops when one
  event fires more than ``firing_limit`` times. Unlike a full cycle, this cut depends on the
  interleaving rather than on the conflicts, so an exploration can miss an end state that
  only an interleaving it deems equivalent would have reached uncut.

The component is pure bookkeeping: the executor supplies the fingerprints (any hashable value
equal for equal program states), and decides itself what to do with a :class:`Stop`.

Contract. Build it with the initial state's fingerprint and enabled set, then call
:meth:`EndOfRun.after` once per executed step, in order, with the event that fired and the
fingerprint and enabled set of the state it led to. The first non-``None`` answer says the run
may stop there and why; the run need not stop (a plan may still be running), and later calls
keep answering. Nothing is asked of a run that ends because nothing is enabled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from webr4.trace import EventId

FULL_CYCLE = "full-cycle"
"""``Trace.truncated`` of a run stopped where a full cycle closed."""

FIRING_LIMIT = "firing-limit"
"""``Trace.truncated`` of a run stopped because one event fired more than the limit allows."""


@dataclass(frozen=True)
class Stop:
    """Why a run may stop after step ``step`` (1-based: the number of steps executed so far).

    For :data:`FULL_CYCLE`, ``cycle_start`` is the number of steps after which the run was in
    its current state before: the full cycle is steps ``cycle_start + 1 … step``. For
    :data:`FIRING_LIMIT`, ``event`` is the event that went over the limit.
    """

    reason: str
    step: int
    cycle_start: int | None = None
    event: EventId | None = None


@dataclass
class EndOfRun:
    """The end-of-run rule for one run; feed it every step with :meth:`after`.

    ``initial_fingerprint`` and ``initial_enabled`` describe the state before the first step;
    ``firing_limit`` (at least 1) is how often one event may fire before the run is stopped
    regardless of cycles.
    """

    initial_fingerprint: Hashable
    initial_enabled: AbstractSet[EventId]
    firing_limit: int
    _states: list[tuple[Hashable, frozenset[EventId]]] = field(init=False)
    _fired: list[EventId] = field(init=False, default_factory=list)
    _seen: dict[Hashable, list[int]] = field(init=False, default_factory=dict)
    _firings: Counter[EventId] = field(init=False, default_factory=Counter)

    def __post_init__(self) -> None:
        if self.firing_limit < 1:
            raise ValueError(f"the firing limit must be at least 1, not {self.firing_limit}")
        self._states = [(self.initial_fingerprint, frozenset(self.initial_enabled))]
        self._seen[self.initial_fingerprint] = [0]

    def after(self, event: EventId, fingerprint: Hashable, enabled: AbstractSet[EventId]) -> Stop | None:
        """Record that ``event`` fired and led to a state; a :class:`Stop` if the run may end there."""
        self._fired.append(event)
        self._states.append((fingerprint, frozenset(enabled)))
        self._firings[event] += 1
        step = len(self._fired)
        earlier = self._seen.setdefault(fingerprint, [])
        start = self._full_cycle_start(earlier) if earlier else None
        earlier.append(step)
        if start is not None:
            return Stop(FULL_CYCLE, step, cycle_start=start)
        if self._firings[event] > self.firing_limit:
            return Stop(FIRING_LIMIT, step, event=event)
        return None

    def _full_cycle_start(self, occurrences: list[int]) -> int | None:
        """The latest earlier occurrence of the current state that closes a full cycle, if any.

        Walks back from the current state once, growing the cycle's fired and enabled sets, and
        checks them at each earlier occurrence (shortest cycle first).
        """
        targets = set(occurrences)
        first = occurrences[0]
        fired: set[EventId] = set()
        enabled: set[EventId] = set(self._states[-1][1])
        for position in range(len(self._fired) - 1, first - 1, -1):
            fired.add(self._fired[position])
            enabled |= self._states[position][1]
            if position in targets and enabled <= fired:
                return position
        return None
