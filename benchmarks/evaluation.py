"""How webr4 compares: harmful races found, false verdicts and cost, per site and in total.

On every site, in one process with one browser, from one recorded session:

* webr4's R4 exploration with conflict-reversal bound k = 1 (twice, to check that its verdicts
  are deterministic) and k = 2;
* the delay-bounded random sampler (2 delays) and the WAVE-like baseline, each given the same
  number of executions as R4 k = 2 used on that site;
* plain Playwright with random network delays, :data:`PLAIN_RUNS` runs (see
  :mod:`benchmarks.naive` for what counts as a harmful outcome there).

A harmful verdict counts as finding an expected race when it is on that race (see
:mod:`benchmarks.race_match`); every other harmful verdict, and every harmful verdict on a site
whose ``expected.json`` says ``"harmful": false``, is a false harmful verdict. "Executions" are
browser runs: for webr4 the seed replays plus every explored sequence (the recording is made
once per site and not counted); "first exposed" is the explored sequence (or plain run) that first
exposed each expected harmful race. Its documentation body, the section "How webr4 compares", goes
into ``README.md`` and into the overview of the benchmarks, ``docs/benchmarks/index.md``.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks import naive
from benchmarks.race_match import ExpectedRace, expected_races, race_of
from benchmarks.corpora import served
from benchmarks.section import Section
from webr4.browser.actions import parse_actions
from webr4.browser.driver import Driver
from webr4.sweep.explore import SEED_REPLAYS, SeedNotReproducible, explore
from webr4.sweep.settings import SweepSettings
from webr4.record.session import Session, record
from webr4.rundir.runfiles import RunFiles
from webr4.trace import Trace

PLAIN_RUNS = 20
SAMPLER_DELAYS = 2
R4_K1, R4_K2, DELAY, WAVE, PLAIN = "R4 k=1", "R4 k=2", "delay-bounded", "WAVE-like", "Playwright + delays"
APPROACHES = (R4_K1, R4_K2, DELAY, WAVE, PLAIN)
COMMAND = ".venv/bin/python -m benchmarks --only evaluation"


@dataclass(frozen=True)
class Result:
    """One approach on one site. ``first_exposed`` has one entry per expected harmful race: the
    execution that first exposed it, or ``None`` when none did within ``budget``."""

    site: str
    approach: str
    expected: int
    found: int
    false_harmful: int
    executions: int
    wall_s: float
    pruning: float | None
    first_exposed: list[int | None]
    budget: int
    note: str = ""

    @property
    def per_execution_s(self) -> float:
        return self.wall_s / self.executions if self.executions else 0.0


@dataclass(frozen=True)
class SiteTruth:
    """What a site's ``expected.json`` says a correct analysis finds."""

    harmful: bool
    races: list[ExpectedRace]

    @property
    def expected(self) -> int:
        """Harmful races to find: the listed ones, or one unnamed race on a harmful site without any."""
        return len(self.races) if self.races else int(self.harmful)

    def race_of(self, labels: tuple[str, str], parent: list[str], child: list[str],
                names: dict[str, str]) -> int | None:
        if not self.harmful:
            return None
        if not self.races:
            return 0
        return race_of(labels, parent, child, names, self.races)


def _trace(runs: RunFiles, index: int) -> Trace:
    trace = runs.trace(index)
    if trace is None:
        raise LookupError(f"{runs.directory} keeps no trace of sequence {index}")
    return trace


def judge(summary: dict[str, Any], out: Path, truth: SiteTruth) -> tuple[list[int | None], int]:
    """Per expected race the first reversal id exposing it, and the number of false harmful verdicts."""
    first: list[int | None] = [None] * truth.expected
    false = 0
    with RunFiles(out) as runs:
        for reversal in summary["reversals"]:
            if reversal["verdict"] != "harmful":
                continue
            parent, child = _trace(runs, reversal["parent"]), _trace(runs, reversal["id"])
            names = {e: ev.label for trace in (parent, child) for e, ev in trace.events.items()}
            labels = (reversal["events"][0]["label"], reversal["events"][1]["label"])
            race = truth.race_of(labels, parent.sequence, child.sequence, names)
            if race is None:
                false += 1
            elif first[race] is None:
                first[race] = reversal["id"]
    return first, false


def verdicts(summary: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What must not change between two runs of the same exploration."""
    return [(r["id"], r["parent"], r["verdict"], tuple(r["reasons"]), r["location_key"], tuple(r["sequence"]))
            for r in summary["reversals"]]


async def _webr4(driver: Driver, session: Session, out: Path, site: str, approach: str, truth: SiteTruth, *,
                 strategy: str, bound: int, budget: int | None) -> tuple[Result, dict[str, Any]]:
    started = time.perf_counter()
    summary = (await explore(driver, session, out,
                             SweepSettings(bound=bound, strategy=strategy, max_sequences=budget))).to_json()
    wall = time.perf_counter() - started
    first, false = judge(summary, out, truth)
    pruning = summary.get("pruning")
    note = f"stopped by {summary['truncated']}" if summary["truncated"] and strategy == "r4" else ""
    return Result(site, approach, truth.expected, sum(f is not None for f in first), false,
                  summary["sequences_explored"] - 1 + SEED_REPLAYS, wall, pruning["ratio"] if pruning else None, first,
                  budget or summary["sequences_explored"], note), summary


async def _plain(driver: Driver, url: str, actions: list[dict[str, Any]], site: str, truth: SiteTruth) -> Result:
    steps = parse_actions(actions)
    started = time.perf_counter()
    reference = await naive.reference(driver.browser, url, steps)
    harmful_runs = [run for run in range(1, PLAIN_RUNS + 1)
                    if reference.harmful(await naive.plain_run(driver.browser, url, steps, run))]
    wall = time.perf_counter() - started
    first = harmful_runs[0] if harmful_runs else None
    exposed = [first] * truth.expected if truth.harmful else []
    return Result(site, PLAIN, truth.expected, int(bool(harmful_runs)) * truth.expected,
                  0 if truth.harmful else len(harmful_runs), PLAIN_RUNS + 2, wall, None, exposed, PLAIN_RUNS,
                  f"harmful outcome in {len(harmful_runs)}/{PLAIN_RUNS} runs")


async def evaluate_site(driver: Driver, site: Path, url: str, scratch: Path) -> tuple[list[Result], bool]:
    """Every approach on one site; also whether R4's k = 1 verdicts repeated exactly."""
    expected = json.loads((site / "expected.json").read_text())
    truth = SiteTruth(bool(expected.get("harmful")), expected_races(expected))
    session = await record(driver, url, scratch / "session", expected.get("session", []))
    k1, first = await _webr4(driver, session, scratch / "k1", site.name, R4_K1, truth, strategy="r4", bound=1,
                             budget=None)
    _, again = await _webr4(driver, session, scratch / "k1-again", site.name, R4_K1, truth, strategy="r4", bound=1,
                            budget=None)
    k2, _ = await _webr4(driver, session, scratch / "k2", site.name, R4_K2, truth, strategy="r4", bound=2, budget=None)
    budget = k2.executions - 1  # the same explored sequences as R4 k = 2, the seed included
    delay, _ = await _webr4(driver, session, scratch / "delay", site.name, DELAY, truth, strategy="delay",
                            bound=SAMPLER_DELAYS, budget=budget)
    wave, _ = await _webr4(driver, session, scratch / "wave", site.name, WAVE, truth, strategy="wave",
                           bound=SAMPLER_DELAYS, budget=budget)
    plain = await _plain(driver, url, expected.get("session", []), site.name, truth)
    return [k1, k2, delay, wave, plain], verdicts(first) == verdicts(again)


async def measure(sites: list[Path]) -> tuple[list[Result], dict[str, bool]]:
    results: list[Result] = []
    deterministic: dict[str, bool] = {}
    with served(sites) as urls, tempfile.TemporaryDirectory() as scratch:
        async with Driver() as driver:
            for site in sites:
                try:
                    site_results, same = await evaluate_site(driver, site, urls[site], Path(scratch) / site.name)
                except SeedNotReproducible as error:
                    print(f"{site.name}: skipped, {error}", flush=True)
                    continue
                results += site_results
                deterministic[site.name] = same
                print(f"{site.name}: done", flush=True)
    return results, deterministic


def _exposed(result: Result) -> str:
    if not result.expected:
        return "—"
    return ", ".join(f"#{f}" if f is not None else f"not found within {result.budget}" for f in result.first_exposed)


def _pruning(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def totals(results: list[Result]) -> list[Result]:
    """One row per approach summing its sites."""
    rows = []
    for approach in APPROACHES:
        mine = [r for r in results if r.approach == approach]
        if not mine:
            continue
        wall, executions = sum(r.wall_s for r in mine), sum(r.executions for r in mine)
        prunings = [r.pruning for r in mine if r.pruning is not None]
        rows.append(Result("total", approach, sum(r.expected for r in mine), sum(r.found for r in mine),
                           sum(r.false_harmful for r in mine), executions, wall,
                           sum(prunings) / len(prunings) if prunings else None,
                           [f for r in mine for f in r.first_exposed], sum(r.budget for r in mine)))
    return rows


def table(results: list[Result], deterministic: dict[str, bool]) -> str:
    lines = ["| site | approach | harmful races found | false harmful verdicts | executions | wall (s) "
             "| s / execution | POR pruning | first exposed at | note |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in [*results, *totals(results)]:
        exposed = (f"{sum(f is not None for f in r.first_exposed)} of {r.expected} exposed" if r.site == "total"
                   else _exposed(r))
        site = f"**{r.site}**" if r.site == "total" else r.site
        lines.append(f"| {site} | {r.approach} | {r.found}/{r.expected} | {r.false_harmful} | {r.executions} "
                     f"| {r.wall_s:.1f} | {r.per_execution_s:.2f} | {_pruning(r.pruning)} | {exposed} | {r.note} |")
    differing = sorted(site for site, same in deterministic.items() if not same)
    lines.append("")
    lines.append("R4 k = 1 run twice on every site: " + (
        "identical verdicts, reasons, locations and sequences." if not differing
        else f"verdicts differed on {', '.join(differing)}."))
    return "\n".join(lines)


def _sites_with(results: list[Result], approach: str) -> str:
    """The sites where ``approach`` gave false harmful verdicts, with their counts, in words."""
    sites = [f"{r.site} ({r.false_harmful})" for r in results if r.approach == approach and r.false_harmful]
    return ", ".join(sites) if sites else "none"


def readme_body(results: list[Result], deterministic: dict[str, bool]) -> str:
    """The "How webr4 compares" section: the totals, a short reading and the command."""
    rows = {r.approach: r for r in totals(results)}
    sites = len({r.site for r in results})
    lines = ["## How webr4 compares", "",
             f"On {sites} sites (`sites/`), each explored from one recorded session "
             f"(`{COMMAND}`; per-site figures in `benchmarks/results/latest.md`):", "",
             "| approach | harmful races found | false harmful verdicts | executions | wall (s) |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| {r.approach} | {r.found}/{r.expected} | {r.false_harmful} | {r.executions} | {r.wall_s:.0f} |"
              for r in rows.values()]
    k1, k2, delay, wave, plain = (rows[a] for a in APPROACHES)
    same = all(deterministic.values())
    lines += ["",
              f"R4 with k = 1 found {k1.found} of the {k1.expected} harmful races in {k1.executions} executions, "
              f"and k = 2 found {k2.found} in {k2.executions}. "
              f"Given the same executions per site as R4 k = 2, delay-bounded sampling found {delay.found} and the "
              f"WAVE-like baseline {wave.found}, with {delay.false_harmful} and {wave.false_harmful} false harmful "
              "verdicts (a WAVE-like run swaps several pairs at once). "
              f"Plain Playwright with random 0–300 ms response delays showed a harmful outcome on {plain.found} of "
              f"the {plain.expected} sites with a harmful race in {PLAIN_RUNS} runs each, and on "
              f"{_sites_with(results, PLAIN)} of the harmless ones: its steps start after `load`, so a user step "
              "never races with parsing, and it cannot say which events raced. "
              f"webr4's {k2.false_harmful} false harmful verdicts at k = 2 are on {_sites_with(results, R4_K2)}. "
              + ("Its verdicts were identical across two runs on every site."
                 if same else "Its verdicts were not identical across two runs on every site (see the table).")]
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    """The section; its documentation body is the comparison of ``README.md`` and the overview."""
    results, deterministic = asyncio.run(measure(sites))
    return Section("How webr4 compares", table(results, deterministic),
                   {"results": [asdict(r) | {"per_execution_s": r.per_execution_s} for r in results],
                    "totals": [asdict(r) for r in totals(results)], "deterministic": deterministic},
                   docs=readme_body(results, deterministic))
