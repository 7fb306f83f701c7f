"""``storage``: what the page left in its storage areas, as one key per stored item →
its value: ``"localStorage.<key>"`` and ``"sessionStorage.<key>"`` (the string stored),
``"indexedDB.<database>.<store>[<key>]"`` (the record, as JSON; a ``Date`` as its ISO text, a
``Map`` or ``Set`` as its entries, binary data and blobs by their size) and
``"caches.<cache>[<url>]"`` (the cached response's status, type and length, and a digest of its
body).

Read from the page at the end of the run (an opaque origin has no storage: nothing is read), the
same way in webr4's runs and in plain Chromium. A database another connection is upgrading at
that moment is passed over rather than waited for. Compared key by key (:class:`StorageDiff`).
Masked by keys (``storage_keys``: those two replays disagree on, such as a stored timestamp).
Items: ``localStorage.theme: "dark" → "light"``, ``sessionStorage.step set to "2"`` (only the
child stored it), ``indexedDB.shop.cart[3] removed`` (only the parent kept it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Collection, Mapping

from webr4.state.categories.base import StateCategory, MaskField
from webr4.state.categories.words import quoted

if TYPE_CHECKING:
    from webr4.execution import Execution

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


class WebStorage(StateCategory[Storage, StorageDiff]):
    name = "storage"
    title = "Web storage"
    mask_fields = (MaskField("storage_keys"),)
    page_script = """async () => {
      const stored = {};
      for (const name of ["localStorage", "sessionStorage"]) {
        let area;
        try { area = window[name]; } catch (error) { continue; }
        for (let i = 0; i < area.length; i++) {
          const key = area.key(i);
          stored[name + "." + key] = area.getItem(key);
        }
      }
      const plain = (key, value) => {
        if (value instanceof Date) return value.toISOString();
        if (value instanceof Map) return {Map: [...value.entries()]};
        if (value instanceof Set) return {Set: [...value]};
        if (value instanceof Blob) return {Blob: value.size, type: value.type};
        if (value instanceof ArrayBuffer) return {bytes: value.byteLength};
        if (ArrayBuffer.isView(value)) return {bytes: value.byteLength};
        return value;
      };
      const json = (value) => JSON.stringify(value, plain);
      const settled = (request) => new Promise((resolve) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => resolve(undefined);
      });
      let databases = [];
      try { databases = self.indexedDB ? await indexedDB.databases() : []; } catch (error) { databases = []; }
      for (const {name} of databases.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const opening = indexedDB.open(name);
        const db = await new Promise((resolve) => {
          opening.onsuccess = () => resolve(opening.result);
          opening.onerror = opening.onblocked = () => resolve(null);
          opening.onupgradeneeded = () => { opening.transaction.abort(); };
        });
        if (!db) continue;
        try {
          for (const storeName of db.objectStoreNames) {
            const store = db.transaction(storeName, "readonly").objectStore(storeName);
            const [keys, values] = await Promise.all([settled(store.getAllKeys()), settled(store.getAll())]);
            (keys || []).forEach((key, i) => {
              stored["indexedDB." + name + "." + storeName + "[" + json(key) + "]"] = json(values[i]);
            });
          }
        } finally { db.close(); }
      }
      let cacheNames = [];
      try { cacheNames = self.caches ? await caches.keys() : []; } catch (error) { cacheNames = []; }
      for (const cacheName of cacheNames.sort()) {
        const cache = await caches.open(cacheName);
        for (const request of await cache.keys()) {
          const response = await cache.match(request);
          if (!response) continue;
          const body = await response.clone().arrayBuffer();
          const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
          const hex = [...digest.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
          stored["caches." + cacheName + "[" + request.url + "]"] = response.status + " " +
            (response.headers.get("content-type") || "") + ", " + body.byteLength + " bytes, sha256 " + hex;
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
