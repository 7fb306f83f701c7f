"""Cost of a full k = 1 sweep per bundled site: sequences explored, seconds per sequence, and the
whole sweep (two seed replays included) against one plain Playwright load of the page."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.corpora import served, site_session
from benchmarks.plain import plain_session
from benchmarks.section import Section
from webr4.browser.driver import Driver
from webr4.sweep.explore import explore
from webr4.record.session import record


@dataclass(frozen=True)
class SweepCost:
    site: str
    sequences: int
    sweep_s: float
    plain_s: float

    @property
    def per_sequence_s(self) -> float:
        return self.sweep_s / (self.sequences + 2)  # two seed replays, then the explored children

    @property
    def ratio(self) -> float:
        return self.sweep_s / self.plain_s


async def measure(sites: list[Path]) -> list[SweepCost]:
    costs = []
    with served(sites) as urls, tempfile.TemporaryDirectory() as scratch:
        async with Driver() as driver:
            for site in sites:
                url = urls[site]
                actions = site_session(site)
                session = await record(driver, url, Path(scratch) / site.name / "session", actions)
                plain = statistics.median([await plain_session(driver.browser, url) for _ in range(3)])
                started = time.perf_counter()
                summary = await explore(driver, session, Path(scratch) / site.name / "run")
                costs.append(SweepCost(site.name, summary.sequences - 1, time.perf_counter() - started, plain))
    return costs


def table(costs: list[SweepCost]) -> str:
    lines = ["| site | reversals explored | sweep (s) | s per execution | sweep / plain load |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| {c.site} | {c.sequences} | {c.sweep_s:.2f} | {c.per_sequence_s:.2f} | {c.ratio:.1f} |" for c in costs]
    lines.append(f"| **median** | | | {statistics.median(c.per_sequence_s for c in costs):.2f} | "
                 f"{statistics.median(c.ratio for c in costs):.1f} |")
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    costs = asyncio.run(measure(sites))
    return Section("Full k = 1 sweep per site", table(costs),
                   [asdict(c) | {"per_sequence_s": c.per_sequence_s, "ratio": c.ratio} for c in costs])
