"""Telling the user how a sweep goes: a live bar, JSON lines for CI, or nothing.

A sweep calls :meth:`Progress.advance` after every judged sequence with how many are done, how
many it expects in all (done plus what the strategy still has pending, an estimate that can
grow as R4 finds new races) and the verdict counts so far, and :meth:`Progress.finish` once when
the sweep ends, finished or not (the summary's ``status`` says which). The confirmation in plain
Chromium that follows calls :meth:`Progress.confirmed` after each reversal it checked.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, Protocol, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as RichBar

MODES = ("bar", "json", "quiet")


class Progress(Protocol):
    def start(self, planned: int) -> None: ...

    def advance(self, done: int, planned: int, counts: Mapping[str, int], latest: Mapping[str, Any] | None) -> None: ...

    def finish(self, summary: Mapping[str, Any]) -> None: ...

    def confirmed(self, reversal: int, confirmation: Mapping[str, Any]) -> None: ...


class Quiet:
    """Says nothing."""

    def start(self, planned: int) -> None:
        pass

    def advance(self, done: int, planned: int, counts: Mapping[str, int], latest: Mapping[str, Any] | None) -> None:
        pass

    def finish(self, summary: Mapping[str, Any]) -> None:
        pass

    def confirmed(self, reversal: int, confirmation: Mapping[str, Any]) -> None:
        pass


class JsonLines:
    """One JSON object per line: ``{"event": "start" | "sequence" | "finish", ...}``; a
    ``sequence`` line carries the judged reversal's ``id``, ``verdict``, ``reasons``,
    ``location``, ``locations``, ``differences``, ``failure``, ``unrealised`` and ``timing`` as
    ``summary.json`` has them."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stdout

    def _emit(self, record: dict[str, Any]) -> None:
        self._stream.write(json.dumps(record) + "\n")
        self._stream.flush()

    def start(self, planned: int) -> None:
        self._emit({"event": "start", "planned": planned})

    def advance(self, done: int, planned: int, counts: Mapping[str, int], latest: Mapping[str, Any] | None) -> None:
        record: dict[str, Any] = {"event": "sequence", "done": done, "planned": planned, "counts": dict(counts)}
        if latest is not None:
            record |= {"id": latest["id"], "verdict": latest["verdict"], "reasons": latest["reasons"],
                       "location": latest["location"], "locations": latest.get("locations") or [],
                       "differences": latest.get("differences") or {},
                       "failure": latest.get("failure"), "unrealised": latest.get("unrealised"),
                       "timing": latest.get("timing", "")}
        self._emit(record)

    def finish(self, summary: Mapping[str, Any]) -> None:
        self._emit({"event": "finish", "status": summary.get("status", "finished"),
                    "sequences": summary["sequences_explored"], "counts": summary["counts"],
                    "truncated": summary["truncated"], "seconds": summary["seconds"]})

    def confirmed(self, reversal: int, confirmation: Mapping[str, Any]) -> None:
        self._emit({"event": "confirmation", "id": reversal, "status": confirmation["status"],
                    "line": confirmation["line"], "matched": confirmation.get("matched") or {}})


class Bar:
    """A live rich progress bar on standard error: sequences done / planned, verdicts, ETA."""

    def __init__(self, console: Console | None = None) -> None:
        self._bar = RichBar(TextColumn("exploring"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[verdicts]}"), TimeElapsedColumn(), TextColumn("eta"),
                            TimeRemainingColumn(),
                            console=console or Console(stderr=True), transient=False)
        self._task = self._bar.add_task("explore", total=None, verdicts="")

    def start(self, planned: int) -> None:
        self._bar.start()
        self._bar.update(self._task, total=planned, completed=0)

    def advance(self, done: int, planned: int, counts: Mapping[str, int], latest: Mapping[str, Any] | None) -> None:
        verdicts = " ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
        self._bar.update(self._task, total=max(planned, done), completed=done, verdicts=verdicts)

    def finish(self, summary: Mapping[str, Any]) -> None:
        self._bar.stop()

    def confirmed(self, reversal: int, confirmation: Mapping[str, Any]) -> None:
        pass  # the closing lines count the confirmations


def progress_for(mode: str) -> Progress:
    """The reporter for ``--progress MODE`` (``bar``, ``json`` or ``quiet``)."""
    if mode == "bar":
        return Bar()
    if mode == "json":
        return JsonLines()
    if mode == "quiet":
        return Quiet()
    raise ValueError(f"unknown progress mode {mode!r}; choose one of {', '.join(MODES)}")
