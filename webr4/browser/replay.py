"""Following a plan approximately (R4 §2.3): which event runs next, as far as the plan decides.

A plan is the parent execution's order of events with one conflict reversed. Until the reversal
every planned event is enabled at its turn, and the run repeats the parent exactly. After it the
page may go another way, and the follower lets it run:

* **Identity survives a change of creator.** An event's id is ``EXACT~LOOSE``
  (``instrument_js/runtime/events.js``): ``EXACT`` hashes its creator's exact part, its kind,
  parameters and ordinal among its creator's like children (planned and pending events are found
  by it, so a plan of ids without a loose part, from an earlier version, still replays);
  ``LOOSE`` the same without the creator, with the ordinal among all like events of the page.
  A planned id whose exact event never appears is
  matched to a pending event with the same loose part that the plan does not name itself (a
  timer a module loader starts from whichever module arrives last).
* **A planned event is given up only after it had its chance.** One that is not pending at its
  turn is skipped for now and waits; the plan goes on, and a waiting event runs as soon as it
  appears, before anything later in the plan. What still waits when the run ends never ran.
* **Events the plan does not name run as a browser would run them.** Once the run has left the
  plan (an event waited), a pending event the plan does not name runs before the planned choice
  when it comes first in the default order (virtual due time, priority, creation order); when the
  plan offers nothing, the caller's default policy chooses among them.

``instrument_js/runtime/replay.js`` is the same follower in the page, used while the page runs a
stretch of events by itself; both are checked against each other on random cases
(``tests/browser/test_plan_follower.py``). This module imports no browser.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from webr4.trace import EventId

Order = tuple[float, int, int]
"""An enabled event's place in the default order: virtual due time, priority, creation order."""


def exact_part(event: EventId) -> str:
    """The part of an event id that names its creator (the whole id of earlier versions of
    webr4, which had no loose part: plans of their runs name the same events)."""
    return event.partition("~")[0]


def loose_part(event: EventId) -> str | None:
    """The creator-free part of an event id (``None`` for ids without one: user steps)."""
    _, tilde, loose = event.partition("~")
    return loose if tilde and loose else None


@dataclass(frozen=True)
class Choice:
    """The event to run: ``event`` is the id pending in the page; ``planned`` the plan's id it
    stands for (the same id, or the one it was matched to), ``None`` for an event the plan does
    not name that comes first in the default order."""

    event: EventId
    planned: EventId | None


@dataclass
class PlanFollower:
    """The plan's side of choosing the next event; the caller runs what :meth:`choose` returns.

    Each choice costs time in the number of enabled events, not in the length of the plan: the
    follower finds the planned events among the enabled ones by their plan positions."""

    plan: Sequence[EventId]
    cursor: int = 0  # the next plan entry not yet run or waiting
    waiting: list[EventId] = field(default_factory=list)  # passed over and not run yet, in plan order
    skipped: list[EventId] = field(default_factory=list)  # every planned id passed over, in that order
    diverged: bool = False  # a planned event was not pending at its turn
    matched: dict[EventId, EventId] = field(default_factory=dict)  # planned id -> the other id that ran for it

    def __post_init__(self) -> None:
        self._position: dict[EventId, int] = {}
        self._loose_positions: dict[str, list[int]] = {}
        for position, event in enumerate(self.plan):
            self._position.setdefault(exact_part(event), position)
            loose = loose_part(event)
            if loose is not None:
                self._loose_positions.setdefault(loose, []).append(position)
        self._done: set[int] = set(range(self.cursor)) - {self._position[exact_part(e)] for e in self.waiting}

    def start_at(self, head: EventId) -> None:
        """The first event (the document's head) ran before any choice: consume it if planned."""
        if self.cursor < len(self.plan) and self.plan[self.cursor] == head:
            self._done.add(self.cursor)
            self.cursor += 1

    def upcoming(self) -> EventId | None:
        """The plan's next event: the first one waiting, else the one at the cursor (``None``
        once the plan is done)."""
        if self.waiting:
            return self.waiting[0]
        return self.plan[self.cursor] if self.cursor < len(self.plan) else None

    def choose(self, enabled: Mapping[EventId, Order]) -> Choice | None:
        """The next event by the plan, or an unnamed one before it; ``None`` when the plan offers
        nothing pending (every enabled event is then one the plan does not name)."""
        exact: dict[int, EventId] = {}
        loosely: dict[int, EventId] = {}
        unnamed: list[EventId] = []
        for event in enabled:
            position = self._position.get(exact_part(event))
            if position is not None and position not in self._done:
                exact[position] = event
                continue
            loose = loose_part(event)
            open_position = next((p for p in self._loose_positions.get(loose, ()) if p not in self._done), None) \
                if loose is not None else None
            if open_position is None:
                unnamed.append(event)
            else:
                loosely.setdefault(open_position, event)
        positions = exact.keys() | loosely.keys()
        waited = [p for p in positions if p < self.cursor]
        ahead = [p for p in positions if p >= self.cursor]
        at = min(waited) if waited else min(ahead) if ahead else None
        passed = len(self.plan) - self.cursor if at is None else max(at - self.cursor, 0)
        pick = None if at is None else Choice(exact.get(at) or loosely[at], self.plan[at])
        diverged = self.diverged or passed > 0
        first = min(unnamed, key=lambda event: (*enabled[event], event)) if unnamed and diverged else None
        if pick is not None and first is not None and (*enabled[first], first) < (*enabled[pick.event], pick.event):
            return Choice(first, None)  # the plan's state is left as it was: the pick comes next
        self.diverged = diverged
        self.waiting.extend(self.plan[self.cursor:self.cursor + passed])
        self.skipped.extend(self.plan[self.cursor:self.cursor + passed])
        self.cursor += passed
        if pick is None or at is None:
            return None
        if at < self.cursor:
            self.waiting.remove(self.plan[at])
        else:
            self.cursor += 1
        self._done.add(at)
        if pick.event != pick.planned:
            assert pick.planned is not None
            self.matched[pick.planned] = pick.event
        return pick

    # ------------------------------------------------------------------ the page's copy
    def to_page(self) -> dict[str, Any]:
        """The follower's state as the page's follower takes it (``runStretch``)."""
        return {"plan": list(self.plan[self.cursor:]), "waiting": list(self.waiting), "diverged": self.diverged}

    def from_page(self, consumed: int, waiting: Sequence[EventId], skipped: Sequence[EventId], diverged: bool,
                  matched: Sequence[tuple[EventId, EventId]]) -> None:
        """Take back the state the page's follower left after a stretch (``skipped``: the ids it
        passed over)."""
        before = [self._position[exact_part(e)] for e in self.waiting]
        self.cursor += consumed
        self.waiting = list(waiting)
        still = {self._position[exact_part(e)] for e in self.waiting}
        self._done.update(p for p in [*before, *range(self.cursor - consumed, self.cursor)] if p not in still)
        self.skipped.extend(skipped)
        self.diverged = diverged
        self.matched.update(matched)
