"""What a whole ``webr4 check`` costs a user, against their own plain Playwright script.

Per app of the real-app corpus (:mod:`benchmarks.real_apps`, its TodoMVC session), apps one at a
time, every figure a new process timed from its start to its exit, as a user meets it:

* the cold plain script (:func:`benchmarks.plain.cold_script`): Python imports Playwright,
  launches Chromium, runs the steps once and exits; median of :data:`COLD_REPEATS`. It is the
  baseline of every ratio;
* ``webr4 record`` with an empty rewrite cache (every script rewritten for the first time):
  target ≤ 2× the cold script;
* ``webr4 check --bound 1 --workers 1 --progress json``, with an empty rewrite cache too: its
  wall time against the cold script and the share of each phase, cut where its progress lines
  arrive: start-up (to the ``recording`` phase line), recording, the seed's replays, exploring (to
  the ``finish`` line), confirming in plain Chromium (to the last confirmation line; what is left
  of it after the sweep when it overlapped the sweep) and the report (to the exit). The
  confirmation's own cost is ``summary.json``'s ``confirm_seconds`` against the sweep's
  ``seconds``.

Then how long ``webr4 --version`` and ``webr4 --help`` take, each the median of
:data:`STARTUP_REPEATS` new processes of the installed command (target ≤ 0.3 s: the command
line imports only what the command needs), and the rewrite of the API console's 1.7 MB
production bundle (``swagger-ui-bundle.js`` of the real-web corpus, :mod:`benchmarks.real_web`):
cold, a hit of the disk cache in a new rewriter (what another process pays) and a hit in memory.

``python -m benchmarks --only check_cost`` writes ``benchmarks/results/check_cost.{md,json}`` and,
when every app was measured, the table of ``docs/benchmarks/real-apps.md`` between its markers;
``CHECK_COST_APPS=vue,jquery`` measures those apps alone and leaves that page as it is.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from benchmarks.plain import cold_script, cold_script_seconds
from benchmarks.corpora import WEB_CACHE, App, AppCorpus, ensure_apps, load_apps
from benchmarks.section import Section
from webr4.browser.launch import chromium_path
from webr4.instrument.cache import CACHE_ENV, CachedRewriter
from webr4.serve import serve
from webr4.sweep.progress import CONFIRMING, RECORDING, SEED

COLD_REPEATS = 3
CHECK_TIMEOUT_S = 1_800.0
APPS_ENV = "CHECK_COST_APPS"
BUNDLE = WEB_CACHE / "node_modules" / "swagger-ui-dist" / "swagger-ui-bundle.js"
RECORD_TARGET = 2.0
"""``webr4 record`` with an empty rewrite cache, at most this many times the cold plain script."""
STARTUP_TARGET_S = 0.3
"""``webr4 --version`` and ``webr4 --help``, at most this many seconds each."""
STARTUP_REPEATS = 5
PHASES = ("start-up", "recording", "seed replays", "exploring", "confirming", "report")
"""The parts of a check's wall time, in order."""


@dataclass
class CheckCost:
    """One app's figures; None where that stage failed or did not run."""

    app: str
    cold_s: float
    record_s: float | None = None
    check_s: float | None = None
    phases: dict[str, float] = field(default_factory=dict)  # seconds per name of PHASES
    sweep_s: float | None = None  # summary.json's seconds
    confirm_s: float | None = None  # summary.json's confirm_seconds
    sequences: int | None = None
    harmful: int | None = None
    error: str | None = None

    @property
    def record_ratio(self) -> float | None:
        return None if self.record_s is None else self.record_s / self.cold_s

    @property
    def check_ratio(self) -> float | None:
        return None if self.check_s is None else self.check_s / self.cold_s

    @property
    def confirm_ratio(self) -> float | None:
        return None if self.confirm_s is None or not self.sweep_s else self.confirm_s / self.sweep_s

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"record_ratio": self.record_ratio, "check_ratio": self.check_ratio,
                               "confirm_ratio": self.confirm_ratio}


def phase_seconds(lines: list[tuple[float, dict[str, Any]]], started: float, ended: float) -> dict[str, float]:
    """Seconds per name of :data:`PHASES` of a check that began at ``started``, exited at
    ``ended`` and printed ``lines`` (arrival time, JSON record) with ``--progress json``."""
    marks: list[tuple[str, float]] = [("start-up", started)]
    names = {RECORDING: "recording", SEED: "seed replays", CONFIRMING: "confirming"}
    for arrived, record in lines:
        if record["event"] == "phase" and record["phase"] in names:
            marks.append((names[record["phase"]], arrived))
        elif record["event"] == "start":
            marks.append(("exploring", arrived))
    marks.append(("report", lines[-1][0] if lines else started))
    seconds = dict.fromkeys(PHASES, 0.0)
    for (name, begun), (_, until) in zip(marks, [*marks[1:], ("", ended)]):
        seconds[name] += max(0.0, until - begun)
    return seconds


def _environment(cache: Path) -> dict[str, str]:
    return os.environ | {CACHE_ENV: str(cache)}


def time_record(url: str, actions: Path, out: Path, cache: Path) -> float:
    """Wall seconds of ``webr4 record`` in a new process (``RuntimeError`` with its error line)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "webr4", "record", url, "--actions", str(actions), "--out", str(out)],
                          env=_environment(cache), capture_output=True, text=True, timeout=CHECK_TIMEOUT_S,
                          check=False)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise RuntimeError(f"record: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
    return seconds


def time_check(result: CheckCost, url: str, actions: Path, out: Path, cache: Path) -> None:
    """Run ``webr4 check`` at bound 1 with one worker in a new process and put its wall time,
    phases and summary figures into ``result``."""
    command = [sys.executable, "-m", "webr4", "check", url, "--actions", str(actions), "--out", str(out),
               "--bound", "1", "--workers", "1", "--progress", "json"]
    started = time.monotonic()
    lines: list[tuple[float, dict[str, Any]]] = []
    with subprocess.Popen(command, env=_environment(cache), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        assert process.stdout is not None and process.stderr is not None
        for line in process.stdout:
            if line.startswith("{"):
                lines.append((time.monotonic(), json.loads(line)))
        errors = process.stderr.read()
        status = process.wait(timeout=CHECK_TIMEOUT_S)
    ended = time.monotonic()
    if status not in (0, 1):  # 1: a harmful reversal, a finding
        result.error = f"check: {(errors.strip().splitlines() or [f'exit status {status}'])[-1]}"
        return
    result.check_s = ended - started
    result.phases = phase_seconds(lines, started, ended)
    summary = json.loads((out / "summary.json").read_text())
    result.sweep_s, result.confirm_s = summary["seconds"], summary.get("confirm_seconds", 0.0)
    result.sequences = summary["sequences_explored"]
    result.harmful = summary["counts"].get("harmful", 0)


def measure_app(app: App, url: str, corpus: AppCorpus, chromium: str, scratch: Path) -> CheckCost:
    """The cold plain script, a cold recording and a whole check of one app."""
    source = cold_script(url, corpus.session, chromium)
    try:
        cold = statistics.median(cold_script_seconds(source) for _ in range(COLD_REPEATS))
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        return CheckCost(app.name, float("nan"), error=str(error))
    result = CheckCost(app.name, cold)
    actions = scratch / "actions.json"
    actions.write_text(json.dumps(corpus.session))
    try:
        result.record_s = time_record(url, actions, scratch / "session", scratch / "record-cache")
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        result.error = str(error)
        return result
    time_check(result, url, actions, scratch / "run", scratch / "check-cache")
    return result


def chosen(corpus: AppCorpus, names: str | None) -> list[App]:
    """The apps named in ``names`` (comma-separated), every app when None; ``ValueError`` names
    one the corpus lacks."""
    if names is None:
        return list(corpus.apps)
    wanted = {name.strip() for name in names.split(",") if name.strip()}
    unknown = sorted(wanted - {app.name for app in corpus.apps})
    if unknown:
        raise ValueError(f"{APPS_ENV} names apps the corpus lacks: {', '.join(unknown)}")
    return [app for app in corpus.apps if app.name in wanted]


async def _chromium() -> str:
    async with async_playwright() as playwright:
        return chromium_path(playwright)


def measure(corpus: AppCorpus, apps: list[App], apps_dir: Path) -> list[CheckCost]:
    chromium = asyncio.run(_chromium())
    results = []
    with serve(apps_dir) as base:
        for app in apps:
            print(f"check_cost: {app.name} ...", file=sys.stderr, flush=True)
            with tempfile.TemporaryDirectory(prefix="webr4-check-cost-") as scratch:
                results.append(measure_app(app, f"{base}{app.name}/", corpus, chromium, Path(scratch)))
            print(f"check_cost: {_row(results[-1])}", file=sys.stderr, flush=True)
    return results


def webr4_command() -> list[str]:
    """The ``webr4`` command as the user runs it: the console script installed beside this Python,
    else the package run as a module."""
    script = Path(sys.executable).with_name("webr4")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "webr4"]


def startup_seconds(argument: str, repeats: int = STARTUP_REPEATS) -> float:
    """The median wall seconds of ``webr4 ARGUMENT`` over ``repeats`` new processes
    (``RuntimeError`` when it fails)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        done = subprocess.run([*webr4_command(), argument], capture_output=True, text=True, timeout=60, check=False)
        times.append(time.perf_counter() - started)
        if done.returncode:
            raise RuntimeError(f"webr4 {argument}: exit status {done.returncode}")
    return statistics.median(times)


@dataclass(frozen=True)
class BundleRewrite:
    """Seconds to rewrite the production bundle: cold, a disk-cache hit, a memory hit."""

    size: int
    cold_s: float
    disk_hit_s: float
    memory_hit_s: float


def measure_bundle(bundle: Path = BUNDLE) -> BundleRewrite | None:
    """The bundle's rewrite times, or None when the real-web corpus is not installed."""
    if not bundle.is_file():
        return None
    source = bundle.read_text(encoding="utf-8")
    url = "http://localhost/swagger-ui-bundle.js"
    with tempfile.TemporaryDirectory(prefix="webr4-bundle-cache-") as cache:
        first, another = CachedRewriter(directory=Path(cache)), CachedRewriter(directory=Path(cache))
        times = []
        for rewriter in (first, another, another):  # cold, then the other's disk entry, then its memory
            started = time.perf_counter()
            rewriter.rewrite(source, url)
            times.append(time.perf_counter() - started)
    return BundleRewrite(len(source.encode()), *times)


def _figure(value: float | int | None, spec: str) -> str:
    return "–" if value is None else format(value, spec)


def _row(r: CheckCost) -> str:
    total = sum(r.phases.values())
    shares = [_figure(100 * r.phases[name] / total if total else None, ".0f") for name in PHASES]
    met = "–" if r.record_ratio is None else ("yes" if r.record_ratio <= RECORD_TARGET else "**no**")
    return (f"| {r.app} | {r.cold_s:.2f} | {_figure(r.record_ratio, '.1f')} | {met} | "
            f"{_figure(r.check_ratio, '.0f')} | " + " | ".join(shares)
            + f" | {_figure(r.sequences, 'd')} | {_figure(r.harmful, 'd')} | {_figure(r.confirm_ratio, '.2f')} | "
            + (f"{r.error} |" if r.error else "|"))


def _startup_line(startup: dict[str, float]) -> str:
    figures = ", ".join(f"`webr4 {argument}` {seconds:.2f} s" for argument, seconds in startup.items())
    met = all(seconds <= STARTUP_TARGET_S for seconds in startup.values())
    return (f"Start-up, median of {STARTUP_REPEATS} new processes each: {figures} "
            f"(≤ {STARTUP_TARGET_S:g} s: {'yes' if met else '**no**'}).")


def table(results: list[CheckCost], bundle: BundleRewrite | None, startup: dict[str, float]) -> str:
    header = ("| app | cold plain script (s) | record / cold | ≤ 2× | check / cold | "
              + " | ".join(f"{name} %" for name in PHASES) + " | sequences | harmful | confirming / sweep | error |")
    lines = [header, "|---|" + "---:|" * (4 + len(PHASES) + 3) + "---|", *map(_row, results)]
    records = [r.record_ratio for r in results if r.record_ratio is not None]
    checks = [r.check_ratio for r in results if r.check_ratio is not None]
    if records:
        lines.append(f"| **median** | | {statistics.median(records):.1f} | | "
                     f"{_figure(statistics.median(checks) if checks else None, '.0f')} |" + " |" * (len(PHASES) + 4))
        lines.append(f"| **worst** | | {max(records):.1f} | {'yes' if max(records) <= RECORD_TARGET else '**no**'} | "
                     f"{_figure(max(checks) if checks else None, '.0f')} |" + " |" * (len(PHASES) + 4))
    lines += ["", _startup_line(startup), "", _bundle_line(bundle)]
    return "\n".join(lines)


def _bundle_line(bundle: BundleRewrite | None) -> str:
    if bundle is None:
        return "Bundle rewrite: not measured (the real-web corpus is not installed: `--only real_web` installs it)."
    return (f"Rewriting swagger-ui-bundle.js ({bundle.size / 1e6:.2f} MB): {bundle.cold_s:.2f} s cold, "
            f"{bundle.disk_hit_s * 1000:.0f} ms from the disk cache in a new rewriter "
            f"({bundle.disk_hit_s / bundle.cold_s:.1%} of cold), {bundle.memory_hit_s * 1000:.0f} ms from memory.")


def run(sites: list[Path]) -> Section:  # noqa: ARG001 - the corpus is its own set of pages
    """The benchmark section; with every app measured, the documentation's table is replaced too."""
    corpus = load_apps()
    names = os.environ.get(APPS_ENV)
    apps = chosen(corpus, names)
    title = "A whole check against the user's own cold plain script: bound 1, one worker, empty rewrite cache"
    apps_dir = ensure_apps(corpus)
    if apps_dir is None:
        return Section(title, "Not measured: the npm packages of the corpus could not be installed.", [])
    results = measure(corpus, apps, apps_dir)
    bundle = measure_bundle()
    startup = {argument: startup_seconds(argument) for argument in ("--version", "--help")}
    markdown = table(results, bundle, startup)
    return Section(title, markdown, {
        "record_target": RECORD_TARGET, "startup_target_s": STARTUP_TARGET_S, "startup_s": startup,
        "apps": [r.to_json() for r in results],
        "bundle": None if bundle is None else asdict(bundle)}, docs=markdown if names is None else None)
