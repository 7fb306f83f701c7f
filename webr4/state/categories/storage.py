"""``storage``: what the page left in ``localStorage`` and ``sessionStorage``, as
``"localStorage.<key>"`` / ``"sessionStorage.<key>"`` → value.

Read from the page at the end of the run (an opaque origin has no storage: nothing is read).
Compared key by key (:class:`StorageDiff`). Masked by keys (``storage_keys``: those two replays
disagree on, such as a stored timestamp). Items: ``localStorage.theme: "dark" → "light"``,
``sessionStorage.step set to "2"`` (only the child stored it), ``localStorage.draft removed``
(only the parent kept it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Collection, Mapping

from webr4.state.categories.base import Category, MaskField
from webr4.state.categories.words import quoted

if TYPE_CHECKING:
    from webr4.browser.driver import Execution

Storage = dict[str, str]


@dataclass(frozen=True)
class StorageChange:
    """One key whose value differs; ``before``/``after`` are ``None`` where the key is absent."""

    key: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class StorageDiff:
    changes: list[StorageChange] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.changes)


class WebStorage(Category[Storage, StorageDiff]):
    name = "storage"
    title = "Web storage"
    mask_fields = (MaskField("storage_keys"),)
    page_script = """() => {
      const stored = {};
      for (const name of ["localStorage", "sessionStorage"]) {
        let area;
        try { area = window[name]; } catch (error) { continue; }
        for (let i = 0; i < area.length; i++) {
          const key = area.key(i);
          stored[name + "." + key] = area.getItem(key);
        }
      }
      return stored;
    }"""

    def empty(self) -> Storage:
        return {}

    def capture(self, execution: Execution) -> Storage:
        return dict(execution.captured.get(self.name) or {})

    def load(self, raw: Any, base: Any) -> Storage:
        return dict(raw)

    def no_difference(self) -> StorageDiff:
        return StorageDiff()

    def diff(self, before: Storage, after: Storage) -> StorageDiff:
        return StorageDiff([StorageChange(key, before.get(key), after.get(key))
                            for key in sorted(before.keys() | after.keys()) if before.get(key) != after.get(key)])

    def dump_diff(self, part: StorageDiff) -> dict[str, Any]:
        return {"changes": [vars(change) for change in part.changes]}

    def items(self, part: StorageDiff) -> list[str]:
        items = []
        for change in part.changes:
            if change.before is None:
                items.append(f"{change.key} set to {quoted(str(change.after))}")
            elif change.after is None:
                items.append(f"{change.key} removed")
            else:
                items.append(f"{change.key}: {quoted(change.before)} → {quoted(change.after)}")
        return items

    def noise(self, first: Storage, second: Storage) -> dict[str, Collection[Any]]:
        return {"storage_keys": frozenset(change.key for change in self.diff(first, second).changes)}

    def mask(self, value: Storage, fields: Mapping[str, Collection[Any]]) -> Storage:
        masked = fields["storage_keys"]
        return {key: stored for key, stored in value.items() if key not in masked}


STORAGE = WebStorage()
