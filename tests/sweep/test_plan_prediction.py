"""Speculation guesses the plans a grouped sweep runs, not those a representative stands for."""

from __future__ import annotations

from webr4.engine.grouping import ReversalGroups
from webr4.engine.r4 import R4Explorer
from webr4.engine.testing.model import Model, ModelEvent, ModelExecutor, Read, Write
from webr4.sweep.plan_prediction import upcoming
from webr4.trace import Category


def test_speculation_skips_the_reversals_a_representative_would_stand_for() -> None:
    append = (Read("queue"), Write("queue", 1))  # three modules racing through one loader function
    seed = ModelExecutor(Model([ModelEvent(f"m{k}", append, root=True, category=Category.NETWORK, code="define")
                                for k in range(3)])).execute([])
    strategy, groups = R4Explorer(seed, bound=1), ReversalGroups(1)
    representative = strategy.next_plan()
    assert representative is not None and groups.admit(representative) is None

    def ahead(with_groups: ReversalGroups | None) -> int:
        return len(upcoming(strategy, representative, lambda _p: None, lambda: [seed], 3, with_groups))

    assert (ahead(None), ahead(groups)) == (2, 0)
