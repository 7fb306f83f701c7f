"""Anytime R4: bound 1 in order of likely harm, then bound 2, 3, … while time remains.

:class:`AnytimeExplorer` is a :class:`~webr4.engine.plans.Strategy` for a sweep that stops when
its time is up rather than when a bound is done, so what it explores first matters:

* **Bound 1** is split into R4's independent branches (:meth:`R4Explorer.branches
  <webr4.engine.r4.R4Explorer.branches>`), one per state of the seed and first event of a
  reversal. The branches are taken in order of their first plan's likely harm
  (:mod:`webr4.engine.harm_order`), or in R4's own order with ``order="plan"``; each is explored
  depth-first as R4 does. Together they explore exactly the sequences the plain bound-1
  explorer explores.
* **Bound k ≥ 2** runs the plain bound-k explorer in its own depth-first order. A plan that an
  earlier bound already executed is not handed out again: the explorer is fed the trace that
  plan gave, so after bound k the sequences explored are those of the plain explorers of bounds
  1 to k, each executed once.
* It stops when ``cap`` (``None``: no cap) is done, or when a bound explored no sequence at its
  own depth: the next bound would then explore nothing new.

Sequence numbers (``index``, ``parent``) are the anytime explorer's own, in the order it hands
plans out; a resumed sweep gets the same plans in the same order, as with :class:`R4Explorer`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from webr4.errors import Webr4Error
from webr4.engine.harm_order import Harm, likely_harm
from webr4.engine.plans import ExploredSequence, PlannedSequence
from webr4.engine.races import RaceFilter
from webr4.engine.r4 import R4Explorer
from webr4.engine.stats import BoundProgress, StrategyStats, por_pruning
from webr4.trace import EventId, Trace

ORDERS = ("harm", "plan")
"""How bound 1's branches are ordered: by likely harm, or as plain R4 takes them."""


class BudgetError(Webr4Error, ValueError):
    """Settings an anytime (budgeted) sweep cannot follow: a cap below 1, an order that is none
    of :data:`ORDERS`, or a strategy other than R4's."""

Plan = tuple[EventId, ...]


class AnytimeExplorer:
    """R4 from ``seed`` up to bound ``cap`` (``None``: until a bound adds nothing), bound by
    bound, bound 1 in ``order`` (one of :data:`ORDERS`). One plan is outstanding at a time."""

    def __init__(self, seed: Trace, cap: int | None = None, *, order: str = "harm",
                 filters: Iterable[RaceFilter] = ()) -> None:
        if cap is not None and cap < 1:
            raise BudgetError(f"the cap is a bound of at least 1, not {cap}")
        if order not in ORDERS:
            raise BudgetError(f"unknown order {order!r}; choose one of {', '.join(ORDERS)}")
        self.cap = cap
        self.order = order
        self.filters = tuple(filters)
        self.explored: list[ExploredSequence] = [ExploredSequence.of(PlannedSequence(0, tuple(seed.sequence), None,
                                                                                     None, 0), seed)]
        self.completed = 0
        self._seed = seed
        self._working: int | None = 1
        self._phase_explored = 0
        self._deepest = False  # whether the working bound explored a sequence at its own depth
        self._earlier: dict[Plan, tuple[int, Trace]] = {}  # plans of completed bounds: index, trace
        self._current: dict[Plan, tuple[int, Trace]] = {}  # plans of the working bound
        self._local: dict[int, int] = {0: 0}  # the inner explorer's sequence numbers -> ours
        self._outstanding: tuple[PlannedSequence, PlannedSequence] | None = None  # ours, the inner's
        root = R4Explorer(seed, bound=1, filters=self.filters)
        self._totals = root.state_totals()
        self._queue = self._ordered(root.branches())
        self._inner: R4Explorer | None = None

    def _ordered(self, branches: list[R4Explorer]) -> list[tuple[R4Explorer, PlannedSequence]]:
        """Each branch with its first plan, in ``self.order``."""
        firsts = [(branch, branch.next_plan()) for branch in branches]
        started = [(branch, first) for branch, first in firsts if first is not None]
        if self.order == "harm":
            started.sort(key=lambda pair: self._harm(pair[1]))
        return started

    def _harm(self, planned: PlannedSequence) -> Harm:
        if planned.reversal is None:
            raise ValueError(f"sequence {planned.index} reverses nothing")
        return likely_harm(self._seed, planned.reversal, planned.plan)

    # -- the stepper ---------------------------------------------------------------------------

    def next_plan(self) -> PlannedSequence | None:
        """The next plan, bound by bound; ``None`` when the cap is done or nothing new is left."""
        if self._outstanding is not None:
            raise RuntimeError(f"sequence {self._outstanding[0].index} is still outstanding; observe it first")
        while self._working is not None:
            local = self._next_local()
            if local is None:
                self._finish_bound()
                continue
            known = self._earlier.get(local.plan)
            if known is not None:  # run at a lower bound: the explorer learns its trace again
                assert self._inner is not None  # only bounds above 1 reach plans of lower ones
                self._inner.observe(local, known[1])
                self._local[local.index] = known[0]
                self._deepest = self._deepest or local.depth == self._working
                continue
            planned = replace(local, index=len(self.explored), parent=self._local[local.derived_from])
            self._outstanding = (planned, local)
            return planned
        return None

    def reads_accesses(self, planned: PlannedSequence) -> bool:  # noqa: ARG002 - every trace feeds the next bound
        """Always: a sequence's trace is read again when the next bound starts."""
        return True

    def observe(self, planned: PlannedSequence, trace: Trace) -> None:
        """Take the trace executed for ``planned`` (the plan :meth:`next_plan` last returned)."""
        if self._outstanding is None or planned != self._outstanding[0]:
            raise ValueError(f"sequence {planned.index} is not the outstanding plan")
        local = self._outstanding[1]
        self._outstanding = None
        assert self._inner is not None
        self._inner.observe(local, trace)
        self._local[local.index] = planned.index
        self._current.setdefault(planned.plan, (planned.index, trace))
        self._phase_explored += 1
        self._deepest = self._deepest or planned.depth == self._working
        self.explored.append(ExploredSequence.of(planned, trace))

    def withdraw(self, planned: PlannedSequence) -> None:
        """Take back ``planned`` (the plan :meth:`next_plan` last returned) unexecuted
        (:meth:`R4Explorer.withdraw`); a later bound that plans it again runs it."""
        if self._outstanding is None or planned != self._outstanding[0]:
            raise ValueError(f"sequence {planned.index} is not the outstanding plan")
        local = self._outstanding[1]
        self._outstanding = None
        assert self._inner is not None
        self._inner.withdraw(local)
        self._local[local.index] = planned.index
        self.explored.append(ExploredSequence.never_run(planned))

    def _next_local(self) -> PlannedSequence | None:
        """The inner explorers' next plan at the working bound, starting bound-1 branches in turn."""
        if self._inner is not None:
            local = self._inner.next_plan()
            if local is not None or self._working != 1:
                return local
            self._add_totals(self._inner)
            self._inner = None
        if self._working == 1 and self._queue:
            self._inner, first = self._queue.pop(0)
            self._local = {0: 0}
            return first
        return None

    def _finish_bound(self) -> None:
        """The working bound is done: start the next one, unless the cap or nothing new stops."""
        assert self._working is not None
        if self._inner is not None:  # a bound above 1: its pruning is its explorer's
            self._totals = self._inner.state_totals()
        self.completed = self._working
        self._earlier.update(self._current)
        self._current = {}
        done = not self._deepest or (self.cap is not None and self._working >= self.cap)
        self._working = None if done else self._working + 1
        self._phase_explored, self._deepest = 0, False
        self._inner = None if done else R4Explorer(self._seed, bound=self._working, filters=self.filters)
        self._local = {0: 0}

    def _add_totals(self, explorer: R4Explorer) -> None:
        enabled, explored = explorer.state_totals()
        self._totals = (self._totals[0] + enabled, self._totals[1] + explored)

    # -- what a sweep reports ------------------------------------------------------------------

    @property
    def outstanding(self) -> PlannedSequence | None:
        return self._outstanding[0] if self._outstanding is not None else None

    @property
    def pending(self) -> int:
        """An estimate of the sequences the working bound still has (later bounds are unknown)."""
        queued = sum(1 + branch.pending for branch, _first in self._queue)
        return queued + (self._inner.pending if self._inner is not None else 0)

    def progress(self) -> BoundProgress:
        """Which bound is complete and how far the next has got."""
        return BoundProgress(self.completed, self._working, self._phase_explored,
                             self.pending if self._working is not None else 0)

    def stats(self) -> StrategyStats:
        """How much R4 pruned, and how far the bounds have got."""
        return StrategyStats(pruning=por_pruning(self), bounds=self.progress())

    def state_totals(self) -> tuple[int, int]:
        """:meth:`R4Explorer.state_totals` of the bound being explored (or the last one explored)."""
        if self._inner is None:
            return self._totals
        enabled, explored = self._inner.state_totals()
        if self._working != 1:
            return enabled, explored
        return self._totals[0] + enabled, self._totals[1] + explored

    def __deepcopy__(self, memo: dict[int, Any]) -> AnytimeExplorer:
        """A copy that advances on its own; the traces it knows are shared, never copied (they
        are not changed, and a copy's new ones go into its own maps)."""
        clone = copy.copy(self)
        for name, value in vars(self).items():
            if name in ("_earlier", "_current"):
                setattr(clone, name, dict(value))
            elif name != "_seed":
                setattr(clone, name, copy.deepcopy(value, memo))
        return clone
