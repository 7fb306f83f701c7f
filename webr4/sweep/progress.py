"""Telling the user how a check goes: a live bar, JSON lines for CI, or nothing.

Every stage says when it begins with :meth:`Progress.phase`, from the first second: recording,
replaying the seed, exploring, confirming in plain Chromium. The sweep then calls
:meth:`Progress.start` with the sequences it expects, :meth:`Progress.advance` after every judged
sequence with how many are done, how many it expects in all (done plus what the strategy still
has pending: an estimate, shown as one, that grows as R4 finds new races and shrinks as plans
turn out to be covered) and the verdict counts so far, and :meth:`Progress.finish` once when the
sweep ends, finished or not (the summary's ``status`` says which). The confirmation that follows
begins a phase with the number of reversals it will check and calls :meth:`Progress.confirmed`
after each; :meth:`Progress.stop` lets go of the terminal whenever a stage ends early. A sweep
that confirms while it goes (:mod:`webr4.sweep.early_witness`) calls :meth:`Progress.confirmed` between
its sequences too, and its confirming phase holds only the reversals left when it ends.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, Protocol, TextIO

from rich.console import Console
from rich.text import Text
from rich.progress import BarColumn, ProgressColumn, Task, TaskID, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichBar

from webr4.errors import Webr4Error

MODES = ("bar", "json", "quiet")


class UnknownProgress(Webr4Error, ValueError):
    """A progress mode that is none of :data:`MODES`."""


class Progress(Protocol):
    def phase(self, name: str, total: int | None = None) -> None: ...

    def start(self, planned: int) -> None: ...

    def advance(self, done: int, planned: int, counts: Mapping[str, int], latest: Mapping[str, Any] | None) -> None: ...

    def finish(self, summary: Mapping[str, Any]) -> None: ...

    def confirmed(self, reversal: int, confirmation: Mapping[str, Any]) -> None: ...

    def stop(self) -> None: ...


RECORDING = "recording"
SEED = "replaying the seed"
EXPLORING = "exploring"
CONFIRMING = "confirming in plain Chromium"
"""The phases of a check, in order, as :meth:`Progress.phase` names them."""


class Quiet:
    """Says nothing."""

    def phase(self, name: str, total: int | None = None) -> None:
        pass

    def start(self, planned: int) -> None:
        pass

    def advance(self, done: int, planned: int, counts: Mapping[str, int], latest: Mapping[str, Any] | None) -> None:
        pass

    def finish(self, summary: Mapping[str, Any]) -> None:
        pass

    def confirmed(self, reversal: int, confirmation: Mapping[str, Any]) -> None:
        pass

    def stop(self) -> None:
        pass


class JsonLines:
    """One JSON object per line: ``{"event": "phase" | "start" | "sequence" | "finish" |
    "confirmation", ...}``; a ``phase`` line names the stage that begins (and ``total``, the
    reversals a confirmation will check); a ``sequence`` line carries the judged reversal's
    ``id``, ``verdict``, ``reasons``, ``location``, ``locations``, ``differences``, ``failure``,
    ``unrealised`` and ``timing`` as ``summary.json`` has them. Every line also carries ``tags``
    (a campaign's: ``{"entry": NAME}``, which tells apart the lines of entries run side by side)."""

    def __init__(self, stream: TextIO | None = None, tags: Mapping[str, Any] | None = None) -> None:
        self._stream = stream or sys.stdout
        self._tags = dict(tags or {})

    def _emit(self, record: dict[str, Any]) -> None:
        self._stream.write(json.dumps(self._tags | record) + "\n")
        self._stream.flush()

    def phase(self, name: str, total: int | None = None) -> None:
        self._emit({"event": "phase", "phase": name} | ({} if total is None else {"total": total}))

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

    def stop(self) -> None:
        pass


class _Count(ProgressColumn):
    """Done of total, the total marked ``~`` while it is an estimate; nothing for a phase that
    counts nothing."""

    def render(self, task: Task) -> Text:
        if task.total is None or not task.fields.get("counted"):
            return Text("")
        mark = "~" if task.fields.get("estimate") else ""
        return Text(f"{int(task.completed)}/{mark}{int(task.total)}", style="progress.download")


class Bar:
    """A live rich progress bar on standard error, a line per phase: what is under way from the
    first second, then sequences done of planned with the verdicts so far, then confirmations."""

    def __init__(self, console: Console | None = None) -> None:
        self._bar = RichBar(TextColumn("{task.description}"), BarColumn(), _Count(),
                            TextColumn("{task.fields[verdicts]}"), TimeElapsedColumn(),
                            console=console or Console(stderr=True), transient=False)
        self._task: TaskID | None = None

    def phase(self, name: str, total: int | None = None) -> None:
        if self._task is not None:  # the stage before is over: its line stays as it ended
            task = self._bar.tasks[self._task]
            self._bar.update(self._task, total=task.total if task.total is not None else 1,
                             completed=task.completed if task.total is not None else 1)
        self._task = self._bar.add_task(name, total=total, verdicts="", estimate=False, counted=total is not None)
        self._bar.start()

    def start(self, planned: int) -> None:
        if self._task is None or self._bar.tasks[self._task].description != EXPLORING:
            self.phase(EXPLORING)
        assert self._task is not None
        self._bar.update(self._task, total=planned, completed=0, estimate=True, counted=True)

    def advance(self, done: int, planned: int, counts: Mapping[str, int], latest: Mapping[str, Any] | None) -> None:
        verdicts = " ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
        if self._task is not None:
            self._bar.update(self._task, total=max(planned, done), completed=done, verdicts=verdicts)

    def finish(self, summary: Mapping[str, Any]) -> None:
        if self._task is not None and summary.get("status", "finished") == "finished":
            done = self._bar.tasks[self._task].completed
            self._bar.update(self._task, total=done, estimate=False)  # what was planned is now known
        self.stop()

    def confirmed(self, reversal: int, confirmation: Mapping[str, Any]) -> None:
        if self._task is not None and self._bar.tasks[self._task].description == CONFIRMING:
            self._bar.advance(self._task)  # one confirmed while the sweep went on is no part of this count

    def stop(self) -> None:
        self._bar.stop()


def progress_for(mode: str) -> Progress:
    """The reporter for ``--progress MODE`` (``bar``, ``json`` or ``quiet``)."""
    if mode == "bar":
        return Bar()
    if mode == "json":
        return JsonLines()
    if mode == "quiet":
        return Quiet()
    raise UnknownProgress(f"unknown progress mode {mode!r}; choose one of {', '.join(MODES)}")
