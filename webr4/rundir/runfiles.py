"""Reading what a sweep kept of its explored sequences: the one reader of a run directory's traces.

Every explored sequence's trace and end state live once, compressed, in the run store
(``webr4.sqlite``, :mod:`webr4.rundir.store`); its screenshot, the pixel difference and the
difference report live as files of the run (:meth:`webr4.rundir.run.RunDir.sequence`). The report,
``webr4 replay`` and the tests read sequences through :class:`RunFiles` and never open the store
themselves.
"""

from __future__ import annotations

from pathlib import Path

from webr4.rundir.execution_files import state_from_text, trace_from_text
from webr4.rundir.run import SCREENSHOT, RunDir
from webr4.state.snapshot import StateSnapshot
from webr4.rundir.store import RunStore
from webr4.trace import Trace


class RunFiles:
    """The explored sequences of the run directory ``directory``.

    Opening a directory without a store is allowed: every sequence then reads as missing. The
    store is only read, so a run on read-only media can be reported and replayed. Traces are
    parsed once and kept.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.run = RunDir(directory)
        self._store = RunStore(self.run.store, read_only=True) if self.run.store.is_file() else None
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
            self._traces[index] = trace_from_text(text)
        return self._traces[index]

    def state(self, index: int) -> StateSnapshot | None:
        """The end state of sequence ``index``, its screenshot the file :meth:`file` ``state.png``
        when there is one; ``None`` when the run has none."""
        text = self._store.sequence_state(index) if self._store is not None else None
        return None if text is None else state_from_text(text, self.file(index, SCREENSHOT))

    def file(self, index: int, name: str) -> Path | None:
        """``name`` (``state.png``, ``diff.json``, ``diff.png``) of sequence ``index`` when it exists."""
        return self.run.sequence_file(index, name)
