"""webr4 on TodoMVC apps whose modules a loader fetches (RequireJS, curl, Dojo's AMD loader).

A loader's modules arrive in any order, and which module arrives last decides which event creates
the timers and requests that start the app. A reversal of two modules therefore changes the
creators, and so the exact identities, of the events after it. This benchmark measures how
approximate replay copes, per app of the ``todomvc`` package (the real-app corpus's pinned
version, installed by :func:`benchmarks.corpora.ensure_apps`), served as the package ships it:

* the session: the corpus's (add two todos, complete one, show the completed ones); an app whose
  markup lacks a step's target (an older app without filters) gets the longest part of it that it
  can do, at least the two todos, and the table says how many steps;
* the verdicts of a bound-1 sweep (at most :data:`MAX_SEQUENCES` sequences, :data:`TIME_LIMIT_S`),
  and what plain Chromium makes of each harmful one (:mod:`webr4.sweep.confirm`: confirmed,
  not reproduced, not forceable), with the line of each that is not confirmed;
* over every explored reversal, what became of the planned events after the reversal: run under
  their own id, run under another id with the same creator-free identity (their creator changed),
  or skipped (they never appeared); and how many events ran that the plan did not name.

``python -m benchmarks --only loader_apps`` writes ``benchmarks/results/loader_apps.{md,json}``.
For the cost of a whole bound-1 check, ``WEBR4_LOADER_UNCAPPED=1`` lifts the sequence cap
(``WEBR4_LOADER_TIME_LIMIT`` seconds still stop a sweep when set), ``WEBR4_LOADER_EXHAUSTIVE=1``
explores every reversal of a group (the sweep's ``exhaustive`` setting) and ``WEBR4_LOADER_APPS``
(comma-separated) picks the apps, ``WEBR4_LOADER_KEEP=DIR`` keeps each app's run in ``DIR/APP``
(for :mod:`benchmarks.profiling.window_writes`); each row then also gives the sweep's own seconds, its sequences
and the reversals its groups' representatives stood for, and a second table what the whole of
bound 1 cost, beside a sweep running every reversal (as many sequences as those run and
represented, at this run's seconds per sequence).
It reads ``Trace.matched`` where the revision has it, so the same file measures an older tree
(``PYTHONPATH=OLD_TREE python -m benchmarks.loader_apps``, after copying it there) for a before
and after.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.corpora import TODOMVC, ensure_apps, load_apps
from benchmarks.section import Section
from webr4.browser.driver import Driver
from webr4.record.session import SessionError, record
from webr4.serve import serve
from webr4.sweep.confirm import confirm_run
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.rundir.runfiles import RunFiles

APPS = ("backbone_require", "knockoutjs_require", "canjs_require", "angularjs_require", "stapes_require",
        "somajs_require", "troopjs_require", "lavaca_require", "backbone_marionette_require", "flight",
        "durandal", "dojo", "cujo")
"""The examples of the ``todomvc`` package that load their modules with a module loader."""
MAX_SEQUENCES = 20
MIN_STEPS = 4  # the two todos, typed and entered
TIME_LIMIT_S = 150.0


@dataclass(frozen=True)
class SweepMode:
    """How far each app's sweep goes: the table's caps, or (``uncapped``) all of bound 1 within
    ``time_limit`` seconds (``None``: no limit); ``exhaustive`` runs every reversal of a group."""

    uncapped: bool = False
    time_limit: float | None = TIME_LIMIT_S
    exhaustive: bool = False
    apps: tuple[str, ...] = APPS

    @classmethod
    def from_environment(cls) -> SweepMode:
        uncapped = os.environ.get("WEBR4_LOADER_UNCAPPED") == "1"
        limit = os.environ.get("WEBR4_LOADER_TIME_LIMIT")
        chosen = os.environ.get("WEBR4_LOADER_APPS")
        return cls(uncapped, float(limit) if limit else None if uncapped else TIME_LIMIT_S,
                   os.environ.get("WEBR4_LOADER_EXHAUSTIVE") == "1",
                   tuple(chosen.split(",")) if chosen else APPS)

    def settings(self) -> SweepSettings:
        """The bound-1 sweep of this mode (``exhaustive`` only when asked, so that the file still
        measures a tree from before the setting)."""
        extra: dict[str, Any] = {"exhaustive": True} if self.exhaustive else {}
        return SweepSettings(bound=1, max_sequences=None if self.uncapped else MAX_SEQUENCES,
                             time_limit=self.time_limit, **extra)


@dataclass
class LoaderResult:
    app: str
    steps: int = 0  # how many steps of the corpus session the app was recorded with
    seconds: float = 0.0
    verdicts: dict[str, int] = field(default_factory=dict)
    exact: int = 0  # planned events after the reversal that ran under their own id
    matched: int = 0  # ... that ran under another id with the same creator-free identity
    skipped: int = 0  # ... that never appeared
    unplanned: int = 0  # events that ran although the plan did not name them
    sweep_seconds: float = 0.0  # the sweep's own time (summary.json's seconds)
    sequences: int = 0  # sequences the sweep executed, the seed included
    represented: int = 0  # reversals not run, which their group's representative stood for
    groups: list[str] = field(default_factory=list)  # each group of reversals through one pair of sites, a line
    harmful: list[str] = field(default_factory=list)  # each harmful reversal: its pair and location
    stop_reason: str | None = None
    confirmations: dict[str, int] = field(default_factory=dict)  # harmful reversals per plain-Chromium status
    unconfirmed: list[str] = field(default_factory=list)  # the pair and line of each harmful one not confirmed
    error: str | None = None


async def measure_app(driver: Driver, url: str, session_steps: list[dict[str, Any]], scratch: Path,
                      mode: SweepMode = SweepMode()) -> dict:
    name = url.rstrip("/").rsplit("/", 1)[-1]
    result = LoaderResult(name)
    started = time.perf_counter()
    try:
        session = None
        for steps in range(len(session_steps), MIN_STEPS - 1, -1):
            try:
                session = await record(driver, url, scratch / f"session-{steps}", session_steps[:steps])
            except SessionError:
                if steps == MIN_STEPS:
                    raise
                continue
            result.steps = steps
            break
        assert session is not None
        summary = await explore(driver, session, scratch / "run", mode.settings())
        result.sweep_seconds, result.sequences = summary.seconds, summary.sequences
        result.represented, result.stop_reason = len(getattr(summary, "represented", [])), summary.stop_reason
        result.groups = [group.line() for group in getattr(summary, "groups", [])]
        summary = await confirm_run(driver.browser, session, scratch / "run", "harmful")
    except Exception as error:  # noqa: BLE001 - one app's failure is its row, not the benchmark's end
        result.error = (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
        return asdict(result)
    result.seconds = time.perf_counter() - started
    result.verdicts = dict(Counter(r.verdict for r in summary.reversals))
    result.harmful = [f"{r.second} before {r.first} on {r.location}" for r in summary.harmful()]
    result.confirmations = dict(Counter(r.confirmation_status or "unchecked" for r in summary.harmful()))
    result.unconfirmed = [f"{r.second} before {r.first}: {(r.confirmation or {}).get('line', 'unchecked')}"
                          for r in summary.harmful() if r.confirmation_status != "confirmed"]
    with RunFiles(scratch / "run") as files:
        for reversal in summary.reversals:
            trace = files.trace(reversal.index)
            if trace is None:
                continue
            matched = getattr(trace, "matched", {})
            after = next((i for i, step in enumerate(trace.steps) if step.event in (reversal.first_id,
                                                                                   reversal.second_id)), 0)
            for step in trace.steps[after:]:
                if not step.planned:
                    result.unplanned += 1
                elif step.event in matched.values():
                    result.matched += 1
                else:
                    result.exact += 1
            result.skipped += len(trace.skipped)
    return asdict(result)


async def measure(examples: Path, session_steps: list[dict[str, Any]], mode: SweepMode = SweepMode()) -> list[dict]:
    results = []
    kept = os.environ.get("WEBR4_LOADER_KEEP")  # a directory to keep the runs in, for the profilers
    scratch_dir = contextlib.nullcontext(kept) if kept else tempfile.TemporaryDirectory(prefix="webr4-loader-apps-")
    with serve(examples) as base, scratch_dir as scratch:
        async with Driver() as driver:
            for app in mode.apps:
                if not (examples / app / "index.html").is_file():
                    continue
                print(f"loader_apps: {app} ...", file=sys.stderr, flush=True)
                row = await measure_app(driver, f"{base}{app}/", session_steps, Path(scratch) / app, mode)
                print(f"loader_apps: {_row(row)} sweep: {row['sweep_seconds']:.0f} s, {row['sequences']} sequences, "
                      f"{row['represented']} represented, {row['stop_reason']}", file=sys.stderr, flush=True)
                results.append(row)
    return results


def _row(r: dict) -> str:
    if r["error"]:
        return f"| {r['app']} | – | – | – | – | – | – | – | – | {r['error']} |"
    verdicts = ", ".join(f"{n} {v}" for v, n in sorted(r["verdicts"].items()))
    plain = ", ".join(f"{n} {status}" for status, n in sorted(r.get("confirmations", {}).items())) or "–"
    planned = r["exact"] + r["matched"] + r["skipped"]
    share = f"{r['matched'] / planned:.0%}" if planned else "–"
    return (f"| {r['app']} | {r['steps']} | {r['seconds']:.0f} | {verdicts} | {plain} | {r['exact']} | "
            f"{r['matched']} ({share}) | {r['skipped']} | {r['unplanned']} | |")


def table(results: list[dict]) -> str:
    head = ("| app | steps | record, sweep and confirmation s | verdicts | harmful in plain Chromium | "
            "planned, own id | planned, creator changed (share) | skipped | not planned | error |\n"
            "|---|---:|---:|---|---|---:|---:|---:|---:|---|")
    notes = [f"- {r['app']}: {line}" for r in results for line in r.get("unconfirmed", [])]
    unconfirmed = ["", "Harmful and not confirmed:", *notes] if notes else []
    return "\n".join([head, *(_row(r) for r in results), *unconfirmed])


def cost_table(results: list[dict]) -> str:
    """What the whole of bound 1 cost per app (an uncapped run): the sequences run and the
    reversals their groups' representatives stood for, which a sweep running every reversal
    would have run too, and that sweep's seconds estimated at this run's seconds per sequence."""
    head = ("| app | sequences run (+ represented) | sweep s | s per sequence | every reversal run: sequences, "
            "estimated s | record, sweep and confirmation s | harmful (confirmed) | stopped by |\n"
            "|---|---:|---:|---:|---:|---:|---|---|")
    rows, totals = [], [0.0, 0.0, 0.0]
    for r in results:
        if r["error"]:
            rows.append(f"| {r['app']} | – | – | – | – | – | – | {r['error']} |")
            continue
        per = r["sweep_seconds"] / max(r["sequences"], 1)
        every = r["sequences"] + r["represented"]
        harmful = r["verdicts"].get("harmful", 0)
        confirmed = r.get("confirmations", {}).get("confirmed", 0)
        totals = [totals[0] + r["sweep_seconds"], totals[1] + every * per, totals[2] + r["seconds"]]
        rows.append(f"| {r['app']} | {r['sequences']} (+{r['represented']}) | {r['sweep_seconds']:.0f} | {per:.1f} | "
                    f"{every}, {every * per:.0f} | {r['seconds']:.0f} | {harmful} ({confirmed}) | "
                    f"{r['stop_reason'] or 'exhausted'} |")
    rows.append(f"| **total** | | {totals[0]:.0f} | | {totals[1]:.0f} | {totals[2]:.0f} | | |")
    return "\n".join([head, *rows])


def run(sites: list[Path]) -> Section:  # noqa: ARG001 - the section measures the npm apps, not the sites
    corpus = load_apps()
    if ensure_apps(corpus) is None:
        return Section("Module-loader apps", "not measured: the npm packages could not be installed", [])
    mode = SweepMode.from_environment()
    results = asyncio.run(measure(TODOMVC, corpus.session, mode))
    markdown = table(results) + ("\n\n" + cost_table(results) if mode.uncapped else "")
    return Section("Module-loader apps: verdicts, and planned events after each reversal", markdown, results)


if __name__ == "__main__":
    section = run([])
    print(section.markdown)
    with contextlib.suppress(OSError):
        Path(sys.argv[1] if len(sys.argv) > 1 else "loader_apps.json").write_text(json.dumps(section.data, indent=1))
