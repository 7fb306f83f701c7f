"""What one execution left, as every backend hands it back and the run store keeps it.

An :class:`Outcome` is the trace and the end state of one execution, whichever process or machine
ran it. It pickles (for worker processes and clusters) and round-trips through the run store
(:mod:`webr4.rundir.store`) in the schemas of :mod:`webr4.rundir.execution_files`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from webr4.rundir.execution_files import state_from_text, state_text, trace_from_text, trace_text
from webr4.state.snapshot import StateSnapshot
from webr4.trace import ErrorRecord, Trace
from webr4.vocabulary import FAILED_RUNS, Truncation


@dataclass(frozen=True)
class Outcome:
    """The trace and the end state of one execution; ``state.screenshot`` holds PNG bytes."""

    trace: Trace
    state: StateSnapshot

    @property
    def failed(self) -> bool:
        return self.trace.truncated in FAILED_RUNS

    def to_row(self) -> tuple[str, str, bytes | None]:
        """(trace JSON, state JSON without the screenshot, screenshot PNG) for the store, in the
        schemas of :mod:`webr4.rundir`."""
        return trace_text(self.trace), state_text(self.state), self.state.screenshot_png()

    @classmethod
    def from_row(cls, trace: str, state: str, screenshot: bytes | Path | None) -> Outcome:
        return cls(trace_from_text(trace), state_from_text(state, screenshot))

    @classmethod
    def failure(cls, message: str) -> Outcome:
        """A run that could not be carried out at all (the browser or its worker died)."""
        trace = Trace(steps=[], events={}, truncated=Truncation.PAGE_LOST, errors=[ErrorRecord("harness", message)])
        return cls(trace, StateSnapshot(dom="", exceptions=[]))
