"""A WAVE-like baseline, as R4's §5.4 builds it for comparison.

It makes ``copies`` copies of the recorded sequence (by default as many as the recording has
events) and in each swaps several random pairs of events, keeping only swaps that the recording's
happens-before allows. Unlike R4 it neither looks at conflicts nor keeps one change per run, so
its runs differ from the recording in several places at once.
"""

from __future__ import annotations

import random

from webr4.engine.hb import HappensBefore
from webr4.engine.plans import ExploredSequence, PlannedSequence
from webr4.engine.stats import StrategyStats
from webr4.trace import Trace


class WaveSampler:
    """Hands out ``copies`` plans, each the seed with up to ``swaps`` happens-before-respecting
    swaps. ``attempts`` random pairs are tried per swap before giving up on it. Plans do not depend
    on each other's traces, so several may be outstanding at once; ``explored`` stays in index
    order as they are recorded."""

    def __init__(self, seed: Trace, copies: int | None = None, swaps: int = 3, attempts: int = 20,
                 rng_seed: int = 0) -> None:
        self.explored = [ExploredSequence.of(PlannedSequence(0, tuple(seed.sequence), None, None, 0), seed)]
        self._seed = seed
        self._hb = HappensBefore(seed.steps)
        self._copies_left = len(seed.steps) if copies is None else copies
        self._swaps = swaps
        self._attempts = attempts
        self._rng = random.Random(rng_seed)
        self._handed_out = 0

    def stats(self) -> StrategyStats:
        """Nothing beyond what it explored: it neither prunes nor goes bound by bound."""
        return StrategyStats()

    @property
    def pending(self) -> int:
        """Plans still to hand out."""
        return self._copies_left

    def next_plan(self) -> PlannedSequence | None:
        if self._copies_left == 0:
            return None
        self._copies_left -= 1
        order = list(range(len(self._seed.steps)))
        done = sum(self._swap(order) for _ in range(self._swaps))
        self._handed_out += 1
        plan = tuple(self._seed.sequence[x] for x in order)
        return PlannedSequence(self._handed_out, plan, 0, None, done)

    def reads_accesses(self, planned: PlannedSequence) -> bool:  # noqa: ARG002 - kept as explored
        """Always: the strategy keeps each trace among its explored sequences, as it came."""
        return True

    def observe(self, planned: PlannedSequence, trace: Trace) -> None:
        self.explored.append(ExploredSequence.of(planned, trace))
        self.explored.sort(key=lambda record: record.planned.index)

    def withdraw(self, planned: PlannedSequence) -> None:
        """Keep ``planned`` as withdrawn: the other copies do not depend on it."""
        self.explored.append(ExploredSequence.never_run(planned))
        self.explored.sort(key=lambda record: record.planned.index)

    def _swap(self, order: list[int]) -> bool:
        """Swap one random pair of positions if the result still respects happens-before."""
        if len(order) < 2:
            return False
        for _ in range(self._attempts):
            p, q = sorted(self._rng.sample(range(len(order)), 2))
            early, late = order[p], order[q]
            between = 0
            for x in order[p + 1 : q]:
                between |= 1 << x
            if not self._hb.descendants(early) & (between | 1 << late) and not self._hb.ancestors(late) & between:
                order[p], order[q] = late, early
                return True
        return False
