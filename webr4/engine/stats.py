"""Statistics over an exploration: how much partial-order reduction pruned (R4 §5).

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
    """An exploration that counts its states (:meth:`webr4.engine.explore.Explorer.state_totals`)."""

    def state_totals(self) -> tuple[int, int]: ...


def por_pruning(explorer: Counted) -> Pruning:
    """How much ``explorer`` has pruned so far, counting the states still on its stack."""
    enabled, explored = explorer.state_totals()
    return Pruning(enabled, explored)
