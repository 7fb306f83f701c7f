"""What makes a sweep the sweep it is: one frozen value, built once from the settings file and the
caller's overrides, stored in the run as it is (``--resume`` reads it back) and passed whole to
the sweep.

A new strategy parameter is a field here, with its default: it is stored by its name, a stored
run without it resumes with the default, and the settings file's ``[explore]`` gives it by its
name with dashes once :data:`webr4.config.SETTINGS` lists that key.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from webr4.classify.rules import known_rules
from webr4.config import Settings, parse_duration
from webr4.engine.anytime import ORDERS, BudgetError
from webr4.engine.filters import DEFAULT_FILTERS
from webr4.engine.strategies import STRATEGIES, UnknownStrategy
from webr4.state.noise import NoiseMask


@dataclass(frozen=True)
class SweepSettings:
    """The settings of one sweep. ``bound`` caps the reversals stacked on the recording (with a
    ``budget``, the highest bound explored; ``None``: no cap); ``strategy`` names a strategy of
    :data:`webr4.engine.strategies.STRATEGIES`; ``max_sequences`` and ``time_limit`` (seconds)
    stop it early; a ``budget`` (seconds, R4 only) makes it anytime, bound 1 in ``order`` first
    (see :data:`webr4.engine.anytime.ORDERS`); ``mask`` is what the user asks to ignore when
    comparing; ``rules`` the classifier rules (``None``: all); ``filters`` the engine's race
    filters by name; ``exhaustive`` runs every reversal, where otherwise a group's representative
    stands for the reversals racing through the same sites as it, unless one of them disagreed
    with its parent (see :mod:`webr4.engine.grouping`).

    Raises, as no sweep can run with them, :class:`~webr4.engine.strategies.UnknownStrategy` for a
    strategy there is not, :class:`~webr4.engine.anytime.BudgetError` for a budget with another
    strategy than ``r4`` or an unknown ``order``, and :class:`~webr4.classify.rules.UnknownRule`
    for a rule there is not."""

    bound: int | None = 1
    strategy: str = "r4"
    max_sequences: int | None = None
    time_limit: float | None = None
    budget: float | None = None
    order: str = "harm"
    mask: NoiseMask = NoiseMask()
    rules: tuple[str, ...] | None = None
    filters: tuple[str, ...] = tuple(f.name for f in DEFAULT_FILTERS)
    exhaustive: bool = False

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise UnknownStrategy(self.strategy)
        if self.budget is not None and self.strategy != "r4":
            raise BudgetError(f"a budget orders R4's reversals; it cannot drive the {self.strategy} strategy")
        if self.order not in ORDERS:
            raise BudgetError(f"unknown order {self.order!r}; choose one of {', '.join(ORDERS)}")
        if self.rules is not None:
            known_rules(self.rules)

    @classmethod
    def from_settings(cls, settings: Settings, *, mask: NoiseMask = NoiseMask(), **overrides: Any) -> SweepSettings:
        """The sweep ``settings`` (a settings file) describe: each field its ``[explore]`` gives
        (``max-sequences`` sets ``max_sequences``; the budget a duration such as ``5m``), its
        ``[mask]`` and its ``rules``; ``overrides`` (by field name) win over the file, and
        ``mask`` adds to the file's. Raises :class:`ValueError` on a mask the file gives malformed."""
        values: dict[str, Any] = {f.name: settings.explore[key] for f in fields(cls)
                                  if (key := f.name.replace("_", "-")) in settings.explore}
        if isinstance(values.get("budget"), str):
            values["budget"] = parse_duration(values["budget"])
        if settings.rules is not None:
            values["rules"] = settings.rules
        values["mask"] = NoiseMask.from_options(settings.mask_selectors, settings.mask_heap) | mask
        return cls(**(values | overrides))

    def to_json(self) -> dict[str, Any]:
        """The stored form: every field by its name, the mask as :meth:`NoiseMask.to_json`."""
        return {"bound": self.bound, "strategy": self.strategy, "max_sequences": self.max_sequences,
                "time_limit": self.time_limit, "mask": self.mask.to_json(),
                "rules": None if self.rules is None else list(self.rules), "filters": list(self.filters),
                "budget": self.budget, "order": self.order, "exhaustive": self.exhaustive}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> SweepSettings:
        """Inverse of :meth:`to_json`; keys it does not know (the stored ``session``) are left out,
        and fields a run stored before they existed take their defaults."""
        known = {f.name for f in fields(cls)}
        values = {name: value for name, value in raw.items() if name in known}
        if "mask" in values:
            values["mask"] = NoiseMask.from_json(values["mask"])
        for name in ("rules", "filters"):
            if values.get(name) is not None:
                values[name] = tuple(values[name])
        return cls(**values)
