"""webr4 on real open-source apps: the TodoMVC apps of several frameworks, from the npm registry.

The corpus (``benchmarks/real_apps.json``) pins the npm packages, names each app's folder in
them (plus the library files an app expects in ``bower_components`` but the package lacks) and
gives the one scripted session every app runs: add two todos, complete one, show the completed
ones. On first use the packages are installed with npm into ``benchmarks/.cache/real_apps``
(gitignored) and each app is assembled there; without npm or the registry the benchmark says so
and measures nothing.

Per app, in one run, with one worker, apps one at a time:

* the plain Playwright session (fresh context, load, the same steps, close) in a Chromium
  launched as any Playwright script here launches it (:func:`benchmarks.plain.plain_browser`),
  median of :data:`PLAIN_REPEATS`: the baseline of every ratio; and, interleaved with it, the
  same session in webr4's own browser, whose switches also make a plain context cheaper (the
  ratio to it is shown too, so that what those switches save is not counted as webr4's gain);
* ``record`` with live network: its seconds and ratio to plain, or the one-line error when the
  recording failed, first with every script new to the rewrite cache (the ratio the target is
  checked on), then the same recording again with every rewrite cached;
* ``explore --max-sequences 6``: seconds per execution (the seed's three replays plus one per
  explored child) and its ratio to plain, the seed trace (the first seed replay's, which logs the page's
  accesses: its size as ``trace.json``, events and accesses), the run directory's size per
  explored sequence, and the verdicts.

``python -m benchmarks --only real_apps`` writes ``benchmarks/results/real_apps.{md,json}`` and,
when every app was recorded and explored, the table of ``docs/benchmarks/real-apps.md`` between its
markers.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser

from benchmarks.corpora import App, AppCorpus, ensure_apps, load_apps
from benchmarks.plain import PerExecution, plain_browser, plain_session
from benchmarks.section import Section
from webr4.browser.driver import Driver
from webr4.instrument.cache import CachedRewriter
from webr4.record.session import Session, record
from webr4.rundir.execution_files import trace_text
from webr4.serve import serve
from webr4.sweep.confirm import confirm_run
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.rundir.store import RunStore, execution_key

MAX_SEQUENCES = 6
PLAIN_REPEATS = 3
SWEEP_TIME_LIMIT_S = 1_200.0
"""A sweep stops after this long even before its six sequences (the table says so)."""
TARGETS = {
    "per_execution_ratio_median": 1.5,
    "per_execution_ratio_worst": 2.0,
    "seed_trace_mb": 5.0,
    "record_ratio": 3.0,
    "run_mb_per_sequence": 2.0,
}
"""The performance goals the figures are judged against."""


@dataclass
class AppResult(PerExecution):
    """What one app cost; the seed and sweep figures are None when that stage did not run."""

    app: str
    framework: str
    plain_s: float
    same_launch_plain_s: float | None = None  # the plain session in webr4's browser, with its switches
    record_s: float | None = None
    cached_record_s: float | None = None  # the same recording again, every rewrite cached
    seed_trace_bytes: int | None = None
    events: int | None = None
    accesses: int | None = None
    sweep_s: float | None = None
    sequences: int | None = None  # explored, the seed included (summary.json's sequences_explored)
    stop_reason: str | None = None
    run_dir_bytes: int | None = None
    verdicts: dict[str, int] = field(default_factory=dict)
    reversals: list[dict[str, Any]] = field(default_factory=list)  # verdict, reasons and location of each
    confirm_s: float | None = None  # confirming the harmful reversals in plain Chromium after the sweep
    confirmations: dict[str, int] = field(default_factory=dict)  # harmful reversals per plain-Chromium status
    unconfirmed: list[str] = field(default_factory=list)  # the pair and line of each harmful one not confirmed
    error: str | None = None

    @property
    def recorded(self) -> bool:
        return self.record_s is not None

    @property
    def same_launch_ratio(self) -> float | None:
        if self.per_execution_s is None or self.same_launch_plain_s is None:
            return None
        return self.per_execution_s / self.same_launch_plain_s

    @property
    def record_ratio(self) -> float | None:
        return None if self.record_s is None else self.record_s / self.plain_s

    @property
    def cached_record_ratio(self) -> float | None:
        return None if self.cached_record_s is None else self.cached_record_s / self.plain_s

    @property
    def seed_trace_mb(self) -> float | None:
        return None if self.seed_trace_bytes is None else self.seed_trace_bytes / 1e6

    @property
    def run_mb_per_sequence(self) -> float | None:
        if self.run_dir_bytes is None or not self.sequences:
            return None
        return self.run_dir_bytes / 1e6 / self.sequences

    def to_json(self) -> dict[str, Any]:
        derived = ("recorded", "executions", "per_execution_s", "ratio", "same_launch_ratio", "record_ratio",
                   "cached_record_ratio",
                   "seed_trace_mb", "run_mb_per_sequence")
        return asdict(self) | {name: getattr(self, name) for name in derived}


def directory_bytes(directory: Path) -> int:
    """Bytes of the files under ``directory``, a file hard-linked several times counted once."""
    sizes: dict[tuple[int, int], int] = {}
    for path in directory.rglob("*"):
        if path.is_file():
            status = path.stat()
            sizes[status.st_dev, status.st_ino] = status.st_size
    return sum(sizes.values())


def _one_line(error: BaseException) -> str:
    text = str(error).strip()
    return (text.splitlines()[0] if text else type(error).__name__)[:300]


async def measure_app(driver: Driver, plain_chromium: Browser, app: App, url: str, corpus: AppCorpus,
                      scratch: Path) -> AppResult:
    """Plain sessions, recording and sweep of one app (each failure ends that app's row with its
    error line; the next app still runs)."""
    steps = corpus.steps
    plain: list[float] = []
    same_launch: list[float] = []
    try:
        for _ in range(PLAIN_REPEATS):
            plain.append(await plain_session(plain_chromium, url, steps))
            same_launch.append(await plain_session(driver.browser, url, steps))
    except Exception as error:  # noqa: BLE001 - the app does not run even without webr4
        return AppResult(app.name, app.framework, float("nan"), error=f"plain session: {_one_line(error)}")
    result = AppResult(app.name, app.framework, statistics.median(plain), statistics.median(same_launch))
    started = time.perf_counter()
    try:
        session = await record(driver, url, scratch / app.name / "session", corpus.session)
    except Exception as error:  # noqa: BLE001 - any failure is this app's figure, not the benchmark's end
        result.error = f"record: {_one_line(error)}"
        return result
    result.record_s = time.perf_counter() - started
    started = time.perf_counter()
    with contextlib.suppress(Exception):  # only a figure; the first recording stands
        await record(driver, url, scratch / app.name / "session-again", corpus.session)
        result.cached_record_s = time.perf_counter() - started
    run_dir = scratch / app.name / "run"
    started = time.perf_counter()
    try:
        summary = await explore(driver, session, run_dir,
                                SweepSettings(max_sequences=MAX_SEQUENCES, time_limit=SWEEP_TIME_LIMIT_S))
    except Exception as error:  # noqa: BLE001 - as for the recording
        result.error = f"explore: {_one_line(error)}"
        return result
    result.sweep_s = time.perf_counter() - started
    _measure_seed(result, run_dir, session)
    result.sequences = summary.sequences
    result.stop_reason = summary.stop_reason
    result.verdicts = summary.counts
    result.reversals = [{"verdict": r.verdict, "reasons": r.reasons, "location": r.location}
                        for r in summary.reversals]
    result.run_dir_bytes = directory_bytes(run_dir)
    started = time.perf_counter()
    try:
        summary = await confirm_run(driver.browser, session, run_dir, "harmful")
    except Exception as error:  # noqa: BLE001 - the sweep's figures stand; the confirmation's failure is said
        result.unconfirmed = [f"confirmation failed: {_one_line(error)}"]
        return result
    result.confirm_s = time.perf_counter() - started
    result.confirmations = dict(Counter(r.confirmation_status or "unchecked" for r in summary.harmful()))
    result.unconfirmed = [f"{r.second} before {r.first}: {(r.confirmation or {}).get('line', 'unchecked')}"
                          for r in summary.harmful() if r.confirmation_status != "confirmed"]
    return result


def _measure_seed(result: AppResult, run_dir: Path, session: Session) -> None:
    """The seed trace's size, events and accesses: the sweep's first seed replay, which logs the
    page's accesses (the recording does not), in the JSON of a ``trace.json``."""
    store = RunStore.open(run_dir)
    try:
        seed = store.trace(execution_key(session.seed_trace().sequence, copy=1))
    finally:
        store.close()
    if seed is not None:
        result.seed_trace_bytes = len(trace_text(seed).encode())
        result.events = len(seed.steps)
        result.accesses = sum(len(step.accesses) for step in seed.steps)


async def measure(corpus: AppCorpus, apps_dir: Path) -> list[AppResult]:
    results = []
    with serve(apps_dir) as base, tempfile.TemporaryDirectory(prefix="webr4-real-apps-") as scratch:
        driver = Driver(CachedRewriter(directory=Path(scratch) / "cache"))  # a recording rewrites every script
        async with driver, plain_browser() as plain_chromium:
            for app in corpus.apps:
                print(f"real_apps: {app.name} ...", file=sys.stderr, flush=True)
                result = await measure_app(driver, plain_chromium, app, f"{base}{app.name}/", corpus, Path(scratch))
                results.append(result)
                print(f"real_apps: {app.name}: {_row(result)}", file=sys.stderr, flush=True)
                shutil.rmtree(Path(scratch) / app.name, ignore_errors=True)
    return results


def _figure(value: float | int | None, spec: str) -> str:
    return "–" if value is None else format(value, spec)


def _verdicts(result: AppResult) -> str:
    if result.error:
        return f"**failed** ({result.error})"
    counts = result.verdicts
    text = " / ".join(str(counts.get(kind, 0)) for kind in ("harmful", "harmless", "heap-only", "error"))
    return text if result.stop_reason in (None, "exhausted", "max-sequences") else f"{text} ({result.stop_reason})"


def _row(r: AppResult) -> str:
    return (f"| {r.app} ({r.framework}) | {_figure(r.per_execution_s, '.2f')} | {r.plain_s:.2f} | "
            f"{_figure(r.ratio, '.1f')} | {_figure(r.same_launch_ratio, '.1f')} | {_figure(r.record_ratio, '.1f')} | "
            f"{_figure(r.cached_record_ratio, '.1f')} | "
            f"{_figure(r.seed_trace_mb, '.1f')} | "
            f"{_figure(r.events, 'd')} | {_figure(r.accesses, ',d')} | {_figure(r.run_mb_per_sequence, '.2f')} | "
            f"{_figure(r.sequences, 'd')} | {_verdicts(r)} |")


def table(results: list[AppResult]) -> str:
    lines = ["| app | s per execution | plain session (s) | ratio | ratio to plain in webr4's browser | record ratio | "
             "record ratio, rewrites cached | seed trace MB | events | accesses | run dir MB per sequence | "
             "sequences | harmful / harmless / heap-only / error |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    lines += [_row(r) for r in results]
    ratios = [r.ratio for r in results if r.ratio is not None]
    same_launch = [r.same_launch_ratio for r in results if r.same_launch_ratio is not None]
    if ratios:
        lines.append(f"| **median** | | | {statistics.median(ratios):.1f} | "
                     f"{_figure(statistics.median(same_launch) if same_launch else None, '.1f')} | | | | | | | | |")
        lines.append(f"| **worst** | | | {max(ratios):.1f} | "
                     f"{_figure(max(same_launch) if same_launch else None, '.1f')} | | | | | | | | |")
    return "\n".join(lines) + "\n\n" + confirmations(results) + "\n\n" + targets(results)


def confirmations(results: list[AppResult]) -> str:
    """The harmful verdicts of each app as plain Chromium judged them after the sweep, what that
    cost against the sweep, and the line of each verdict it did not confirm."""
    lines = ["| app | harmful | confirmed | not reproduced | not forceable | other | confirmation / sweep |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        if r.sweep_s is None:
            continue
        counts = dict(r.confirmations)
        known = [counts.pop(status, 0) for status in ("confirmed", "not-reproduced", "not-forceable")]
        ratio = None if r.confirm_s is None or not r.sweep_s else r.confirm_s / r.sweep_s
        lines.append(f"| {r.app} | {r.verdicts.get('harmful', 0)} | {' | '.join(map(str, known))} | "
                     f"{sum(counts.values())} | {_figure(ratio, '.2f')} |")
    notes = [f"- {r.app}: {line}" for r in results for line in r.unconfirmed]
    return "\n".join(lines + (["", "Harmful and not confirmed:", *notes] if notes else []))


def targets(results: list[AppResult]) -> str:
    """The goals next to the figures, each met or not."""
    ratios = [r.ratio for r in results if r.ratio is not None]

    def worst(values: Sequence[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return max(known) if known else None

    rows = [
        ("per execution / plain, median app", TARGETS["per_execution_ratio_median"],
         statistics.median(ratios) if ratios else None, "×"),
        ("per execution / plain, worst app", TARGETS["per_execution_ratio_worst"], worst(ratios), "×"),
        ("record / plain, every app", TARGETS["record_ratio"], worst([r.record_ratio for r in results]), "×"),
        ("seed trace, every app", TARGETS["seed_trace_mb"], worst([r.seed_trace_mb for r in results]), " MB"),
        ("run dir per explored sequence, every app", TARGETS["run_mb_per_sequence"],
         worst([r.run_mb_per_sequence for r in results]), " MB"),
    ]
    failed = [r.app for r in results if r.error]
    lines = ["| target | goal | measured (worst unless median) | met |", "|---|---:|---:|---|"]
    for name, goal, value, unit in rows:
        met = "–" if value is None else ("yes" if value <= goal and not failed else "no")
        lines.append(f"| {name} | ≤ {goal:g}{unit} | {_figure(value, '.1f')}{unit if value is not None else ''} "
                     f"| {met} |")
    if failed:
        lines.append(f"\nNot recorded or not explored: {', '.join(failed)} (no target is met while an app fails).")
    else:
        lines.append(f"\nAll {len(results)} apps were recorded and explored to a summary.")
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    """The benchmark section; ``sites`` (the bundled sites) are not used: the corpus is its own.
    The documentation's table is replaced only when every app was recorded and explored."""
    corpus = load_apps()
    apps_dir = ensure_apps(corpus)
    title = f"Real apps: TodoMVC sessions, explore --max-sequences {MAX_SEQUENCES}, one worker"
    if apps_dir is None:
        return Section(title, "Not measured: the npm packages of the corpus could not be installed.", [])
    results = asyncio.run(measure(corpus, apps_dir))
    markdown = table(results)
    return Section(title, markdown, {"targets": TARGETS, "apps": [r.to_json() for r in results]},
                   docs=markdown if all(r.error is None for r in results) else None)
