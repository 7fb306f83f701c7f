"""Likely harm: which conflict reversals to explore first when time is short.

A reversal's :class:`Harm` is a sort key, smaller first, compared field by field:

1. ``reach`` — what the racing pair conflicts on in the seed trace: 0 when something the user
   sees (the DOM, focus, event handlers, storage and cookies) or when one of the two events is
   the one that navigated away; 1 for the JavaScript heap only; 2 for event scheduling only
   (creating, cancelling or disabling an event and nothing else).
2. ``internal`` — 0 when one of the two events is a user event, else 1.
3. ``delay_ms`` — how far the planned order is from the recorded timing
   (:func:`webr4.engine.realism.timing_shift`): 0 for an order the recorded times allow, more
   for one that needs an event delayed.

Ties keep R4's own order. The key only reorders: it never decides what is explored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from webr4.engine.describe import conflict_locations, visibility
from webr4.engine.plans import Reversal
from webr4.engine.realism import timing_shift
from webr4.trace import Category, EventId, Trace

VISIBLE, HEAP, SCHEDULING = 0, 1, 2
"""The values of :attr:`Harm.reach`."""


@dataclass(frozen=True, order=True)
class Harm:
    """A reversal's place in the likely-harm order; a smaller key is explored first."""

    reach: int
    internal: int
    delay_ms: float


def likely_harm(seed: Trace, reversal: Reversal, plan: Sequence[EventId]) -> Harm:
    """The :class:`Harm` of planning ``plan`` to reverse ``reversal`` of ``seed``."""
    pair = (reversal.first, reversal.second)
    locations = [*conflict_locations(seed, *pair), reversal.location]
    reach = min(_reach(location, seed) for location in locations)
    if seed.navigation is not None and seed.navigation.event in pair:
        reach = VISIBLE
    user = any(seed.events[e].category is Category.USER for e in pair if e in seed.events)
    shift = timing_shift(seed, plan)
    return Harm(reach, 0 if user else 1, shift.ms if shift is not None else 0.0)


def _reach(location: str, seed: Trace) -> int:
    """:data:`VISIBLE`, :data:`HEAP` or :data:`SCHEDULING` for one location."""
    seen = visibility(location, seed)  # 0 DOM, 1 storage and cookies, 2 heap, 3 event scheduling
    return VISIBLE if seen <= 1 else HEAP if seen == 2 else SCHEDULING
