"""What every exploration strategy hands out and observes, and the loop that drives one.

A strategy is a stepper: :meth:`Strategy.next_plan` gives a :class:`PlannedSequence` to execute
(or ``None`` when it has nothing left), and :meth:`Strategy.observe` takes the trace the executor
produced for it. :func:`run` drives any strategy against any :class:`~webr4.trace.Executor`
under a budget, so strategies can be compared on equal terms.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from webr4.engine.stats import StrategyStats
from webr4.trace import EventId, Executor, Trace
from webr4.vocabulary import StopReason


@dataclass(frozen=True)
class Reversal:
    """The one conflict a sequence reverses relative to its parent.

    In the parent ``first`` ran before ``second`` (or ``first`` disabled ``second``, when
    ``disable`` is set); the child is planned to run ``second`` before ``first``. ``location`` is a
    location the two conflict on (the first one found, when they conflict on several), and
    ``sites`` the source positions of their accesses to it, in parent order (``None`` where
    unknown: always for ``disable``); the sites say where the race is, not which one it is, so
    they take no part in comparing reversals. ``codes`` say what code each event runs as far as
    its trace event tells (:func:`~webr4.trace.event_code`), which stands for a site that is
    unknown, and takes no part in comparing either. ``held`` marks the witness that holds a response
    past a test's next read (:func:`webr4.engine.r4._held_response_witness`), which reverses
    the same conflict as its plain witness but runs another order.
    """

    first: EventId
    second: EventId
    location: str
    disable: bool = False
    sites: tuple[str | None, str | None] = field(default=(None, None), compare=False)
    held: bool = False
    codes: tuple[str | None, str | None] = field(default=(None, None), compare=False)


@dataclass(frozen=True)
class PlannedSequence:
    """A plan to execute, and where it comes from.

    ``index`` is the number the sequence will have among the strategy's explored sequences (the
    seed is 0). ``parent`` is the index of the explored sequence it was derived from (``None`` for
    the seed); ``reversal`` the conflict it reverses relative to the parent, when the strategy
    works by single reversals. ``depth`` is the strategy's distance from the seed: conflict
    reversals for R4, delays for delay-bounded sampling, swaps for the WAVE-like baseline.
    ``prefix_length`` is how many leading plan entries are meant to replay the parent exactly.
    """

    index: int
    plan: tuple[EventId, ...]
    parent: int | None
    reversal: Reversal | None
    depth: int
    prefix_length: int = 0

    @property
    def derived_from(self) -> int:
        """``parent`` of a plan a strategy hands out, which always has one (only the seed has none)."""
        if self.parent is None:
            raise ValueError(f"sequence {self.index} is the seed: it derives from nothing")
        return self.parent


@dataclass(frozen=True)
class ExploredSequence:
    """A planned sequence together with what actually ran and which planned ids were skipped;
    a ``withdrawn`` one never ran (:meth:`Strategy.withdraw`), and its sequence is empty."""

    planned: PlannedSequence
    sequence: tuple[EventId, ...]
    skipped: tuple[EventId, ...] = ()
    withdrawn: bool = False

    @classmethod
    def of(cls, planned: PlannedSequence, trace: Trace) -> ExploredSequence:
        return cls(planned, tuple(trace.sequence), tuple(trace.skipped))

    @classmethod
    def never_run(cls, planned: PlannedSequence) -> ExploredSequence:
        """The record of ``planned``, withdrawn unexecuted."""
        return cls(planned, (), (), withdrawn=True)


def executed(explored: list[ExploredSequence]) -> int:
    """How many of ``explored`` ran (the seed included): those not withdrawn."""
    return sum(1 for record in explored if not record.withdrawn)


class Strategy(Protocol):
    """A resumable source of plans. ``explored[n]`` is the record of sequence ``n``."""

    explored: list[ExploredSequence]

    @property
    def pending(self) -> int:
        """How many more plans the strategy expects to hand out (an estimate, for progress)."""
        ...

    def next_plan(self) -> PlannedSequence | None:
        """The next plan to execute, or ``None`` when the strategy is finished."""
        ...

    def observe(self, planned: PlannedSequence, trace: Trace) -> None:
        """Take the executor's trace for ``planned``."""
        ...

    def withdraw(self, planned: PlannedSequence) -> None:
        """Take back ``planned`` (the outstanding plan) unexecuted: it keeps its index, recorded
        as withdrawn, and the strategy goes on as it would had it never planned it."""
        ...

    def reads_accesses(self, planned: PlannedSequence) -> bool:
        """Whether :meth:`observe` reads the accesses of ``planned``'s trace: when it does not,
        the executor may leave out every access but those of the events that happen-before
        reads, and the strategy hands out the same plans."""
        ...

    def stats(self) -> StrategyStats:
        """What the strategy tells of its exploration so far (``StrategyStats()`` when nothing)."""
        ...


EXHAUSTED, MAX_SEQUENCES, TIME_LIMIT = StopReason.EXHAUSTED, StopReason.MAX_SEQUENCES, StopReason.TIME_LIMIT


@dataclass
class ExplorationResult:
    """The outcome of :func:`run`: every explored sequence, the traces produced in this run (by
    sequence index), and why the run stopped (:data:`EXHAUSTED`, :data:`MAX_SEQUENCES` or
    :data:`TIME_LIMIT`)."""

    explored: list[ExploredSequence]
    traces: dict[int, Trace] = field(default_factory=dict)
    stop_reason: StopReason = EXHAUSTED


def run(
    strategy: Strategy,
    executor: Executor,
    *,
    max_sequences: int | None = None,
    max_seconds: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> ExplorationResult:
    """Execute the strategy's plans one at a time until it is exhausted or a budget runs out.

    ``max_sequences`` bounds the total number of explored sequences, seed included (so a resumed
    strategy counts what it explored before); ``max_seconds`` bounds the time of this call as
    measured by ``clock``, checked before each new plan.
    """
    started = clock()
    result = ExplorationResult(explored=strategy.explored)
    while True:
        planned = next_or_stop(strategy, max_sequences=max_sequences, max_seconds=max_seconds,
                               elapsed=lambda: clock() - started)
        if isinstance(planned, StopReason):
            result.stop_reason = planned
            return result
        trace = executor.execute(planned.plan)
        strategy.observe(planned, trace)
        result.traces[planned.index] = trace


def next_or_stop(strategy: Strategy, *, max_sequences: int | None, max_seconds: float | None,
                 elapsed: Callable[[], float]) -> PlannedSequence | StopReason:
    """The strategy's next plan, or why there is none: :data:`MAX_SEQUENCES` once it ran
    ``max_sequences`` (seed included, withdrawn ones not), else :data:`TIME_LIMIT` once
    ``elapsed()`` (asked only with a ``max_seconds``) reached ``max_seconds``, else
    :data:`EXHAUSTED` when it has no plan left. Every loop over a strategy's plans stops by it."""
    if max_sequences is not None and executed(strategy.explored) >= max_sequences:
        return MAX_SEQUENCES
    if max_seconds is not None and elapsed() >= max_seconds:
        return TIME_LIMIT
    planned = strategy.next_plan()
    return EXHAUSTED if planned is None else planned
