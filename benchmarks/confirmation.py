"""Confirmation in plain Chromium per bundled site: every reversal's two orders forced in a stock
context after a k = 1 sweep (``confirm="all"``), the outcome per status, and its cost as a ratio
to the sweep it follows. Each status other than ``confirmed`` and ``reproduced`` is listed with
its line, so that every one is explained."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchmarks.corpora import served, site_session
from benchmarks.section import Section
from webr4.browser.driver import Driver
from webr4.checking import SweepOptions, explore_session
from webr4.record.session import record


@dataclass(frozen=True)
class Confirmed:
    site: str
    harmful: int
    statuses: dict[str, int]
    harmful_confirmed: int
    sweep_s: float
    confirm_s: float
    unexplained: list[str] = field(default_factory=list)  # "id verdict status: line" of the others

    @property
    def ratio(self) -> float:
        return self.confirm_s / self.sweep_s if self.sweep_s else 0.0


async def measure(sites: list[Path]) -> list[Confirmed]:
    results = []
    with served(sites) as urls, tempfile.TemporaryDirectory() as scratch:
        async with Driver() as driver:
            for site in sites:
                actions = site_session(site)
                out = Path(scratch) / site.name
                session = await record(driver, urls[site], out / "session", actions)
                summary = await explore_session(session, out, SweepOptions(confirm="all"), driver=driver)
                statuses = Counter(r.confirmation_status or "unchecked" for r in summary.reversals)
                others = [f"{r.id} {r.verdict} {r.confirmation_status}: {(r.confirmation or {}).get('line', '')}"
                          for r in summary.reversals if r.confirmation_status not in ("confirmed", "reproduced")]
                results.append(Confirmed(site.name, len(summary.harmful()), dict(statuses), len(summary.confirmed()),
                                         summary.seconds, summary.confirm_seconds, others))
    return results


def table(results: list[Confirmed]) -> str:
    lines = ["| site | harmful | confirmed | reproduced | not-reproduced | not-forceable | sweep (s) | "
             "confirmation (s) | confirmation / sweep |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        counts = [r.statuses.get(s, 0) for s in ("reproduced", "not-reproduced", "not-forceable")]
        lines.append(f"| {r.site} | {r.harmful} | {r.harmful_confirmed} | " + " | ".join(map(str, counts))
                     + f" | {r.sweep_s:.2f} | {r.confirm_s:.2f} | {r.ratio:.2f} |")
    checked = [r.ratio for r in results if r.confirm_s] or [0.0]
    lines.append(f"| **median** (sites with a reversal) | | | | | | | | {statistics.median(checked):.2f} |")
    notes = [f"- {r.site} {line}" for r in results for line in r.unexplained]
    return "\n".join(lines + ([""] + notes if notes else []))


def run(sites: list[Path]) -> Section:
    results = asyncio.run(measure(sites))
    return Section("Confirmation in plain Chromium after a k = 1 sweep", table(results),
                   [asdict(r) | {"ratio": r.ratio} for r in results])
