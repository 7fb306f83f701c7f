"""Per-category differences between the final states of a parent execution and its child.

:func:`diff_states` compares two snapshots category by category (each category's module of
:mod:`webr4.state.categories` says how); :class:`StateDiff` holds one part per category, falsy
when that part of the state is the same. To ignore known noise, apply a
:class:`~webr4.state.noise.NoiseMask` to both snapshots first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webr4.state.categories import CATEGORIES
from webr4.state.parts import Parts
from webr4.state.snapshot import StateSnapshot

_BY_NAME = {c.name: c for c in CATEGORIES}


class StateDiff(Parts):
    """All differences between a parent's state and a child's: one part per category, as the
    attribute of the category's name (``diff.dom``, ``diff.network``, …). A part not given is the
    category's empty difference."""

    def __init__(self, **parts: Any) -> None:
        self._fill(_BY_NAME, parts, lambda name: _BY_NAME[name].no_difference())

    @property
    def categories(self) -> set[str]:
        """Names of the categories that differ."""
        return {name for name, part in self._parts.items() if part}

    def to_json(self) -> dict[str, Any]:
        """JSON-able form: ``categories`` (those that differ) and each category's part (the
        screenshot diff image is left out; see :meth:`save`)."""
        return {"categories": sorted(self.categories), **{c.name: c.dump_diff(self[c.name]) for c in CATEGORIES}}

    def save(self, directory: Path, name: str = "diff") -> Path:
        """Write ``<name>.json``, and ``<name>.png`` (the screenshot diff image) when there is one."""
        directory.mkdir(parents=True, exist_ok=True)
        data = self.to_json()
        if self.screenshot.image is not None:
            (directory / f"{name}.png").write_bytes(self.screenshot.image)
            data["screenshot"]["image"] = f"{name}.png"
        target = directory / f"{name}.json"
        target.write_text(json.dumps(data, indent=1, sort_keys=True, default=str), encoding="utf-8")
        return target


def diff_states(parent: StateSnapshot, child: StateSnapshot) -> StateDiff:
    """Every category of difference between ``parent`` and ``child``."""
    return StateDiff(**{c.name: c.diff(parent[c.key], child[c.key]) for c in CATEGORIES})
