"""The real-app corpus as one ``webr4 campaign``, on a local Dask cluster of one worker and of two.

Every TodoMVC app of ``benchmarks/real_apps.json`` is an entry of one campaign file, with the
corpus session as its steps, explored at bound 1 with the ``--max-sequences`` of the
``real_apps`` section and no confirmation in plain Chromium (it runs in the campaign's own
process, not on the cluster, and would blur what the cluster changes). The campaign runs twice,
as the command a user types: ``--cluster local:1`` (the entries one after another) and
``--cluster local:2`` (two entries side by side, each sweep's executions spread over both
workers), each with an empty rewrite cache, so that neither reuses the other's rewritten scripts.

Reported: both wall times and the speed-up; per app, when its entry started and ended in each
run (read from the ``--progress json`` lines as they arrive), how long its recording took, and
its verdict counts in both runs, which should agree (a sweep explores the same whatever its
workers); then a paragraph, written from those figures, on what limits the speed-up and what a
bigger cluster would change.

``python -m benchmarks --only campaign`` writes ``benchmarks/results/campaign.{md,json}``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.corpora import AppCorpus, ensure_apps, load_apps
from benchmarks.real_apps import MAX_SEQUENCES
from benchmarks.section import Section
from webr4.serve import serve

CLUSTERS = ("local:1", "local:2")
HANG_GUARD_S = 3_600.0
"""A campaign still running after this long is interrupted, and its row says so."""
_VERDICTS = ("harmful", "harmless", "heap-only", "unrealised", "error")


@dataclass
class EntryResult:
    """One entry of one run: its verdicts as ``campaign.json`` holds them, and its times in
    seconds since the command started (None for what its progress lines never said)."""

    name: str
    status: str
    counts: dict[str, int]
    sequences: int
    stop_reason: str | None
    sweep_s: float
    started_s: float | None = None
    recorded_s: float | None = None  # when its recording ended and its seed replays began
    finished_s: float | None = None  # when its sweep ended
    error: str | None = None
    seed_races: int | None = None  # the races of its recording (summary.json's races_uncovered)

    @property
    def recording_s(self) -> float | None:
        return None if self.started_s is None or self.recorded_s is None else self.recorded_s - self.started_s

    @property
    def span_s(self) -> float | None:
        return None if self.started_s is None or self.finished_s is None else self.finished_s - self.started_s


@dataclass
class CampaignRun:
    """One run of the campaign on ``cluster``: its wall time, exit status, when its first progress
    line came (the cluster started, the first recording begun) and its entries in source order."""

    cluster: str
    wall_s: float
    exit_status: int
    first_line_s: float | None
    entries: list[EntryResult] = field(default_factory=list)
    error: str | None = None
    load: float | None = None  # the machine's one-minute load average as the run began (it is shared)

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"entries": [asdict(e) | {"recording_s": e.recording_s, "span_s": e.span_s}
                                           for e in self.entries]}


def write_source(corpus: AppCorpus, base: str, directory: Path) -> Path:
    """The campaign file: one line per app, its URL and an actions file of its name (which names
    the entry) holding the corpus session."""
    directory.mkdir(parents=True, exist_ok=True)
    for app in corpus.apps:
        (directory / f"{app.name}.json").write_text(json.dumps(corpus.session))
    listed = directory / "campaign.txt"
    listed.write_text("".join(f"{base}{app.name}/ {app.name}.json\n" for app in corpus.apps))
    return listed


def run_once(listed: Path, out: Path, cluster: str, cache: Path) -> CampaignRun:
    """``webr4 campaign`` of ``listed`` into ``out`` on ``cluster``, timed; its progress lines
    are stamped as they arrive, its stderr kept beside ``out``."""
    command = [sys.executable, "-m", "webr4", "campaign", str(listed), "--out", str(out), "--cluster", cluster,
               "--bound", "1", "--max-sequences", str(MAX_SEQUENCES), "--confirm", "none", "--progress", "json"]
    stamps: dict[str, dict[str, float]] = {}
    first: float | None = None
    stderr_path = out.with_suffix(".stderr")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    started = time.monotonic()
    with open(stderr_path, "w") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True,
                                   env={**os.environ, "WEBR4_CACHE_DIR": str(cache)})
    guard = threading.Timer(HANG_GUARD_S, process.terminate)  # an interrupt: the campaign closes its cluster
    guard.start()
    try:
        for line in process.stdout or ():
            now = time.monotonic() - started
            first = now if first is None else first
            _stamp(stamps, json.loads(line), now)
        status = process.wait()
    finally:
        guard.cancel()
    wall = time.monotonic() - started
    lines = stderr_path.read_text().strip().splitlines()
    error = None if status in (0, 1) else (lines[-1] if lines else f"exit status {status}")
    return CampaignRun(cluster, wall, status, first, _entries(out, stamps), error, load)


def _stamp(stamps: dict[str, dict[str, float]], record: dict[str, Any], now: float) -> None:
    """Note when an entry's first line came, when its seed replays began and when its sweep ended."""
    times = stamps.setdefault(record["entry"], {"started": now})
    if record["event"] == "phase" and record.get("phase") == "replaying the seed":
        times["recorded"] = now
    elif record["event"] == "finish":
        times["finished"] = now


def _entries(out: Path, stamps: dict[str, dict[str, float]]) -> list[EntryResult]:
    try:
        stored = json.loads((out / "campaign.json").read_text())["entries"]
    except (OSError, ValueError, KeyError):
        return []
    entries = []
    for raw in stored:
        times = stamps.get(raw["name"], {})
        entries.append(EntryResult(raw["name"], raw["status"], raw.get("counts", {}), raw.get("sequences", 0),
                                   raw.get("stop_reason"), raw.get("seconds", 0.0), times.get("started"),
                                   times.get("recorded"), times.get("finished"), raw.get("error"),
                                   _seed_races(out / raw["run"])))
    return entries


def _seed_races(run: Path) -> int | None:
    try:
        races: int = json.loads((run / "summary.json").read_text())["races_uncovered"]
    except (OSError, ValueError, KeyError):
        return None
    return races


def _figure(value: float | None, spec: str = ".1f") -> str:
    return "–" if value is None else format(value, spec)


def _counts(entry: EntryResult | None) -> str:
    if entry is None:
        return "–"
    text = f"{entry.sequences}: " + " / ".join(str(entry.counts.get(verdict, 0)) for verdict in _VERDICTS)
    return text if entry.status == "finished" else f"{text} ({entry.status}{': ' + entry.error if entry.error else ''})"


def differing(one: CampaignRun, two: CampaignRun) -> list[str]:
    """The entries whose status or verdict counts differ between the runs (missing from one counts)."""
    first = {e.name: (e.status, e.counts) for e in one.entries}
    second = {e.name: (e.status, e.counts) for e in two.entries}
    return sorted(name for name in first.keys() | second.keys() if first.get(name) != second.get(name))


def table(one: CampaignRun, two: CampaignRun) -> str:
    """The runs' wall times and the speed-up, then a row per app with both runs' times and verdicts."""
    lines = ["| cluster | wall (s) | first progress line (s) | exit status | speed-up | load average at start |",
             "|---|---:|---:|---:|---:|---:|"]
    for run in (one, two):
        status = f"{run.exit_status}{f' ({run.error})' if run.error else ''}"
        lines.append(f"| `{run.cluster}` | {run.wall_s:.1f} | {_figure(run.first_line_s)} | {status} | "
                     f"{one.wall_s / run.wall_s:.2f}× | {_figure(run.load)} |")
    lines += ["", f"| app | recording (s), `{one.cluster}` / `{two.cluster}` | `{one.cluster}`: start – end (s) | "
              f"`{two.cluster}`: start – end (s) | `{one.cluster}`: sequences: {' / '.join(_VERDICTS)} | "
              f"`{two.cluster}`: the same |",
              "|---|---:|---:|---:|---|---|"]
    second = {e.name: e for e in two.entries}
    for entry in one.entries:
        other = second.get(entry.name)
        recordings = f"{_figure(entry.recording_s)} / {_figure(other.recording_s if other else None)}"
        lines.append(f"| {entry.name} | {recordings} | {_span(entry)} | "
                     f"{_span(other)} | {_counts(entry)} | {_counts(other)} |")
    lines += ["", agreement(one, two)]
    return "\n".join(lines)


def agreement(one: CampaignRun, two: CampaignRun) -> str:
    """Whether the runs' verdicts agree, and for each entry where they do not, whether its two
    recordings found as many races (each run records its entries anew, under its own load)."""
    apart = differing(one, two)
    if not apart:
        return f"The verdict counts of the two runs agree for all {len(one.entries)} apps."
    first, second = ({e.name: e for e in run.entries} for run in (one, two))
    notes = []
    for name in apart:
        a, b = first.get(name), second.get(name)
        races = (a.seed_races, b.seed_races) if a is not None and b is not None else (None, None)
        notes.append(f"{name} (races in its recordings: {_figure(races[0], 'd')} and {_figure(races[1], 'd')})"
                     if races[0] != races[1] else f"{name} (with as many races in both recordings)")
    return (f"The verdict counts agree for {len(one.entries) - len(apart)} of {len(one.entries)} apps and differ "
            f"for {', '.join(notes)}. Each run records its entries anew; a recording that found other races "
            "explores another seed, and with --max-sequences another set of sequences.")


def _span(entry: EntryResult | None) -> str:
    if entry is None or entry.started_s is None:
        return "–"
    return f"{entry.started_s:.0f} – {_figure(entry.finished_s, '.0f')}"


def swept(run: CampaignRun) -> float:
    """The seconds of the entries' sweeps, summed (entries side by side overlap)."""
    return sum(entry.sweep_s for entry in run.entries)


def recorded(run: CampaignRun) -> float:
    """The seconds of the entries' recordings, summed."""
    return sum(entry.recording_s or 0.0 for entry in run.entries)


def limits(one: CampaignRun, two: CampaignRun, cores: int) -> str:
    """What limits the speed-up of ``two`` over ``one`` on ``cores`` cores, and what a bigger
    cluster would change, in words built from the runs' figures."""
    spans = [e for e in two.entries if e.span_s is not None]
    ends = sorted(e.finished_s for e in two.entries if e.finished_s is not None)
    if not spans or len(ends) < 2 or not one.entries:
        return "The runs did not get far enough to say what limits the speed-up."
    longest = max(spans, key=lambda e: e.span_s or 0.0)
    sharing = (f"so each execution takes longer than on one worker: the entries' sweeps took {swept(one):.0f} s "
               f"in all with one worker and {swept(two):.0f} s with two, each beside another entry's"
               if swept(two) > swept(one) else
               f"yet the entries' sweeps took {swept(two):.0f} s in all with two, no more than the "
               f"{swept(one):.0f} s with one")
    return (
        f"Two workers made the campaign {one.wall_s / two.wall_s:.2f}× as fast ({one.wall_s:.0f} s → "
        f"{two.wall_s:.0f} s) on {cores} cores. Their two Chromiums share those cores with the campaign's own, "
        f"which records, {sharing}; and the machine was shared, its load average {_figure(one.load)} and "
        f"{_figure(two.load)} as the runs began. Each entry records once before its sweep, in the campaign's "
        f"process and not on the cluster: {recorded(one):.0f} s of the one-worker run "
        f"({recorded(one) / one.wall_s:.0%}) went to recordings, and {recorded(two):.0f} s with two, where two "
        f"recordings at a time share the cores with the sweeps. The longest entry, {longest.name}, took "
        f"{longest.span_s:.0f} s from its first line to its end with two workers; after the second-to-last "
        f"entry finished, the last one ran alone for {two.wall_s - ends[-2]:.0f} s, with only its own "
        f"executions for two workers. The cluster took {_figure(one.first_line_s, '.0f')} s and "
        f"{_figure(two.first_line_s, '.0f')} s to start before the first recording, and each worker starts a "
        f"Chromium of its own on its first execution. On a cluster with at least as many workers as entries "
        f"({len(one.entries)} here), every entry starts at once and the longest entry's recording and sweep "
        f"bound the wall time ({longest.name}'s {longest.span_s:.0f} s here, at two workers); the spare workers "
        f"then run the executions of one sweep side by side too (its three seed replays, the sequences its "
        f"planner expects next), which shortens that entry itself, down to its recording and the executions "
        f"that must wait for one another.")


def run(sites: list[Path]) -> Section:
    """The benchmark section; ``sites`` (the bundled sites) are not used: the corpus is its own."""
    corpus = load_apps()
    title = (f"Campaign: the {len(corpus.apps)} real apps as one campaign (bound 1, --max-sequences "
             f"{MAX_SEQUENCES}, --confirm none) on {' and '.join(CLUSTERS)}")
    apps_dir = ensure_apps(corpus)
    if apps_dir is None:
        return Section(title, "Not measured: the npm packages of the corpus could not be installed.", [])
    try:
        import distributed  # noqa: F401 - only whether the cluster extra is there
    except ImportError:
        return Section(title, "Not measured: Dask is not installed (pip install 'webr4[cluster]').", [])
    runs = []
    with serve(apps_dir) as base, tempfile.TemporaryDirectory(prefix="webr4-campaign-bench-") as scratch:
        listed = write_source(corpus, base, Path(scratch) / "flows")
        for number, cluster in enumerate(CLUSTERS):
            print(f"campaign: --cluster {cluster} ...", file=sys.stderr, flush=True)
            runs.append(run_once(listed, Path(scratch) / f"run-{number}", cluster, Path(scratch) / f"cache-{number}"))
            print(f"campaign: --cluster {cluster}: {runs[-1].wall_s:.1f} s, exit status {runs[-1].exit_status}",
                  file=sys.stderr, flush=True)
    one, two = runs
    cores = os.cpu_count() or 1
    markdown = f"{table(one, two)}\n\n{limits(one, two, cores)}"
    return Section(title, markdown, {"max_sequences": MAX_SEQUENCES, "cores": cores, "speedup": one.wall_s / two.wall_s,
                                     "differing": differing(one, two), "runs": [r.to_json() for r in runs]})
