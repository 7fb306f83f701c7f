"""How the cost of race detection, planning and a k = 1 sweep grows with the length of the trace.

Generated sites (in a temporary directory, the given sites are not used): one inline script
fetches N responses, and each response starts a timer,
``setTimeout(() => { window.last = i }, i % 7)``, so N timers that nothing orders write one shared
global, for N from 10 to 1,000 (timers that one event starts run in the order of their due times,
as in Chromium, and would not race). For each: the recording, then one replay of it that logs
accesses (a controlled execution: its trace is the seed trace), race detection on the seed trace
(``find_races`` with the default filters), planning (an ``R4Explorer`` with k = 1 set up on the
seed, which detects the races again and inserts every reversal, then its first ``next_plan``;
then one ``record`` + ``next_plan``, with the seed trace standing in for the executed one) and a
k = 1 sweep capped at :data:`SWEEP_CAP` explored sequences. Sites whose seed replay took longer
than :data:`SWEEP_UP_TO_S` are not swept: their cost per execution is the seed replay's. Draws
``benchmarks/results/scaling.png``.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path

from benchmarks.plot import log_log_chart
from benchmarks.corpora import served
from benchmarks.section import Section
from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.engine import R4Explorer, find_races
from webr4.engine.filters import DEFAULT_FILTERS
from webr4.execution import Capture
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.record.session import record
from webr4.trace import Trace

SIZES = (10, 30, 100, 300, 1000)
SWEEP_CAP = 5  # explored sequences, the seed included
SWEEP_UP_TO_S = 60.0
LIMITS = Limits(run_timeout_s=1_800, max_events=20_000)
PLOT = Path(__file__).resolve().parent / "results" / "scaling.png"
_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>{n} timers</title></head>
<body><p id="out">{n} timers write window.last</p>
<script>
for (let i = 0; i < {n}; i++) {{
  // Each timer is started by a response of its own: no two are ordered, and all write one global.
  fetch("data.txt?" + i).then(() => setTimeout(() => {{ window.last = i; }}, i % 7));
}}
</script></body></html>
"""


@dataclass(frozen=True)
class Scale:
    """Costs at one size; ``sweep_*`` are ``None`` when the sweep was not run."""

    timers: int
    events: int
    races: int
    uncovered: int
    seed_s: float
    detect_s: float
    plan_s: float
    replan_s: float
    sweep_sequences: int | None
    sweep_s: float | None
    sweep_complete: bool

    @property
    def per_execution_s(self) -> float:
        """Wall seconds per controlled execution: the sweep's (two seed replays included) or the seed replay's."""
        if self.sweep_s is None or self.sweep_sequences is None:
            return self.seed_s
        return self.sweep_s / (self.sweep_sequences + 1)


def write_site(directory: Path, timers: int) -> Path:
    """A site folder with ``timers`` timers racing on ``window.last``."""
    site = directory / f"timers-{timers}"
    site.mkdir(parents=True)
    (site / "index.html").write_text(_PAGE.format(n=timers))
    (site / "data.txt").write_text("ok")
    (site / "expected.json").write_text('{"harmful": false, "session": []}')
    return site


def _best_of(measure: Callable[[], float]) -> float:
    """``measure()``'s seconds; the least of three calls when one takes under a second (noise)."""
    first = measure()
    return first if first >= 1.0 else min(first, measure(), measure())


def _detection(seed: Trace) -> float:
    fresh = replace(seed, steps=list(seed.steps))  # no access index cached for it yet
    started = time.perf_counter()
    find_races(fresh, filters=DEFAULT_FILTERS)
    return time.perf_counter() - started


def _set_up(seed: Trace) -> float:
    started = time.perf_counter()
    R4Explorer(seed, bound=1, filters=DEFAULT_FILTERS).next_plan()
    return time.perf_counter() - started


def _next_plan(seed: Trace) -> float:
    explorer = R4Explorer(seed, bound=1, filters=DEFAULT_FILTERS)
    planned = explorer.next_plan()
    if planned is None:
        return 0.0
    started = time.perf_counter()
    explorer.observe(planned, seed)
    explorer.next_plan()
    return time.perf_counter() - started


async def measure(sizes: tuple[int, ...] = SIZES) -> list[Scale]:
    scales = []
    with tempfile.TemporaryDirectory() as scratch:
        sites = [write_site(Path(scratch) / "sites", n) for n in sizes]
        with served(sites) as urls:
            async with Driver() as driver:
                for n, site in zip(sizes, sites):
                    session = await record(driver, urls[site], Path(scratch) / f"session-{n}", [], limits=LIMITS)
                    started = time.perf_counter()
                    seed = (await driver.execute(session.url, tuple(session.seed_trace().sequence),
                                                 store=session.network(), live_network=False, limits=LIMITS,
                                                 capture=Capture())).trace
                    seed_s = time.perf_counter() - started
                    analysis = find_races(seed, filters=DEFAULT_FILTERS)
                    detect_s = _best_of(partial(_detection, seed))
                    plan_s = _best_of(partial(_set_up, seed))
                    replan_s = _best_of(partial(_next_plan, seed))
                    sequences = sweep_s = None
                    complete = False
                    if seed_s <= SWEEP_UP_TO_S:
                        started = time.perf_counter()
                        summary = await explore(driver, session, Path(scratch) / f"run-{n}",
                                                SweepSettings(bound=1, max_sequences=SWEEP_CAP))
                        sweep_s, sequences = time.perf_counter() - started, summary.sequences
                        complete = summary.stop_reason == "exhausted"
                    scales.append(Scale(n, len(seed.steps), analysis.race_count, len(analysis.uncovered), seed_s,
                                        detect_s, plan_s, replan_s, sequences, sweep_s, complete))
                    print(f"{n} timers: done", flush=True)
    return scales


def _sweep(scale: Scale) -> str:
    if scale.sweep_s is None:
        return f"not run (one execution takes {scale.seed_s:.0f} s)"
    extent = "full" if scale.sweep_complete else f"capped at {SWEEP_CAP} sequences"
    return f"{scale.sweep_s:.1f} s for {scale.sweep_sequences} sequences ({extent})"


def table(scales: list[Scale]) -> str:
    lines = ["| timers | trace events | races | uncovered | race detection (s) | planning set-up (s) "
             "| next plan (s) | seed replay (s) | k = 1 sweep | s / execution |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    lines += [f"| {s.timers} | {s.events} | {s.races} | {s.uncovered} | {s.detect_s:.3f} | {s.plan_s:.3f} "
              f"| {s.replan_s:.4f} | {s.seed_s:.1f} | {_sweep(s)} | {s.per_execution_s:.2f} |" for s in scales]
    lines += ["", "Planning set-up includes a second race detection (the explorer's own). "
              "\"s / execution\" is the sweep's wall time over its executions (two seed replays and the explored "
              "sequences), or the seed replay's where the sweep was not run. Plot: `benchmarks/results/scaling.png`."]
    return "\n".join(lines)


def plot(scales: list[Scale], path: Path = PLOT) -> None:
    log_log_chart({"race detection": [(s.events, s.detect_s) for s in scales],
                   "planning set-up (k = 1)": [(s.events, s.plan_s) for s in scales],
                   "one controlled execution": [(s.events, s.per_execution_s) for s in scales]},
                  path, title="webr4 cost vs trace length (N timers racing on one global)",
                  x_label="events in the seed trace", y_label="wall seconds")


def run(sites: list[Path]) -> Section:
    scales = asyncio.run(measure())
    plot(scales)
    return Section("Cost vs trace length", table(scales),
                   [asdict(s) | {"per_execution_s": s.per_execution_s} for s in scales])
