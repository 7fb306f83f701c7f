"""Where a sweep execution's time goes on the most expensive real apps.

``python -m benchmarks.profiling.real_apps_profile [APP ...]`` (default: the two apps with the most seconds
per execution in ``benchmarks/results/real_apps.json``) records each app's session with timers
around the stages of a recording (every script rewritten for the first time, in an empty rewrite
cache) and once more with every rewrite cached, then runs a short sweep (``explore
--max-sequences 3``: two seed replays and two children, one worker) with

* wall-clock timers wrapped around the stages of an execution (context start, the controlled
  run and, inside it, script rewriting, protocol message decoding and JSON parsing; state
  capture; loading the recorded network; storage; comparison and verdict),
* the CPU seconds the Python process, Playwright's Node driver and Chromium spent meanwhile,
* cProfile over the Python side of one logged seed replay,

and, separately, the same replay with and without access logging (the logging's share). The
breakdown goes to ``benchmarks/results/real_apps_profile.md``.

``--recordings`` times the recordings only (each app's first and cached recording, its stages,
and a plain session to divide by), printed and not written to the results.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright._impl.transport import Transport
from playwright.async_api import BrowserContext

import webr4.browser.driver as driver_module
import webr4.sweep.explore as explore_module
from benchmarks.corpora import App, AppCorpus, ensure_apps, load_apps
from benchmarks.plain import plain_session
from benchmarks.profiling.stages import CONTEXT_START, Stage
from benchmarks.profiling.stages import Timers as StageTimers
from benchmarks.readme_section import REPO
from benchmarks.registry import RESULTS
from webr4.browser.controller import Controller
from webr4.browser.driver import Driver
from webr4.browser.network import NetworkGate
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.instrument.cache import CachedRewriter
from webr4.instrument.page import DocumentCache
from webr4.record.session import Session, record
from webr4.rundir.execution_files import ExecutionFiles
from webr4.serve import serve
from webr4.state.snapshot import StateSnapshot
from webr4.sweep.explore import SeedNotReproducible, explore
from webr4.sweep.settings import SweepSettings
from webr4.rundir.store import RunStore

SEQUENCES = 3
REPLAYS = 2
DEFAULT_APPS = ("react", "emberjs")

STAGES: tuple[tuple[Any, str, str], ...] = CONTEXT_START + (
    (Controller, "run", "controlled run"),
    (CachedRewriter, "rewrite", "controlled run: script rewriting"),
    (CachedRewriter, "rewrite_async", "controlled run: script rewriting"),
    (Transport, "deserialize_message", "protocol message decoding (Python side of the pipe)"),
    (json, "loads", "JSON parsing (all json.loads: protocol, step records, network, stored runs)"),
    (driver_module, "_final_state", "state capture: DOM, screenshot, heap (in the page)"),
    (StateSnapshot, "from_execution", "state snapshot (Python)"),
    (BrowserContext, "close", "context close"),
    (ResponseStore, "load_har", "loading the recorded network (HAR), per execution"),
    (explore_module, "_save", "storage: sequence trace and state files"),
    (RunStore, "finished", "storage: run store (SQLite)"),
    (RunStore, "outcome", "storage: run store (SQLite)"),
    (RunStore, "trace", "storage: run store (SQLite)"),
    (explore_module, "_judge", "comparison, verdict and witness"),
)
"""(owner, attribute, stage): the callables timed; a stage's figure is the sum of its callables."""

RECORDING_STAGES: tuple[tuple[Any, str, str], ...] = CONTEXT_START + (
    (Controller, "run", "controlled run"),
    (DocumentCache, "prepare", "controlled run: document (chunks, inline scripts rewritten)"),
    (CachedRewriter, "rewrite_async", "controlled run: external scripts rewritten (wall time awaited, overlapping)"),
    (NetworkGate, "release_chunk", "controlled run: parse chunks released (waiting for the scripts they block on)"),
    (NetworkGate, "release_script", "controlled run: held scripts released (waiting for their response and rewrite)"),
    (json, "loads", "JSON parsing (all json.loads)"),
    (driver_module, "_final_state", "state capture: DOM, screenshot, heap (in the page)"),
    (BrowserContext, "close", "context close"),
    (ResponseStore, "save_har", "saving the session: network.har"),
    (ExecutionFiles, "write", "saving the session: seed trace, state and screenshot"),
)
"""The stages of a recording, timed as :data:`STAGES` are."""


@dataclass
class Timers(StageTimers):
    """:class:`benchmarks.profiling.stages.Timers` that also counts the bytes of protocol messages received."""

    timed: tuple[tuple[Any, str, str], ...] = STAGES
    received_bytes: int = 0

    @contextmanager
    def installed(self) -> Iterator[None]:
        with super().installed():
            decode = Transport.deserialize_message  # timed, when a stage times it

            def counting(transport: Transport, data: str | bytes) -> Any:
                self.received_bytes += len(data)
                return decode(transport, data)
            Transport.deserialize_message = counting  # type: ignore[method-assign,assignment]
            try:
                yield
            finally:
                Transport.deserialize_message = decode  # type: ignore[method-assign]


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children[parent].append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def cpu_by_process() -> dict[str, float]:
    """CPU seconds (user + system) so far of this process, Playwright's driver and Chromium (Linux),
    the processes that have ended (a closed context's renderer) counted in their parent's."""
    ticks = os.sysconf("SC_CLK_TCK")
    totals: dict[str, float] = defaultdict(float)
    for pid in _descendants(os.getpid()):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            arguments = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        seconds = sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks  # own and reaped children's
        command = arguments.split(b"\0")[0].decode(errors="replace")
        name = ("Python" if pid == os.getpid() else "Chromium" if "chrom" in command
                else "Playwright driver (Node)" if "node" in command
                else "rewrite workers (Python)" if b"webr4.instrument.pool" in arguments else "other")
        totals[name] += seconds
    return dict(totals)


@dataclass
class RecordingProfile:
    """One recording with every script rewritten for the first time (``cold_s``), its stages and
    CPU seconds by process, and the same recording again with every rewrite cached (``warm_s``)."""

    cold_s: float
    warm_s: float
    stages: dict[str, Stage]
    cpu: dict[str, float]


@dataclass
class AppProfile:
    app: str
    framework: str
    plain_s: float
    recording: RecordingProfile
    uninstrumented_s: float
    instrumented_s: float
    executions: int
    sweep_s: float
    stages: dict[str, Stage]
    received_mb: float
    cpu: dict[str, float]
    hot: list[tuple[str, int, float, float]]  # see hottest()
    failure: str | None = None  # why the sweep stopped early, if it did


async def replay_seed(driver: Driver, session: Session, instrument: bool,
                      profiler: cProfile.Profile | None = None) -> float:
    """Wall seconds of one replay of the session's seed from its recording, with access logging
    when ``instrument``, ``profiler`` (when given) enabled over it."""
    started = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    await driver.execute(session.url, tuple(session.seed_trace().sequence), actions=session.user_actions,
                         store=session.network(), live_network=False, limits=session.run_limits, seed=session.seed,
                         capture=Capture(rewrite_scripts=instrument))
    if profiler is not None:
        profiler.disable()
    return time.perf_counter() - started


def _cpu_since(before: dict[str, float]) -> dict[str, float]:
    after = cpu_by_process()
    return {name: after.get(name, 0.0) - before.get(name, 0.0) for name in after}


async def _profile_recording(driver: Driver, url: str, corpus: AppCorpus,
                             scratch: Path) -> tuple[Session, RecordingProfile]:
    """Record twice: first with the app's scripts new to the rewrite cache, then with them cached."""
    timers = Timers(RECORDING_STAGES)
    cpu_before = cpu_by_process()
    started = time.perf_counter()
    with timers.installed():
        session = await record(driver, url, scratch / "session", corpus.session)
    cold = time.perf_counter() - started
    cpu = _cpu_since(cpu_before)
    started = time.perf_counter()
    await record(driver, url, scratch / "session-again", corpus.session)
    return session, RecordingProfile(cold, time.perf_counter() - started, dict(timers.stages), cpu)


async def profile_app(driver: Driver, app: App, url: str, corpus: AppCorpus, scratch: Path) -> AppProfile:
    session, recording = await _profile_recording(driver, url, corpus, scratch / app.name)
    plain = statistics.median([await plain_session(driver.browser, url, corpus.steps) for _ in range(REPLAYS)])
    bare: list[float] = []
    logged: list[float] = []
    profiler = cProfile.Profile()  # over the last logged replay only: it slows the page's events down
    for repeat in range(REPLAYS):  # interleaved, so that the machine's noise hits both alike
        bare.append(await replay_seed(driver, session, False))
        logged.append(await replay_seed(driver, session, True, profiler if repeat == REPLAYS - 1 else None))
    timers = Timers()
    failure = None
    cpu_before = cpu_by_process()
    started = time.perf_counter()
    with timers.installed():
        try:
            await explore(driver, session, scratch / app.name / "run", SweepSettings(max_sequences=SEQUENCES))
        except SeedNotReproducible as error:
            failure = str(error)
    sweep_s = time.perf_counter() - started
    cpu = _cpu_since(cpu_before)
    executions = max(timers.stages["controlled run"].calls, 1)
    return AppProfile(app.name, app.framework, plain, recording, statistics.median(bare), statistics.median(logged),
                      executions, sweep_s, dict(timers.stages), timers.received_bytes / 1e6, cpu,
                      hottest(profiler), failure)


def hottest(profiler: cProfile.Profile, count: int = 12) -> list[tuple[str, int, float, float]]:
    """(function, calls, own seconds, cumulative seconds) of the functions with the most own time,
    their paths shortened to the package."""
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]]
    raw = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    rows = []
    ranked = sorted(raw.items(), key=lambda item: -item[1][2])[:count]
    for (path, line, name), (_, calls, own, cumulative, _) in ranked:
        for prefix in (f"{REPO}/", "site-packages/", "python3.11/"):
            path = path.split(prefix, 1)[-1]
        rows.append((f"{path}:{line}({name})", calls, own, cumulative))
    return rows


def markdown(profiles: Sequence[AppProfile]) -> str:
    lines = ["# Where an execution's time goes on the most expensive real apps", "",
             f"Measured by `python -m benchmarks.profiling.real_apps_profile` on one machine: a short sweep "
             f"(`explore --max-sequences {SEQUENCES}`, one worker) of each app's TodoMVC session, with wall-clock "
             "timers around the stages of an execution, the CPU seconds of each process, and cProfile over "
             "the Python side of one seed replay. Stages nest (the controlled run holds the rewriting, decoding "
             "and parsing it "
             "causes), so the shares do not add up to 100 %. The recording is timed the same way, in a rewrite cache "
             "of its own that starts empty. Figures per execution are the sweep's totals "
             "divided by its executions (two seed replays and one per explored child).", ""]
    for p in profiles:
        per = p.sweep_s / p.executions
        lines += [f"## {p.app} ({p.framework})", "", *_recording_lines(p.plain_s, p.recording), "",
                  f"- plain Playwright session in webr4's browser: {p.plain_s:.2f} s; "
                  f"seed replay without access logging "
                  f"{p.uninstrumented_s:.2f} s, with it {p.instrumented_s:.2f} s: **access logging costs "
                  f"{p.instrumented_s - p.uninstrumented_s:.2f} s per replay** "
                  f"({(p.instrumented_s - p.uninstrumented_s) / p.instrumented_s:.0%} of it)",
                  f"- sweep: {p.executions} executions in {p.sweep_s:.1f} s, **{per:.2f} s per execution** "
                  f"({per / p.plain_s:.1f}× plain); {p.received_mb / p.executions:.1f} MB of protocol messages "
                  "received from the browser per execution", "",
                  "| stage | s per execution | share of an execution | calls per execution |",
                  "|---|---:|---:|---:|"]
        for stage, figure in sorted(p.stages.items(), key=lambda item: -item[1].seconds):
            lines.append(f"| {stage} | {figure.seconds / p.executions:.2f} | {figure.seconds / p.sweep_s:.0%} | "
                         f"{figure.calls / p.executions:.1f} |")
        lines += ["", "CPU seconds per execution, by process:", "", "| process | CPU s per execution |", "|---|---:|"]
        for name, seconds in sorted(p.cpu.items(), key=lambda item: -item[1]):
            lines.append(f"| {name} | {seconds / p.executions:.2f} |")
        lines += ["", "Python functions with the most time of their own (cProfile over one logged seed replay; "
                  "`epoll.poll` is Python waiting for the browser or the driver):", "",
                  "| function | calls | own s | cumulative s |", "|---|---:|---:|---:|",
                  *(f"| `{name}` | {calls} | {own:.2f} | {cumulative:.2f} |" for name, calls, own, cumulative in p.hot),
                  ""]
    return "\n".join(lines)


def _recording_lines(plain_s: float, r: RecordingProfile) -> list[str]:
    lines = [f"- recording, every script rewritten for the first time: {r.cold_s:.2f} s "
             f"(**{r.cold_s / plain_s:.1f}× plain**); the same recording with every rewrite cached: "
             f"{r.warm_s:.2f} s ({r.warm_s / plain_s:.1f}× plain); "
             f"plain Playwright session in webr4's browser: {plain_s:.2f} s", "",
             "| recording stage | s | share of the recording | calls |", "|---|---:|---:|---:|"]
    for stage, figure in sorted(r.stages.items(), key=lambda item: -item[1].seconds):
        lines.append(f"| {stage} | {figure.seconds:.2f} | {figure.seconds / r.cold_s:.0%} | {figure.calls} |")
    lines += ["", "CPU seconds of the recording, by process:", "",
              "| process | CPU s |", "|---|---:|",
              *(f"| {name} | {seconds:.2f} |" for name, seconds in sorted(r.cpu.items(), key=lambda item: -item[1]))]
    return lines


def _most_expensive(count: int = 2) -> list[str]:
    try:
        apps = json.loads((RESULTS / "real_apps.json").read_text())["section"]["data"]["apps"]
    except (OSError, ValueError, KeyError, TypeError):
        return list(DEFAULT_APPS)
    measured = [a for a in apps if a.get("per_execution_s") is not None]
    return [a["app"] for a in sorted(measured, key=lambda a: -a["per_execution_s"])[:count]] or list(DEFAULT_APPS)


@asynccontextmanager
async def _corpus_driver(apps_dir: Path) -> AsyncIterator[tuple[Driver, str, Path]]:
    """A driver whose rewrite cache starts empty, the corpus's base URL and a scratch directory."""
    with serve(apps_dir) as base, tempfile.TemporaryDirectory(prefix="webr4-profile-") as scratch:
        driver = Driver(CachedRewriter(directory=Path(scratch) / "cache"))  # empty: every script is new
        async with driver:
            yield driver, base, Path(scratch)


async def profile(corpus: AppCorpus, apps_dir: Path, names: Sequence[str]) -> list[AppProfile]:
    wanted = [app for name in names for app in corpus.apps if app.name == name]
    profiles = []
    async with _corpus_driver(apps_dir) as (driver, base, scratch):
        for app in wanted:
            print(f"real_apps_profile: {app.name} ...", file=sys.stderr, flush=True)
            profiles.append(await profile_app(driver, app, f"{base}{app.name}/", corpus, scratch))
    return profiles


async def profile_recordings(corpus: AppCorpus, apps_dir: Path, names: Sequence[str]) -> str:
    """The recording part of :func:`profile` alone, as markdown."""
    lines = ["# Recordings of real apps, first and cached", ""]
    async with _corpus_driver(apps_dir) as (driver, base, scratch):
        for app in (app for name in names for app in corpus.apps if app.name == name):
            url = f"{base}{app.name}/"
            _, recording = await _profile_recording(driver, url, corpus, scratch / app.name)
            plain = statistics.median([await plain_session(driver.browser, url, corpus.steps) for _ in range(REPLAYS)])
            lines += [f"## {app.name} ({app.framework})", "", *_recording_lines(plain, recording), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiling.real_apps_profile",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("apps", nargs="*", help="apps of the corpus (default: the two slowest per execution)")
    parser.add_argument("--recordings", action="store_true",
                        help="time the recordings only; printed, not written to the results")
    args = parser.parse_args(argv)
    corpus = load_apps()
    names = args.apps or _most_expensive()
    unknown = sorted(set(names) - {app.name for app in corpus.apps})
    if unknown:
        parser.error(f"not in the corpus: {', '.join(unknown)}")
    apps_dir = ensure_apps(corpus)
    if apps_dir is None:
        sys.exit(2)
    if args.recordings:
        print(asyncio.run(profile_recordings(corpus, apps_dir, names)))
        return
    text = markdown(asyncio.run(profile(corpus, apps_dir, names)))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "real_apps_profile.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
