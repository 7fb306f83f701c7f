"""A campaign directory, written by ``webr4 campaign``: ``campaign.json`` (:class:`Campaign`: the
campaign's entries and how far each got), ``sessions/<name>/`` (each entry's run directory, as
``webr4 check`` or ``webr4 explore`` writes one) and ``report/index.html`` (the overview).

Every path written into ``campaign.json`` is relative to the campaign directory, so that a
campaign moved or copied whole still reads.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from webr4.errors import Webr4Error
from webr4.rundir.run import RunDir
from webr4.rundir.summary import Summary

PENDING, RUNNING, FINISHED, INTERRUPTED, FAILED = "pending", "running", "finished", "interrupted", "failed"
"""An entry's status in ``campaign.json``; the campaign's own is ``running``, ``finished`` (every
entry finished), ``interrupted`` or ``failed`` (it ran to its end, and an entry failed)."""


class CampaignError(Webr4Error):
    """``campaign.json`` cannot be read (one line naming the file and why)."""


@dataclass
class CampaignEntry:
    """One entry of a campaign: its ``name`` (its run is ``sessions/<name>/``), its ``source``
    (the campaign file's line, or the file or directory it came from, as written there), its
    ``status``, and once its sweep has a summary: ``counts`` (reversals per verdict),
    ``confirmations`` (per status of plain Chromium), ``sequences``, ``stop_reason`` (why its
    sweep ended, once it has), ``seconds`` and ``report`` (its report's index page, relative to
    the campaign); ``error`` says why a failed entry failed."""

    name: str
    source: str
    status: str = PENDING
    counts: dict[str, int] = field(default_factory=dict)
    confirmations: dict[str, int] = field(default_factory=dict)
    sequences: int = 0
    stop_reason: str | None = None
    seconds: float = 0.0
    report: str | None = None
    error: str | None = None

    @property
    def run(self) -> str:
        """The entry's run directory, relative to the campaign."""
        return f"sessions/{self.name}"

    @property
    def harmful(self) -> int:
        return self.counts.get("harmful", 0)

    @property
    def confirmed(self) -> int:
        """Its harmful reversals plain Chromium confirmed with realistic timing (``--fail-on confirmed``)."""
        return self.confirmations.get("confirmed", 0)

    def took(self, summary: Summary, report: str | None) -> None:
        """Take what ``summary`` (the entry's sweep, finished or not) says, and its ``report`` page."""
        self.counts, self.confirmations = summary.counts, summary.confirmations
        self.sequences, self.stop_reason = summary.sequences, summary.stop_reason
        self.seconds, self.report = summary.seconds, report
        self.error = None

    def line(self) -> str:
        """The entry in one line: its harmful count, its verdicts and confirmations, or why it failed."""
        if self.status == FAILED:
            return f"{self.name}: failed: {self.error}"
        counts = ", ".join(f"{n} {verdict}" for verdict, n in sorted(self.counts.items())) or "no reversals"
        ended = f"; {self.stop_reason}" if self.stop_reason else ""
        line = f"{self.name}: {self.harmful} harmful ({self.sequences} sequences: {counts}{ended})"
        if self.confirmations:
            line += "; in plain Chromium: " + ", ".join(f"{n} {s}" for s, n in sorted(self.confirmations.items()))
        return line if self.status == FINISHED else f"{line} [{self.status}]"

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "run": self.run}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> CampaignEntry:
        return cls(**{f.name: raw[f.name] for f in fields(cls) if f.name in raw})


@dataclass
class Campaign:
    """``campaign.json``: the campaign's ``source`` (as given), its ``status`` and its ``entries``
    in the source's order."""

    source: str
    entries: list[CampaignEntry]
    status: str = RUNNING

    def entry(self, name: str) -> CampaignEntry:
        return next(entry for entry in self.entries if entry.name == name)

    @property
    def statuses(self) -> dict[str, int]:
        """Entries per status."""
        return dict(Counter(entry.status for entry in self.entries))

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "status": self.status, "statuses": self.statuses,
                "entries": [entry.to_json() for entry in self.entries]}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Campaign:
        return cls(source=str(raw["source"]), status=str(raw.get("status", RUNNING)),
                   entries=[CampaignEntry.from_json(entry) for entry in raw["entries"]])


@dataclass(frozen=True)
class CampaignDir:
    """The files of the campaign directory ``directory``."""

    directory: Path

    @property
    def manifest(self) -> Path:
        return self.directory / "campaign.json"

    @property
    def report(self) -> Path:
        return self.directory / "report"

    def report_page(self) -> Path:
        return self.report / "index.html"

    def run(self, entry: CampaignEntry) -> RunDir:
        """The entry's run directory."""
        return RunDir(self.directory / entry.run)

    def is_campaign(self) -> bool:
        return self.manifest.is_file()

    def read(self) -> Campaign:
        """The campaign; :class:`CampaignError` with a one-line reason when it cannot be read."""
        try:
            raw = json.loads(self.manifest.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CampaignError(f"{self.directory} holds no campaign.json: not a campaign directory") from None
        except OSError as error:
            raise CampaignError(f"cannot read {self.manifest}: {error.strerror}") from None
        except ValueError as error:
            raise CampaignError(f"{self.manifest} is not valid JSON ({error})") from None
        try:
            return Campaign.from_json(raw)
        except (TypeError, KeyError, AttributeError) as error:
            raise CampaignError(f"{self.manifest} is not a webr4 campaign ({error!r} is missing or wrong)") from None

    def write(self, campaign: Campaign) -> None:
        """Replace ``campaign.json`` at once: a reader never sees half of it."""
        self.directory.mkdir(parents=True, exist_ok=True)
        temporary = self.manifest.with_name(self.manifest.name + ".tmp")
        temporary.write_text(json.dumps(campaign.to_json(), indent=1), encoding="utf-8")
        temporary.replace(self.manifest)
