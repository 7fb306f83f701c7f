"""Memoising :func:`rewrite` by content hash, in memory (LRU) and optionally on disk."""

from __future__ import annotations

import hashlib
import json
import os
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from pathlib import Path

from webr4.instrument.rewrite import RewriteResult, UncontrolledSite, rewrite

FORMAT_VERSION = "1"


@dataclass
class CachedRewriter:
    """Calls :func:`rewrite` at most once per distinct input.

    The key hashes the source text and every argument that changes the output (url, script id,
    module, handler) plus a format version. ``directory``, when given, keeps one JSON file per
    key across processes; files are written atomically (temporary file, then rename).
    """

    max_entries: int = 256
    directory: Path | None = None
    _memory: OrderedDict[str, RewriteResult] = field(default_factory=OrderedDict, init=False)

    def rewrite(
        self, source: str, url: str, *, script_id: str = "0", module: bool = False, handler: bool = False
    ) -> RewriteResult:
        key = self._key(source, url, script_id, module, handler)
        result = self._memory.get(key)
        if result is not None:
            self._memory.move_to_end(key)
            return result
        result = self._load(key)
        if result is None:
            result = rewrite(source, url, script_id=script_id, module=module, handler=handler)
            self._store(key, result)
        self._memory[key] = result
        if len(self._memory) > self.max_entries:
            self._memory.popitem(last=False)
        return result

    @staticmethod
    def _key(source: str, url: str, script_id: str, module: bool, handler: bool) -> str:
        digest = hashlib.sha256()
        header = json.dumps([FORMAT_VERSION, url, script_id, module, handler])
        digest.update(header.encode())
        digest.update(b"\0")
        digest.update(source.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def _path(self, key: str) -> Path | None:
        return None if self.directory is None else self.directory / f"{key}.json"

    def _load(self, key: str) -> RewriteResult | None:
        path = self._path(key)
        if path is None or not path.exists():
            return None
        raw = json.loads(path.read_text(encoding="utf-8", errors="surrogatepass"))
        uncontrolled = tuple(UncontrolledSite(**item) for item in raw["uncontrolled"])
        return RewriteResult(raw["code"], raw["sites"], uncontrolled)

    def _store(self, key: str, result: RewriteResult) -> None:
        path = self._path(key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(asdict(result)), encoding="utf-8", errors="surrogatepass")
        temporary.replace(path)
