"""Statistics over an exploration: how much partial-order reduction pruned (R4 §5), how far an
anytime exploration's bounds have got, and what a strategy tells of itself (:class:`StrategyStats`).

R4 reports the ratio of explored to enabled events per reachable state (on average, 77 % of the
enabled events pruned on real sites). :func:`por_pruning` gives the aggregate form: over every
state the exploration ran an event from, the enabled events and the events explored from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Pruning:
    """``enabled``: the sum, over explored states, of their enabled-set sizes; ``explored``: the
    sum of the numbers of events explored from them."""

    enabled: int
    explored: int

    @property
    def ratio(self) -> float:
        """The fraction of enabled events never explored (0 when nothing was enabled)."""
        return 1 - self.explored / self.enabled if self.enabled else 0.0


class Counted(Protocol):
    """An exploration that counts its states (:meth:`webr4.engine.r4.R4Explorer.state_totals`)."""

    def state_totals(self) -> tuple[int, int]: ...


def por_pruning(explorer: Counted) -> Pruning:
    """How much ``explorer`` has pruned so far, counting the states still on its stack."""
    enabled, explored = explorer.state_totals()
    return Pruning(enabled, explored)


@dataclass(frozen=True)
class BoundProgress:
    """How far the bounds have got: ``completed`` is the highest bound fully explored (0 before
    bound 1 is); ``working`` the bound being explored (``None`` once nothing is left), with
    ``explored`` sequences of it executed so far and about ``pending`` still to come."""

    completed: int
    working: int | None
    explored: int
    pending: int


@dataclass(frozen=True)
class StrategyStats:
    """What a strategy tells of its exploration so far (``Strategy.stats``): how much it pruned,
    when it prunes; how far its bounds have got, when it explores bound by bound. A strategy
    with neither tells ``StrategyStats()``."""

    pruning: Pruning | None = None
    bounds: BoundProgress | None = None
