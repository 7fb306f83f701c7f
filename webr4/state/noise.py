"""Masks for differences that are not caused by the reversed conflict.

A :class:`NoiseMask` built from two replays of the same sequence holds what differed between
them anyway, in the mask fields of each category (:attr:`~webr4.state.categories.base.StateCategory.mask_fields`):
DOM nodes by their stable key (``dom_keys``: a clock's next value is masked too), heap paths
(``heap_paths``) and screenshot regions (``boxes``: 16-pixel tiles around the changed pixels).
Users add their own: CSS selectors (``selectors``: ``#id``, ``.class``, ``tag``, ``tag#id``,
``tag.class``) whose elements are hidden with everything inside them, and heap path prefixes
(``window.stats`` or ``stats``).

:meth:`NoiseMask.apply` rewrites a snapshot with the masked parts replaced by placeholders;
compare masked snapshots (:meth:`NoiseMask.diff`) and masked parts can no longer differ.
"""

from __future__ import annotations

import json
from typing import Any, Collection, Iterable

from webr4.state.categories import CATEGORIES, MASK_FIELDS
from webr4.state.diff import StateDiff, diff_states
from webr4.state.dom_lines import Selector
from webr4.state.heappaths import parse_path
from webr4.state.parts import Parts
from webr4.state.snapshot import StateSnapshot


class NoiseMask(Parts):
    """What to ignore when comparing two states: one collection of entries per mask field
    (:data:`~webr4.state.categories.MASK_FIELDS`), as the attribute of the field's name
    (``mask.dom_keys``, ``mask.boxes``, …); a field not given is empty."""

    def __init__(self, **fields: Iterable[Any]) -> None:
        self._fill(MASK_FIELDS, {name: MASK_FIELDS[name].entries(values) if name in MASK_FIELDS else values
                                 for name, values in fields.items()},
                   lambda name: MASK_FIELDS[name].entries(()))

    @classmethod
    def from_baselines(cls, first: StateSnapshot, second: StateSnapshot) -> NoiseMask:
        """The mask of everything that differs between two replays of one sequence."""
        fields: dict[str, Collection[Any]] = {}
        for category in CATEGORIES:
            fields.update(category.noise(first[category.key], second[category.key]))
        return cls(**fields)

    @classmethod
    def from_options(cls, selectors: Iterable[str] = (), heap_prefixes: Iterable[str] = ()) -> NoiseMask:
        """A user mask; raises :class:`~webr4.state.dom_lines.MaskSelectorError` on an unsupported selector,
        :class:`~webr4.state.heappaths.HeapPathError` on a malformed path."""
        selectors = tuple(selectors)
        for selector in selectors:
            Selector.parse(selector)
        return cls(selectors=selectors, heap_paths=[parse_path(p) for p in heap_prefixes])

    def __or__(self, other: NoiseMask) -> NoiseMask:
        return NoiseMask(**{name: [*self[name], *other[name]] for name in MASK_FIELDS})

    @property
    def categories(self) -> list[str]:
        """Names of the categories this mask hides something of, in registry order."""
        return [c.name for c in CATEGORIES if any(self[f.name] for f in c.mask_fields)]

    def apply(self, snapshot: StateSnapshot) -> StateSnapshot:
        """``snapshot`` with what the mask names blanked, category by category."""
        fields = {name: self[name] for name in MASK_FIELDS}
        return snapshot.replace(**{c.key: c.mask(snapshot[c.key], fields) for c in CATEGORIES})

    def diff(self, parent: StateSnapshot, child: StateSnapshot) -> StateDiff:
        """The difference between ``parent`` and ``child`` outside the mask."""
        return diff_states(self.apply(parent), self.apply(child))

    def items(self, limit: int = 30) -> list[str]:
        """What the mask hides in words, one item per entry (``heap: window.todos[0].created``), at
        most ``limit`` of them and then one saying how many more."""
        found = [f"{category.name}: {entry if isinstance(entry, str) else json.dumps(entry)}"
                 for category in CATEGORIES for mask_field in category.mask_fields
                 for entry in mask_field.to_json(self[mask_field.name])]
        return found if len(found) <= limit else [*found[:limit], f"… {len(found) - limit} more"]

    def to_json(self) -> dict[str, Any]:
        return {name: field.to_json(self[name]) for name, field in MASK_FIELDS.items()}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> NoiseMask:
        """Inverse of :meth:`to_json`; fields the JSON lacks are empty."""
        return cls(**{name: field.from_json(raw[name]) for name, field in MASK_FIELDS.items() if name in raw})
