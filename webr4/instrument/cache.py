"""Memoising :func:`rewrite` by content hash, in memory (LRU) and optionally on disk.

The disk cache lets every process that replays a session (``explore``, each ``--workers``
process, a later ``record`` of the same site) take the rewrites the recording made instead of
making them again. :func:`persistent_directory` is where webr4 keeps it by default.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from webr4.version import __version__
from webr4.instrument.pool import rewrite_elsewhere
from webr4.instrument.rewrite import RewriteResult, UncontrolledSite, rewrite

FORMAT_VERSION = "2"
CACHE_ENV = "WEBR4_CACHE_DIR"
"""Names the directory webr4 keeps its cache in; set but empty, nothing is kept on disk."""


@dataclass
class CachedRewriter:
    """Calls :func:`rewrite` at most once per distinct input.

    The key hashes the source text and every argument that changes the output (url, script id,
    module, handler) plus a format version. ``directory``, when given, keeps one JSON file per
    key across processes; files are written atomically (temporary file, then rename). The disk
    is a cache only: a file that cannot be read or written is a miss, never an error.
    """

    max_entries: int = 256
    directory: Path | None = None
    _memory: OrderedDict[str, RewriteResult] = field(default_factory=OrderedDict, init=False)
    _under_way: dict[str, _SharedRewrite] = field(default_factory=dict, init=False)

    def rewrite(
        self, source: str, url: str, *, script_id: str = "0", module: bool = False, handler: bool = False
    ) -> RewriteResult:
        """The rewrite of ``source``, computed in this thread on a miss."""
        key = self._key(source, url, script_id, module, handler)
        result = self._cached(key)
        if result is None:
            result = rewrite(source, url, script_id=script_id, module=module, handler=handler)
            self._store(key, result)
            self._remember(key, result)
        return result

    async def rewrite_async(
        self, source: str, url: str, *, script_id: str = "0", module: bool = False, handler: bool = False
    ) -> RewriteResult:
        """The same result as :meth:`rewrite`; a miss is computed in a worker process
        (:mod:`webr4.instrument.pool`), so the calling event loop goes on meanwhile. A hit starts
        no worker. Calls for the same input while its rewrite is under way wait for that one; the
        rewrite is withdrawn only when every call waiting for it is cancelled."""
        key = self._key(source, url, script_id, module, handler)
        result = self._cached(key)
        if result is not None:
            return result
        shared = self._under_way.get(key)
        if shared is None or shared.task.get_loop() is not asyncio.get_running_loop():
            task = asyncio.ensure_future(self._rewrite_missed(key, source, url, script_id, module, handler))
            shared = self._under_way[key] = _SharedRewrite(task)
        shared.waiting += 1
        try:
            return await asyncio.shield(shared.task)
        finally:
            shared.waiting -= 1
            if not shared.waiting:
                shared.task.cancel()  # nobody is left to wait: finished already, or no longer wanted
                if self._under_way.get(key) is shared:
                    del self._under_way[key]

    async def _rewrite_missed(
        self, key: str, source: str, url: str, script_id: str, module: bool, handler: bool
    ) -> RewriteResult:
        result = await rewrite_elsewhere(source, url, script_id=script_id, module=module, handler=handler)
        self._store(key, result)
        self._remember(key, result)
        return result

    @staticmethod
    def _key(source: str, url: str, script_id: str, module: bool, handler: bool) -> str:
        digest = hashlib.sha256()
        header = json.dumps([FORMAT_VERSION, url, script_id, module, handler])
        digest.update(header.encode())
        digest.update(b"\0")
        digest.update(source.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def _cached(self, key: str) -> RewriteResult | None:
        result = self._memory.get(key)
        if result is not None:
            self._memory.move_to_end(key)
            return result
        result = self._load(key)
        if result is not None:
            self._remember(key, result)
        return result

    def _remember(self, key: str, result: RewriteResult) -> None:
        self._memory[key] = result
        if len(self._memory) > self.max_entries:
            self._memory.popitem(last=False)

    def _path(self, key: str) -> Path | None:
        return None if self.directory is None else self.directory / f"{key}.json"

    def _load(self, key: str) -> RewriteResult | None:
        path = self._path(key)
        if path is None:
            return None
        try:
            raw = json.loads(path.read_text(encoding="utf-8", errors="surrogatepass"))
            uncontrolled = tuple(UncontrolledSite(**item) for item in raw["uncontrolled"])
            return RewriteResult(raw["code"], raw["sites"], uncontrolled, tuple(raw["kept"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _store(self, key: str, result: RewriteResult) -> None:
        path = self._path(key)
        if path is None:
            return
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            stored = {"code": result.code, "sites": result.sites,  # the fields as they are: no deep copy
                      "uncontrolled": [asdict(site) for site in result.uncontrolled], "kept": result.kept}
            temporary.write_text(json.dumps(stored), encoding="utf-8", errors="surrogatepass")
            temporary.replace(path)
        except OSError:
            temporary.unlink(missing_ok=True)


@dataclass
class _SharedRewrite:
    """A rewrite under way and how many calls wait for it."""

    task: asyncio.Task[RewriteResult]
    waiting: int = 0


def cache_root() -> Path | None:
    """webr4's cache directory: ``$WEBR4_CACHE_DIR``, else ``$XDG_CACHE_HOME/webr4``, else
    ``~/.cache/webr4``; None when ``WEBR4_CACHE_DIR`` is set but empty (no disk cache)."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured).expanduser() if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "webr4"


@lru_cache(maxsize=1)
def rewriter_fingerprint() -> str:
    """Changes whenever the rewrite of some script may change: with webr4's version, tree-sitter's
    and its grammar's, and the rewriter's own source."""
    parsers = "\0".join(version(name) for name in ("tree-sitter", "tree-sitter-javascript"))
    digest = hashlib.sha256(f"{__version__}\0{parsers}\0".encode())
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.name.encode() + b"\0" + module.read_bytes())
    return digest.hexdigest()[:16]


def persistent_directory() -> Path | None:
    """Where rewrites are kept across processes: ``rewrite/<fingerprint>`` in :func:`cache_root`.

    Directories of other fingerprints (an earlier webr4) are removed the first time a new one is
    asked for. None when there is to be no disk cache.
    """
    root = cache_root()
    if root is None:
        return None
    directory = root / "rewrite" / rewriter_fingerprint()
    if not directory.is_dir():
        for stale in directory.parent.glob("*"):
            if stale.is_dir() and stale != directory:
                shutil.rmtree(stale, ignore_errors=True)
    return directory
