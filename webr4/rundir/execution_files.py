"""An execution kept as plain files (:class:`ExecutionFiles`), and the one trace JSON and
end-state JSON schema wherever a trace or an end state is kept (a file or the run store).

A trace is :meth:`Trace.to_json <webr4.trace.Trace.to_json>` plus ``sequence``, the executed
event ids, so that every ``trace.json`` is also a plan for ``webr4 run --sequence``; readers
accept traces without it. An end state is :meth:`StateSnapshot.to_json
<webr4.state.snapshot.StateSnapshot.to_json>`, whose ``screenshot`` is a PNG file named relative
to the JSON file (null in the store, which keeps the PNG beside it).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from webr4.errors import Webr4Error
from webr4.gcpause import gc_paused
from webr4.state.snapshot import StateSnapshot
from webr4.trace import EventId, Trace


class PlanError(Webr4Error, ValueError):
    """JSON that is no plan: neither a list of event ids nor an object with one."""


def plan_from_json(raw: Any) -> list[EventId]:
    """The plan in JSON ``raw``: a list of event-id strings, ``{"sequence": [...]}`` (every
    ``trace.json``), or a trace without ``sequence``, whose steps' events are then the plan.

    Raises :class:`PlanError` with a one-line explanation when the shape is wrong.
    """
    if isinstance(raw, Mapping) and "steps" in raw and "sequence" not in raw:
        raw = [step["event"] for step in raw["steps"] if isinstance(step, Mapping) and "event" in step]
    if isinstance(raw, Mapping):
        raw = raw.get("sequence")
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise PlanError(
            "a sequence file must hold a JSON list of event ids, or an object with a "
            '"sequence" list (for example the "sequence" of a trace.json)'
        )
    return list(raw)


def trace_text(trace: Trace) -> str:
    """``trace`` as trace JSON, compact (a framework app's trace holds 10^5 accesses)."""
    return json.dumps({"sequence": trace.sequence, **trace.to_json()}, separators=(",", ":"), sort_keys=True)


def trace_from_text(text: str) -> Trace:
    """The trace in trace JSON ``text`` (``sequence`` is derived from the steps, and may be missing)."""
    with gc_paused():  # 10^5 accesses, and no cycle among them
        return Trace.from_json(json.loads(text))


def write_trace(path: Path, trace: Trace) -> Path:
    """Write ``trace`` to ``path`` (its directory is created); returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(trace_text(trace), encoding="utf-8")
    return path


def read_trace(path: Path) -> Trace:
    return trace_from_text(path.read_text(encoding="utf-8"))


def state_text(state: StateSnapshot) -> str:
    """``state`` as compact state JSON; a screenshot held as bytes is left out (the store keeps
    it beside the JSON), one held as a path is named as it is."""
    return json.dumps(state.to_json(), separators=(",", ":"))


def state_from_text(text: str, screenshot: bytes | Path | None = None) -> StateSnapshot:
    """The end state in state JSON ``text``, with ``screenshot`` (PNG bytes or a file) when given,
    else the file the JSON names."""
    state = StateSnapshot.from_json(json.loads(text))
    return state if screenshot is None else state.replace(screenshot=screenshot)


def write_state(path: Path, state: StateSnapshot, screenshot: Path | None = None) -> Path:
    """Write ``state`` to ``path``, its screenshot (if any) to the PNG file ``screenshot`` (beside
    ``path`` unless given), named in the JSON relative to ``path``'s directory; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    png = state.screenshot_png()
    stored = state.replace(screenshot=None)
    if png is not None:
        screenshot = screenshot or path.with_suffix(".png")
        screenshot.write_bytes(png)
        stored = state.replace(screenshot=Path(os.path.relpath(screenshot, path.parent)))
    path.write_text(json.dumps(stored.to_json(), indent=1, sort_keys=True), encoding="utf-8")
    return path


def read_state(path: Path) -> StateSnapshot:
    """The end state ``path`` holds; its screenshot is the file it names, relative to ``path``."""
    return StateSnapshot.from_json(json.loads(path.read_text(encoding="utf-8")), base=path.parent)


@dataclass(frozen=True)
class ExecutionFiles:
    """One execution kept as plain files in ``directory``."""

    directory: Path

    @property
    def trace(self) -> Path:
        return self.directory / "trace.json"

    @property
    def state(self) -> Path:
        return self.directory / "state.json"

    @property
    def screenshot(self) -> Path:
        return self.directory / "screenshot.png"

    @property
    def network(self) -> Path:
        return self.directory / "network.har"

    def write(self, trace: Trace, state: StateSnapshot) -> None:
        """Write ``trace.json``, ``state.json`` and, when the state has one, ``screenshot.png``."""
        write_trace(self.trace, trace)
        write_state(self.state, state, self.screenshot)
