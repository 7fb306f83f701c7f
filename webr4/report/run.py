"""Reading a run directory (written by :func:`webr4.sweep.explore.explore`) into what the report shows."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from webr4.report.align import Row, align
from webr4.report.ci import load_summary
from webr4.libraries import app_first
from webr4.report.source import Excerpt, SourceStore, split_site
from webr4.sweep.runfiles import RunFiles
from webr4.record.session import session_of_run
from webr4.trace import Trace

VERDICTS = ("harmful", "error", "heap-only", "unrealised", "harmless")


def _site_url(site: str) -> str:
    parsed = split_site(site)
    return parsed[0] if parsed else site


def verdict_rank(verdict: str) -> int:
    """Sort key: harmful first, unknown verdicts last."""
    return VERDICTS.index(verdict) if verdict in VERDICTS else len(VERDICTS)


@dataclass(frozen=True)
class RacingEvent:
    """One of the two reversed events, with the source around its accesses to the racing location."""

    id: str
    label: str
    category: str
    excerpts: list[Excerpt]


class Run:
    """A run directory, loaded lazily: each trace is parsed once.

    Raises :class:`~webr4.report.ci.SummaryError` when the directory holds no readable summary.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.summary: dict[str, Any] = load_summary(directory)

    @cached_property
    def files(self) -> RunFiles:
        """The run's traces, states and per-sequence files."""
        return RunFiles(self.directory)

    @cached_property
    def session_directory(self) -> Path:
        """The session the run explored (``summary.json``'s ``session``, relative to the run)."""
        return session_of_run(self.directory, self.summary.get("session"))

    @cached_property
    def sources(self) -> SourceStore:
        return SourceStore.from_har(self.session_directory / "network.har")

    @property
    def reversals(self) -> list[dict[str, Any]]:
        """Every reversal, harmful first, then by index."""
        return sorted(self.summary.get("reversals", []), key=lambda r: (verdict_rank(r["verdict"]), r["index"]))

    def trace(self, index: int) -> Trace | None:
        """The trace of sequence ``index``; ``None`` when it was not written."""
        return self.files.trace(index)

    def has_file(self, index: int, name: str) -> bool:
        return self.files.file(index, name) is not None

    def diff(self, index: int) -> dict[str, Any]:
        """``sequences/<index>/diff.json``; empty when missing."""
        path = self.files.file(index, "diff.json")
        return json.loads(path.read_text(encoding="utf-8")) if path is not None else {}

    def racing_event(self, reversal: dict[str, Any], which: str) -> RacingEvent:
        """``which`` is ``first`` or ``second``: the event, and its accesses to the racing location,
        those in the app's own scripts before those in a library's (:mod:`webr4.libraries`)."""
        event_id, label = reversal[f"{which}_id"], reversal[which]
        parent = self.trace(reversal["parent"])
        event = parent.events.get(event_id) if parent else None
        accesses = [a for step in (parent.steps if parent else ()) if step.event == event_id
                    for a in step.accesses if a.site]
        reported = next((e.get("site") for e in reversal.get("events") or () if e.get("id") == event_id), None)
        # its accesses to the racing location, else the access summary.json located the event by
        racing = [a for a in accesses if a.location == reversal["location_key"]] or \
            [a for a in accesses if a.site == reported]
        sites = app_first(dict.fromkeys((a.kind.value, a.site) for a in racing if a.site),
                          lambda kind_site: _site_url(kind_site[1]), str(self.summary.get("url") or ""))
        excerpts = [e for kind, site in sites if (e := self.sources.excerpt(kind, site)) is not None]
        return RacingEvent(event_id, label, event.category.value if event else "other", excerpts)

    def pair_kinds(self, reversal: Mapping[str, Any]) -> tuple[str, str]:
        """The kinds of the two racing events (``user click``, ``parse parse``, ``network xhr``),
        from the parent's trace; an event it does not know is its label."""
        parent = self.trace(reversal["parent"])
        events = parent.events if parent else {}

        def kind(which: str) -> str:
            event = events.get(reversal[f"{which}_id"])
            return f"{event.category.value} {event.type}" if event else str(reversal[which])

        return kind("first"), kind("second")

    def alignment(self, reversal: dict[str, Any]) -> list[Row]:
        parent, child = self.trace(reversal["parent"]), self.trace(reversal["index"])
        if parent is None or child is None:
            return []
        return align(parent, child, frozenset((reversal["first_id"], reversal["second_id"])))

    def skipped(self, index: int) -> list[str]:
        """Labels of the planned events sequence ``index`` could not run."""
        trace = self.trace(index)
        if trace is None:
            return []
        return [trace.events[e].label if e in trace.events else e for e in trace.skipped]
