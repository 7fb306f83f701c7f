"""The final state of one execution, in a form that can be compared, saved and loaded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webr4.state.categories import CATEGORIES
from webr4.state.categories.screenshot import png_of
from webr4.state.parts import Parts

if TYPE_CHECKING:
    from webr4.execution import Execution

_BY_KEY = {c.key: c for c in CATEGORIES}


class StateSnapshot(Parts):
    """What an execution left behind: one value per category of
    :data:`~webr4.state.categories.CATEGORIES`, as the attribute named by the category's
    ``key`` (``dom``, ``heap``, ``exceptions``, ``console``, ``requests``, ``pending``,
    ``navigation``, ``screenshot``, …); each category's module documents its value.
    A value not given is the category's empty one. ``screenshot`` is PNG bytes, a path to a PNG
    file, or ``None``.
    """

    def __init__(self, dom: str = "", **parts: Any) -> None:
        self._fill(_BY_KEY, {**parts, "dom": dom}, lambda key: _BY_KEY[key].empty())

    @classmethod
    def from_execution(cls, execution: Execution, heap: Any = None) -> StateSnapshot:
        """The snapshot of ``execution``; ``heap``, when given, stands in for ``execution.heap``."""
        parts = {c.key: c.capture(execution) for c in CATEGORIES}
        if heap is not None:
            parts["heap"] = heap
        return cls(**parts)

    def replace(self, **changes: Any) -> StateSnapshot:
        """This snapshot with some values changed."""
        return StateSnapshot(**{**self._parts, **changes})

    def screenshot_png(self) -> bytes | None:
        """The screenshot as PNG bytes, reading the file when it is stored as a path."""
        return png_of(self.screenshot)

    def to_json(self) -> dict[str, Any]:
        """JSON-able form. A screenshot held as bytes is left out: use :meth:`save` to keep it."""
        return {c.key: c.dump(self[c.key]) for c in CATEGORIES}

    @classmethod
    def from_json(cls, raw: dict[str, Any], base: Path | None = None) -> StateSnapshot:
        """Inverse of :meth:`to_json`; a relative screenshot path is taken relative to ``base``.
        A category the JSON lacks (written before it existed) is empty."""
        return cls(**{c.key: c.load(raw[c.key], base) for c in CATEGORIES if c.key in raw})

    def save(self, directory: Path, name: str = "state") -> Path:
        """Write ``<name>.json`` (and ``<name>.png`` when there is a screenshot) into
        ``directory``; the JSON refers to the PNG by a path relative to ``directory``."""
        directory.mkdir(parents=True, exist_ok=True)
        png = self.screenshot_png()
        stored = self
        if png is not None:
            (directory / f"{name}.png").write_bytes(png)
            stored = self.replace(screenshot=Path(f"{name}.png"))
        target = directory / f"{name}.json"
        target.write_text(json.dumps(stored.to_json(), indent=1, sort_keys=True), encoding="utf-8")
        return target

    @classmethod
    def load(cls, path: Path) -> StateSnapshot:
        """Read a snapshot written by :meth:`save`."""
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")), base=path.parent)
