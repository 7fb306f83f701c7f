"""Following a plan approximately (R4 §2.3): which event runs next, as far as the plan decides.

A plan is the parent execution's order of events with one conflict reversed. Until the reversal
every planned event is enabled at its turn, and the run repeats the parent exactly. After it the
page may go another way, and the follower lets it run:

* **Identity survives a change of creator.** An event's id is ``EXACT~LOOSE``
  (``instrument_js/runtime/events.js``): ``EXACT`` hashes its creator, kind, parameters and
  ordinal among its creator's like children; ``LOOSE`` the same without the creator, with the
  ordinal among all like events of the page. A planned id whose exact event never appears is
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
    """The plan's side of choosing the next event; the caller runs what :meth:`choose` returns."""

    plan: Sequence[EventId]
    cursor: int = 0  # the next plan entry not yet run or waiting
    waiting: list[EventId] = field(default_factory=list)  # passed over and not run yet, in plan order
    skipped: list[EventId] = field(default_factory=list)  # every planned id passed over, in that order
    diverged: bool = False  # a planned event was not pending at its turn
    matched: dict[EventId, EventId] = field(default_factory=dict)  # planned id -> the other id that ran for it

    def start_at(self, head: EventId) -> None:
        """The first event (the document's head) ran before any choice: consume it if planned."""
        if self.cursor < len(self.plan) and self.plan[self.cursor] == head:
            self.cursor += 1

    def choose(self, enabled: Mapping[EventId, Order]) -> Choice | None:
        """The next event by the plan, or an unnamed one before it; ``None`` when the plan offers
        nothing pending (every enabled event is then one the plan does not name)."""
        claimed = set(self.waiting)
        claimed.update(self.plan[self.cursor:])
        claimed_loose = {loose for loose in map(loose_part, claimed) if loose is not None}
        by_loose: dict[str, EventId] = {}
        unnamed: list[EventId] = []
        for event in enabled:
            if event in claimed:
                continue
            loose = loose_part(event)
            if loose is None or loose not in claimed_loose:
                unnamed.append(event)
            else:
                by_loose.setdefault(loose, event)

        def pending(planned: EventId) -> EventId | None:
            if planned in enabled:
                return planned
            loose = loose_part(planned)
            return by_loose.get(loose) if loose is not None else None

        pick: Choice | None = None
        at, passed = -1, 0
        for index, planned in enumerate(self.waiting):
            found = pending(planned)
            if found is not None:
                pick, at = Choice(found, planned), index
                break
        if pick is None:
            while self.cursor + passed < len(self.plan):
                planned = self.plan[self.cursor + passed]
                found = pending(planned)
                if found is not None:
                    pick = Choice(found, planned)
                    break
                passed += 1
        diverged = self.diverged or passed > 0
        first = min(unnamed, key=lambda event: (*enabled[event], event)) if unnamed and diverged else None
        if pick is not None and first is not None and (*enabled[first], first) < (*enabled[pick.event], pick.event):
            return Choice(first, None)  # the plan's state is left as it was: the pick comes next
        self.diverged = diverged
        self.waiting.extend(self.plan[self.cursor:self.cursor + passed])
        self.skipped.extend(self.plan[self.cursor:self.cursor + passed])
        self.cursor += passed
        if pick is None:
            return None
        if at >= 0:
            del self.waiting[at]
        else:
            self.cursor += 1
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
        self.cursor += consumed
        self.waiting = list(waiting)
        self.skipped.extend(skipped)
        self.diverged = diverged
        self.matched.update(matched)
