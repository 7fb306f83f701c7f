"""Reading what a sweep kept of its explored sequences: the one reader of a run directory's traces.

Every explored sequence's trace and end state live once, compressed, in the run store
(``webr4.sqlite``, :mod:`webr4.sweep.store`); its screenshot, the pixel difference and the
difference report live as files under ``sequences/<n>/``. The report, ``webr4 replay`` and
the tests read sequences through :class:`RunFiles` and never open the store themselves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webr4.sweep.store import FILENAME, RunStore
from webr4.trace import Trace


class RunFiles:
    """The explored sequences of the run directory ``directory``.

    Opening a directory without a store is allowed: every sequence then reads as missing.
    Traces are parsed once and kept.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        path = directory / FILENAME
        self._store = RunStore(path) if path.is_file() else None
        self._traces: dict[int, Trace] = {}

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def __enter__(self) -> RunFiles:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def trace(self, index: int) -> Trace | None:
        """The trace of sequence ``index`` (0 is the seed); ``None`` when the run has none."""
        if index not in self._traces:
            text = self._store.sequence_trace(index) if self._store is not None else None
            if text is None:
                return None
            self._traces[index] = Trace.loads(text)
        return self._traces[index]

    def state(self, index: int) -> dict[str, Any] | None:
        """The end state of sequence ``index`` as JSON (its screenshot is :meth:`file` ``state.png``)."""
        text = self._store.sequence_state(index) if self._store is not None else None
        return None if text is None else json.loads(text)

    def file(self, index: int, name: str) -> Path | None:
        """``sequences/<index>/<name>`` (``state.png``, ``diff.json``, ``diff.png``) when it exists."""
        path = self.directory / "sequences" / str(index) / name
        return path if path.is_file() else None

    def write_trace(self, index: int, target: Path) -> bool:
        """Write sequence ``index``'s trace as a plain ``trace.json`` at ``target`` (for tools that
        want one file); ``False`` when the run has no such trace."""
        trace = self.trace(index)
        if trace is None:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(trace.dumps(), encoding="utf-8")
        return True
