"""Rival exploration strategies behind the same stepper API as :class:`webr4.engine.explore.Explorer`.

Each hands out :class:`~webr4.engine.plans.PlannedSequence` plans for the same executor and keeps
``explored``, so :func:`webr4.engine.plans.run` can compare them with R4 on equal budgets.
"""

from webr4.engine.strategies.delay import DelayBoundedSampler, alternatives
from webr4.engine.strategies.wave import WaveSampler

__all__ = ["DelayBoundedSampler", "WaveSampler", "alternatives"]
