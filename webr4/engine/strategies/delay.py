"""Delay-bounded random sampling (Desai, Qadeer and Seshia, FSE 2015: stratified sampling).

The deterministic scheduler is the executor's own default policy. A **delay** at a state
``s_t`` refuses the scheduler's choice there: with ``c`` consecutive delays at ``s_t`` the run
takes the ``c``-th entry of :func:`alternatives` (the default choice first, then the other
enabled events in a fixed order) and the default policy carries on from there, so no pending
event is ever dropped, only postponed. Delays beyond the number of enabled events are no-ops,
which keeps ``{Next(Delay^c) | c < |enabled(s)|} = enabled(s)`` at every state.

One sample places up to ``max_delays`` delays, each at a position drawn uniformly among the
steps from the previous delay's state to the end of the latest run (position 0 delays the same
state again). Hence any execution reachable with ``d`` delays is drawn with probability at least
``1/L^d`` for runs of at most ``L`` steps. A sample costs one execution per effective delay; its
runs are recorded as explored sequences, each the parent of the next.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from webr4.engine.plans import ExploredSequence, PlannedSequence
from webr4.engine.stats import StrategyStats
from webr4.trace import EventId, Trace


def alternatives(trace: Trace, index: int) -> tuple[EventId, ...]:
    """The choices at the state before step ``index``, in the order consecutive delays take them:
    what the trace ran there first, then the other enabled events by when they were first enabled
    in the trace (ties by id)."""
    first_seen: dict[EventId, int] = {}
    for position, step in enumerate(trace.steps):
        for event in step.enabled:
            first_seen.setdefault(event, position)
    ran = trace.steps[index].event
    others = sorted(trace.steps[index].enabled - {ran}, key=lambda e: (first_seen[e], e))
    return (ran, *others)


@dataclass
class _Sample:
    """One sample in progress: its latest run and the state of the last delay."""

    base: Trace
    base_index: int
    delays_left: int
    applied: int = 0
    anchor: int = 0  # state (step index) of the last delay
    choices: tuple[EventId, ...] | None = None  # alternatives at the anchor, once delayed there
    consecutive: int = 0


class DelayBoundedSampler:
    """Draws ``samples`` samples of up to ``max_delays`` delays each around ``seed``.

    Deterministic for a given ``rng_seed`` and deterministic executor. One plan is outstanding at
    a time within a sample (each delay position depends on the previous run); ``finished`` lists,
    per completed sample, the index of the explored sequence it ended in (0 for the seed).
    """

    def __init__(self, seed: Trace, max_delays: int, samples: int, rng_seed: int = 0) -> None:
        self.explored = [ExploredSequence.of(PlannedSequence(0, tuple(seed.sequence), None, None, 0), seed)]
        self.finished: list[int] = []
        self._seed = seed
        self._max_delays = max_delays
        self._samples_left = samples
        self._rng = random.Random(rng_seed)
        self._sample: _Sample | None = None
        self._outstanding: PlannedSequence | None = None

    def stats(self) -> StrategyStats:
        """Nothing beyond what it explored: it neither prunes nor goes bound by bound."""
        return StrategyStats()

    @property
    def pending(self) -> int:
        """Plans still to hand out."""
        return self._samples_left

    def next_plan(self) -> PlannedSequence | None:
        if self._outstanding is not None:
            raise RuntimeError(f"sequence {self._outstanding.index} is still outstanding; observe it first")
        while True:
            sample = self._sample
            if sample is None:
                if self._samples_left == 0:
                    return None
                self._samples_left -= 1
                sample = self._sample = _Sample(self._seed, 0, self._max_delays)
            remaining = len(sample.base.steps) - sample.anchor
            if sample.delays_left == 0 or remaining <= 0:
                self.finished.append(sample.base_index)
                self._sample = None
                continue
            sample.delays_left -= 1
            offset = self._rng.randrange(remaining)
            if offset == 0 and sample.choices is not None:
                sample.consecutive += 1
            else:
                sample.anchor += offset
                sample.choices = alternatives(sample.base, sample.anchor)
                sample.consecutive = 1
            if sample.consecutive >= len(sample.choices):
                continue  # no event left to prefer at this state: the delay is a no-op
            sample.applied += 1
            plan = (*sample.base.sequence[: sample.anchor], sample.choices[sample.consecutive])
            self._outstanding = PlannedSequence(
                len(self.explored), plan, sample.base_index, None, sample.applied, sample.anchor
            )
            return self._outstanding

    def reads_accesses(self, planned: PlannedSequence) -> bool:  # noqa: ARG002 - a trace is the next base
        """Always: each trace is the base the next sample's delays are placed in."""
        return True

    def observe(self, planned: PlannedSequence, trace: Trace) -> None:
        if planned != self._outstanding or self._sample is None:
            raise ValueError(f"sequence {planned.index} is not the outstanding plan")
        self._outstanding = None
        self._sample.base, self._sample.base_index = trace, planned.index
        self.explored.append(ExploredSequence.of(planned, trace))

    def withdraw(self, planned: PlannedSequence) -> None:
        """Keep ``planned`` as withdrawn; the sample goes on from the base it had."""
        if planned != self._outstanding:
            raise ValueError(f"sequence {planned.index} is not the outstanding plan")
        self._outstanding = None
        self.explored.append(ExploredSequence.never_run(planned))
