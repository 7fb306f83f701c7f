"""``RUN/webr4.sqlite``: everything a sweep has computed, written as it happens.

The store is what makes ``webr4 explore --resume`` lose nothing and repeat nothing. It holds

* ``meta``: the sweep's settings (session, strategy, bound, budgets, masks, rules, filters), so
  a resumed sweep is the same sweep, and the noise mask found from the seed replays;
* ``executions``: one row per distinct plan run (and per seed replay), with how many times it
  was started and, once finished, its trace and end state (compact JSON, zlib-compressed) and
  its screenshot (PNG), which moves out to a file of the run once an explored sequence owns it;
* ``sequences``: the explored sequences in order (the seed is 0), each naming the execution it
  ran as and holding its report once judged, with its confirmation in plain Chromium once done;
  a report belongs to the execution it judged, and a sequence that runs as another one has none;
* ``represented``: the sequences not run because their group's representative stood for them
  (:mod:`webr4.engine.grouping`), each with its record; a sequence that runs later (an
  ``--exhaustive`` continuation) leaves it.

The store is the only home of every trace and end state in the run directory, and each
screenshot is kept once, in the store or as a PNG file it names; read them with
:class:`webr4.rundir.runfiles.RunFiles`.

A sweep that resumes reads plans' outcomes from ``executions`` instead of running them again, so
the strategy replans exactly what it planned before and only unfinished executions run. SQLite
runs in WAL mode and every write is its own transaction, so a ``kill -9`` or a power cut loses at
most the executions under way.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import sqlite3
import zlib
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from webr4.rundir.execution_files import trace_from_text
from webr4.rundir.run import RunDir
from webr4.rundir.outcome import Outcome
from webr4.trace import Trace
from webr4.errors import Webr4Error

SCHEMA_VERSION = 3

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS executions (
    key TEXT PRIMARY KEY,
    plan TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    trace BLOB,
    state BLOB,
    screenshot BLOB,
    screenshot_file TEXT,
    seconds REAL
);
CREATE TABLE IF NOT EXISTS sequences (idx INTEGER PRIMARY KEY, key TEXT NOT NULL, report TEXT);
CREATE TABLE IF NOT EXISTS represented (idx INTEGER PRIMARY KEY, record TEXT NOT NULL);
"""


class StoreError(Webr4Error):
    """The run store cannot be used as asked (one line naming the problem and what to do)."""


def damaged(path: Path, error: BaseException) -> StoreError:
    """The error for the store at ``path`` that exists but cannot be read as one (truncated,
    overwritten, corrupted), saying what of the run still works."""
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return StoreError(f"the run store {path} is damaged ({reason}); the run's verdicts are still in its "
                      f"summary.json (webr4 export {path.parent} reads them); explore again into a new --out")


def execution_key(plan: Sequence[str], copy: int = 0, logged: Collection[str] | None = None) -> str:
    """A plan's key; ``copy`` tells apart deliberate repeats of one plan (the seed replays), and
    ``logged`` an execution that logged the page's accesses in those events alone (None: in
    every event, as the plain key says)."""
    digest = hashlib.sha256(json.dumps(list(plan)).encode()).hexdigest()[:32]
    key = f"{digest}.{copy}" if copy else digest
    if logged is None:
        return key
    return f"{key}~{hashlib.sha256(json.dumps(sorted(logged)).encode()).hexdigest()[:12]}"


class RunStore:
    """The SQLite store of one run directory."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        """Open the store at ``path`` (created when missing), or with ``read_only`` only read it,
        which works where nothing may be written (a run on read-only media, a CI artifact)."""
        self.path = path
        if read_only:
            self._db = _open_read_only(path)
            return
        existed = path.exists()
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            # a new store gives back the pages of screenshots moved out to files (set before any table)
            self._db.execute("PRAGMA auto_vacuum=FULL")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            if existed and not isinstance(error, sqlite3.OperationalError):
                raise damaged(path, error) from None
            raise StoreError(f"{path} is not a usable webr4 run store ({error}); choose another --out") from None

    @classmethod
    def create(cls, run_dir: Path, settings: dict[str, Any]) -> RunStore:
        """A new store for a fresh sweep; refuses a run directory that already has one."""
        path = RunDir(run_dir).store
        if path.exists():
            raise StoreError(f"{run_dir} already holds a sweep; add --resume to continue it, or choose another --out")
        store = cls(path)
        store.set("schema", SCHEMA_VERSION)
        store.set("settings", settings)
        return store

    @classmethod
    def open(cls, run_dir: Path) -> RunStore:
        """The store of an earlier sweep in ``run_dir``, to resume it."""
        path = RunDir(run_dir).store
        if not path.is_file():
            raise StoreError(f"{run_dir} holds no sweep to resume (no {path.name}); run without --resume")
        store = cls(path)
        if store.get("schema") != SCHEMA_VERSION:
            raise StoreError(f"{path} was written by another webr4 version; explore again into a new --out")
        return store

    def close(self) -> None:
        self._db.close()

    # -- settings and small facts -----------------------------------------------------------------

    def get(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set(self, key: str, value: Any) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value)))

    # -- executions -----------------------------------------------------------------------------

    def started(self, key: str, plan: Sequence[str]) -> None:
        """Note that the execution ``key`` begins (counted in ``attempts``)."""
        self._db.execute(
            "INSERT INTO executions (key, plan, attempts) VALUES (?, ?, 1) "
            "ON CONFLICT (key) DO UPDATE SET attempts = attempts + 1", (key, json.dumps(list(plan))))

    def finished(self, key: str, outcome: Outcome, seconds: float) -> None:
        trace, state, screenshot = outcome.to_row()
        self._db.execute("UPDATE executions SET trace = ?, state = ?, screenshot = ?, seconds = ? WHERE key = ?",
                         (_pack(trace), _pack(state), screenshot, seconds, key))

    def outcome(self, key: str) -> Outcome | None:
        """The finished execution ``key``, or ``None`` when it never finished (a screenshot moved
        to a file comes back as that file's path)."""
        row = self._db.execute("SELECT trace, state, screenshot, screenshot_file FROM executions "
                               "WHERE key = ? AND trace IS NOT NULL", (key,)).fetchone()
        if row is None:
            return None
        screenshot = row[2] if row[3] is None else self.path.parent / row[3]
        return Outcome.from_row(_unpack(row[0]), _unpack(row[1]), screenshot)

    def screenshot_moved(self, key: str, file: str) -> None:
        """The screenshot of execution ``key`` is now the PNG ``file`` (relative to the run
        directory), written before this call; the store lets go of its own copy."""
        self._db.execute("UPDATE executions SET screenshot = NULL, screenshot_file = ? WHERE key = ?", (file, key))

    def trace(self, key: str) -> Trace | None:
        """The trace of the finished execution ``key`` (without its state), or ``None``."""
        row = self._db.execute("SELECT trace FROM executions WHERE key = ? AND trace IS NOT NULL", (key,)).fetchone()
        return None if row is None else trace_from_text(_unpack(row[0]))

    def attempts(self) -> dict[str, int]:
        """Execution key → how many times it was started."""
        return dict(self._db.execute("SELECT key, attempts FROM executions"))

    def finished_keys(self) -> builtins.set[str]:  # the class's own set() shadows the type here
        return {key for (key,) in self._db.execute("SELECT key FROM executions WHERE trace IS NOT NULL")}

    # -- explored sequences -----------------------------------------------------------------------

    def explored(self, index: int, key: str) -> None:
        """Sequence ``index`` ran as the execution ``key``: kept with the report it already has of
        that execution (a resumed sweep), else without one; it is no longer represented."""
        self._db.execute("INSERT INTO sequences (idx, key) VALUES (?, ?) ON CONFLICT (idx) DO UPDATE SET "
                         "report = CASE WHEN key = excluded.key THEN report END, key = excluded.key", (index, key))
        self._db.execute("DELETE FROM represented WHERE idx = ?", (index,))

    def represented(self, index: int, record: dict[str, Any]) -> None:
        """Sequence ``index`` did not run: its group's representative stood for it (``record``)."""
        self._db.execute("INSERT OR REPLACE INTO represented (idx, record) VALUES (?, ?)", (index, json.dumps(record)))

    def sequence_trace(self, index: int) -> str | None:
        """The trace JSON of explored sequence ``index``, or ``None`` when there is none."""
        row = self._db.execute("SELECT e.trace FROM sequences s JOIN executions e ON e.key = s.key "
                               "WHERE s.idx = ? AND e.trace IS NOT NULL", (index,)).fetchone()
        return None if row is None else _unpack(row[0])

    def sequence_state(self, index: int) -> str | None:
        """The end-state JSON (without its screenshot) of explored sequence ``index``, or ``None``."""
        row = self._db.execute("SELECT e.state FROM sequences s JOIN executions e ON e.key = s.key "
                               "WHERE s.idx = ? AND e.state IS NOT NULL", (index,)).fetchone()
        return None if row is None else _unpack(row[0])

    def judged(self, index: int, key: str, report: dict[str, Any]) -> None:
        """Sequence ``index`` (executed as ``key``) was compared with its parent: ``report``."""
        self._db.execute("INSERT OR REPLACE INTO sequences (idx, key, report) VALUES (?, ?, ?)",
                         (index, key, json.dumps(report)))

    def confirmed(self, index: int, confirmation: dict[str, Any]) -> None:
        """The judged sequence ``index`` was checked in plain Chromium: ``confirmation`` joins its
        report, so that a resumed sweep does not check it again."""
        report = self.report(index)
        if report is not None:
            self._db.execute("UPDATE sequences SET report = ? WHERE idx = ?",
                             (json.dumps({**report, "confirmation": confirmation}), index))

    def report(self, index: int) -> dict[str, Any] | None:
        row = self._db.execute("SELECT report FROM sequences WHERE idx = ? AND report IS NOT NULL", (index,)).fetchone()
        return None if row is None else json.loads(row[0])


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that only reads ``path``, by the first way that works there: an ordinary
    one (which, closing last, tidies the store's ``-wal`` and ``-shm`` files away as a writer
    does); a read-only one (the directory cannot be written, the index files exist); an
    immutable one (not even those files can be made: what an interrupted sweep left in its
    ``-wal`` file is then not seen)."""
    uri = path.resolve().as_uri()
    error: sqlite3.DatabaseError | None = None
    for mode in ("", "?mode=ro", "?immutable=1"):
        try:
            db = sqlite3.connect(uri + mode, uri=True, check_same_thread=False)
        except sqlite3.OperationalError as failed:
            error = failed
            continue
        try:
            db.execute("SELECT count(*) FROM meta").fetchone()  # opening is lazy: reading says if it can
            return db
        except sqlite3.DatabaseError as failed:
            db.close()
            error = failed
            if not isinstance(failed, sqlite3.OperationalError) or "no such table" in str(failed):
                break  # not a way of opening that fails: the file itself is no store
    assert error is not None
    raise damaged(path, error)


def _pack(text: str) -> bytes:
    """JSON as the store keeps it: zlib-compressed UTF-8 at level 1 (traces shrink about
    sevenfold, in a fifth to a third of the time level 6 takes to shrink them ninefold: every
    execution is stored)."""
    return zlib.compress(text.encode(), 1)


def _unpack(blob: bytes) -> str:
    return zlib.decompress(blob).decode()
