"""Every exploration strategy, by the name a user chooses it with.

R4 (:class:`webr4.engine.r4.R4Explorer`) and its rivals hand out
:class:`~webr4.engine.plans.PlannedSequence` plans for the same executor and keep ``explored``, so
:func:`webr4.engine.plans.run` can compare them on equal budgets. A new strategy is a module here
with a class following :class:`~webr4.engine.plans.Strategy`, and one branch of :func:`make_strategy`.
"""

from __future__ import annotations

from webr4.errors import Webr4Error
from webr4.engine.filters import NamedFilter
from webr4.engine.plans import Strategy
from webr4.engine.r4 import R4Explorer
from webr4.engine.strategies.delay import DelayBoundedSampler, alternatives
from webr4.engine.strategies.wave import WaveSampler
from webr4.trace import Trace

STRATEGIES = ("r4", "delay", "wave")


class UnknownStrategy(Webr4Error, ValueError):
    """A strategy name that is none of :data:`STRATEGIES`."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}")
"""The names ``--strategy`` accepts: R4's conflict reversals, delay-bounded sampling, WAVE-like swaps."""

DEFAULT_SAMPLES = 20
"""Plans a sampling strategy draws when no sequence budget is given."""


def make_strategy(name: str, seed: Trace, *, bound: int | None, filters: tuple[NamedFilter, ...],
                  max_sequences: int | None) -> Strategy:
    """The strategy called ``name`` (one of :data:`STRATEGIES`), starting from ``seed``.

    ``bound`` is R4's conflict-reversal bound, or the sampler's number of delays; a sampler draws
    one plan per sequence of ``max_sequences`` after the seed (:data:`DEFAULT_SAMPLES` without one).
    Raises :class:`UnknownStrategy` for an unknown name.
    """
    samples = (max_sequences - 1) if max_sequences else DEFAULT_SAMPLES
    if name == "r4":
        return R4Explorer(seed, bound=bound, filters=filters)
    if name == "delay":
        return DelayBoundedSampler(seed, max_delays=bound or 1, samples=samples)
    if name == "wave":
        return WaveSampler(seed, copies=samples)
    raise UnknownStrategy(name)


__all__ = ["STRATEGIES", "DelayBoundedSampler", "UnknownStrategy", "WaveSampler", "alternatives", "make_strategy"]
