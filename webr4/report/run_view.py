"""Reading a run directory (written by :func:`webr4.sweep.explore.explore`) into what the report shows."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from webr4.engine.describe import event_words
from webr4.libraries import app_first
from webr4.report.align import Row, align
from webr4.report.source import Excerpt, SourceStore, split_site
from webr4.report.thumbs import changed_region
from webr4.rundir.run import DIFF, SCREENSHOT, RunDir
from webr4.rundir.summary import ReversalReport, Summary
from webr4.rundir.runfiles import RunFiles
from webr4.trace import Trace

VERDICTS = ("harmful", "error", "heap-only", "unrealised", "harmless")


def _site_url(site: str) -> str:
    parsed = split_site(site)
    return parsed[0] if parsed else site


def verdict_rank(verdict: str) -> int:
    """Sort key: harmful first, unknown verdicts last."""
    return VERDICTS.index(verdict) if verdict in VERDICTS else len(VERDICTS)


@dataclass(frozen=True)
class GeneratedTest:
    """A regression test generated for a confirmed race: ``label`` (its runner), ``language`` (an
    id), the file's ``name`` and ``link`` (relative to the report) and its ``text``."""

    label: str
    language: str
    name: str
    link: str
    text: str


@dataclass(frozen=True)
class RaceAsTest:
    """What the report shows of a confirmed race as a test: the race in one sentence (``story``),
    the generated ``tests``, or why there is none (``no_test``)."""

    story: str | None = None
    tests: tuple[GeneratedTest, ...] = ()
    no_test: str | None = None


@dataclass(frozen=True)
class RacingEvent:
    """One of the two reversed events, with the source around its accesses to the racing location."""

    id: str
    label: str
    category: str
    excerpts: list[Excerpt]


class Run:
    """A run directory, loaded lazily: each trace is parsed once.

    Raises :class:`~webr4.rundir.summary.SummaryError` when the directory holds no readable summary.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.summary: Summary = RunDir(directory).read_summary()

    @cached_property
    def files(self) -> RunFiles:
        """The run's traces, states and per-sequence files."""
        return RunFiles(self.directory)

    @cached_property
    def sources(self) -> SourceStore:
        """The scripts and pages of the session the run explored, from its recorded network."""
        return SourceStore.from_har(RunDir(self.directory).session(self.summary.session).network)

    @property
    def reversals(self) -> list[ReversalReport]:
        """Every reversal, harmful first (those plain Chromium confirmed before the rest), then by index."""
        return sorted(self.summary.reversals,
                      key=lambda r: (verdict_rank(r.verdict), r.confirmation_status != "confirmed", r.index))

    def trace(self, index: int) -> Trace | None:
        """The trace of sequence ``index``; ``None`` when it was not written."""
        return self.files.trace(index)

    def link(self, path: Path) -> str:
        """``path`` as the report's pages link it: relative to the report directory."""
        return Path(os.path.relpath(path, RunDir(self.directory).report)).as_posix()

    def image(self, index: int, name: str) -> str | None:
        """Sequence ``index``'s image ``name`` (``state.png``, ``diff.png``) as the report's pages
        link it; ``None`` when the run has none."""
        path = self.files.file(index, name)
        return None if path is None else self.link(path)

    def changed_thumbs(self, reversal: ReversalReport) -> tuple[str | None, str | None]:
        """Thumbnails of the region where the reversal's end screenshot differs from its parent's
        (:mod:`webr4.report.thumbs`), written under the report's ``thumbs/`` and linked as the
        pages link them; the whole screenshots when they cannot be cropped, ``None`` for a missing one."""
        files = RunDir(self.directory)
        parent, child = self.files.file(reversal.parent, SCREENSHOT), self.files.file(reversal.index, SCREENSHOT)
        cropped = changed_region(parent, child, files.report / "thumbs", str(reversal.index)) \
            if parent is not None and child is not None else None
        if cropped is None:
            return self.image(reversal.parent, SCREENSHOT), self.image(reversal.index, SCREENSHOT)
        return self.link(cropped[0]), self.link(cropped[1])

    def plain_images(self, index: int) -> tuple[str | None, str | None]:
        """Reversal ``index``'s end screenshots in plain Chromium (parent order, reversed order), as
        the report's pages link them; ``None`` for each that was not taken."""
        files = RunDir(self.directory)
        witness = files.witness(index)

        def link(path: Path) -> str | None:
            return self.link(path) if path.is_file() else None

        return link(witness.plain_parent_screenshot), link(witness.plain_child_screenshot)

    def as_test(self, index: int) -> RaceAsTest:
        """Reversal ``index``'s race as a test, when plain Chromium confirmed it (else empty)."""
        witness = RunDir(self.directory).witness(index)

        def text(path: Path) -> str | None:
            return path.read_text(encoding="utf-8").strip() if path.is_file() else None

        tests = tuple(GeneratedTest(label, language, path.name, self.link(path), path.read_text(encoding="utf-8"))
                      for label, language in (("pytest", "python"), ("Playwright Test", "typescript"))
                      if (path := witness.regression_test(language)).is_file())
        return RaceAsTest(text(witness.story), tests, text(witness.no_test))

    def diff(self, index: int) -> dict[str, Any]:
        """The full difference of sequence ``index`` with its parent (``diff.json``); empty when missing."""
        path = self.files.file(index, f"{DIFF}.json")
        return json.loads(path.read_text(encoding="utf-8")) if path is not None else {}

    def racing_event(self, reversal: ReversalReport, which: str) -> RacingEvent:
        """``which`` is ``first`` or ``second``: the event, and its accesses to the racing location,
        those in the app's own scripts before those in a library's (:mod:`webr4.libraries`)."""
        event_id, label = getattr(reversal, f"{which}_id"), getattr(reversal, which)
        parent = self.trace(reversal.parent)
        event = parent.events.get(event_id) if parent else None
        accesses = [a for step in (parent.steps if parent else ()) if step.event == event_id
                    for a in step.accesses if a.site]
        reported = next((e.get("site") for e in reversal.events if e.get("id") == event_id), None)
        # its accesses to the racing location, else the access summary.json located the event by
        racing = [a for a in accesses if a.location == reversal.location_key] or \
            [a for a in accesses if a.site == reported]
        sites = app_first(dict.fromkeys((a.kind.value, a.site) for a in racing if a.site),
                          lambda kind_site: _site_url(kind_site[1]), self.summary.url)
        excerpts = [e for kind, site in sites if (e := self.sources.excerpt(kind, site)) is not None]
        return RacingEvent(event_id, event_words(event) if event else label, event.category.value if event else "other",
                           excerpts)

    def pair_kinds(self, reversal: ReversalReport) -> tuple[str, str]:
        """The kinds of the two racing events (``user click``, ``parse parse``, ``network xhr``),
        from the parent's trace; an event it does not know is its label."""
        parent = self.trace(reversal.parent)
        events = parent.events if parent else {}

        def kind(which: str) -> str:
            event = events.get(getattr(reversal, f"{which}_id"))
            return f"{event.category.value} {event.type}" if event else str(getattr(reversal, which))

        return kind("first"), kind("second")

    def alignment(self, reversal: ReversalReport) -> list[Row]:
        parent, child = self.trace(reversal.parent), self.trace(reversal.index)
        if parent is None or child is None:
            return []
        return align(parent, child, frozenset((reversal.first_id, reversal.second_id)))

    def departures(self, index: int) -> dict[str, list[str]]:
        """How sequence ``index`` departed from its plan, as labels of events: ``never`` (planned,
        never enabled), ``late`` (planned, not enabled at their turn, run when they appeared) and
        ``matched`` (planned, run under another id because another event created them)."""
        trace = self.trace(index)
        if trace is None:
            return {"never": [], "late": [], "matched": []}

        def label(event_id: str) -> str:
            event = trace.events.get(trace.matched.get(event_id, event_id))
            return event.label if event else event_id

        ran = set(trace.planned_sequence)
        return {"never": [label(e) for e in trace.skipped if e not in ran],
                "late": [label(e) for e in trace.skipped if e in ran],
                "matched": [label(e) for e in trace.matched]}
