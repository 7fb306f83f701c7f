"""Anytime exploration (``--budget``): how soon each order of bound 1 finds the harmful races.

On every bundled site with a harmful race, and on each app of the real-app corpus
(:mod:`benchmarks.real_apps`, its TodoMVC session; left out, with a note, when npm cannot
install it), the session is recorded once and swept twice at bound 1, to the end, with the
anytime explorer: once in R4's own order (``plan``) and once in
order of likely harm (``harm``; :mod:`webr4.engine.harm_order`). Both explore the same sequences, so
they find the same harmful verdicts; what differs is when. For each order: the sequences and
seconds until the first harmful verdict, and the share of all harmful verdicts found within
25 %, 50 % and 100 % of the time the plan-order sweep took (the exhaustive bound-1 sweep, ``T``).
Times count from the start of exploring: the seed's three replays before it take the same time
in either order, and their jitter would hide a difference of one sequence.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.corpora import AppCorpus, ensure_apps, load_apps, served, site_session
from benchmarks.section import Section
from webr4.browser.driver import Driver
from webr4.record.session import Session, record
from webr4.serve import serve
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.sweep.progress import Quiet

ORDERS = ("plan", "harm")
SHARES = (0.25, 0.5, 1.0)
BUDGET_S = 3600.0  # far more than a bundled site's bound 1 takes: each sweep runs to its end


class _Clock(Quiet):
    """Notes when exploring began and when each reversal's verdict came, in seconds since."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.verdicts: list[tuple[float, str]] = []

    def start(self, planned: int) -> None:
        self.started = time.monotonic()

    def advance(self, done: int, planned: int, counts: Mapping[str, int], latest: Mapping[str, Any] | None) -> None:
        if latest is not None:
            self.verdicts.append((time.monotonic() - self.started, str(latest["verdict"])))


@dataclass(frozen=True)
class Ordered:
    """One order's sweep of one site: when its harmful verdicts came."""

    order: str
    seconds: float
    sequences: int
    harmful_at: list[float]  # seconds since exploring began
    harmful_sequence: list[int]  # 1 for the first sequence after the seed

    def first(self) -> tuple[int | None, float | None]:
        """The sequence and the second of the first harmful verdict (``None`` without one)."""
        return (self.harmful_sequence[0], self.harmful_at[0]) if self.harmful_at else (None, None)

    def shares(self, total_harmful: int, exhaustive_s: float) -> list[float]:
        """The fraction of ``total_harmful`` found within each of :data:`SHARES` of ``exhaustive_s``."""
        return [sum(1 for at in self.harmful_at if at <= share * exhaustive_s) / total_harmful if total_harmful
                else 0.0 for share in SHARES]


@dataclass(frozen=True)
class Site:
    site: str
    reversals: int
    harmful: int
    sweeps: list[Ordered] = field(default_factory=list)

    @property
    def exhaustive_s(self) -> float:
        return next(s.seconds for s in self.sweeps if s.order == "plan")


async def _sweep(driver: Driver, session: Session, out: Path, order: str) -> Ordered:
    clock = _Clock()
    summary = await explore(driver, session, out, SweepSettings(bound=1, budget=BUDGET_S, order=order), progress=clock)
    harmful = [(at, n) for n, (at, verdict) in enumerate(clock.verdicts, 1) if verdict == "harmful"]
    explored = clock.verdicts[-1][0] if clock.verdicts else 0.0
    return Ordered(order, round(explored, 2), summary.sequences, [round(at, 2) for at, _ in harmful],
                   [n for _, n in harmful])


async def _compare(driver: Driver, name: str, url: str, actions: list[Any], scratch: Path) -> Site:
    """Record ``url`` with ``actions`` and sweep bound 1 in each order."""
    out = scratch / name
    session = await record(driver, url, out / "session", actions)
    sweeps = [await _sweep(driver, session, out / order, order) for order in ORDERS]
    print(f"budget: {name}: {sweeps[0].sequences - 1} reversals", file=sys.stderr, flush=True)
    return Site(name, sweeps[0].sequences - 1, len(sweeps[0].harmful_at), sweeps)


async def measure(sites: list[Path]) -> list[Site]:
    results = []
    harmful_sites = [s for s in sites if json.loads((s / "expected.json").read_text()).get("harmful")]
    with served(harmful_sites) as urls, tempfile.TemporaryDirectory() as scratch:
        async with Driver() as driver:
            for site in harmful_sites:
                actions = site_session(site)
                results.append(await _compare(driver, site.name, urls[site], actions, Path(scratch)))
    return results


async def measure_corpus(corpus: AppCorpus, apps_dir: Path) -> list[Site]:
    results = []
    with serve(apps_dir) as base, tempfile.TemporaryDirectory() as scratch:
        async with Driver() as driver:
            for app in corpus.apps:
                try:
                    results.append(await _compare(driver, app.name, f"{base}{app.name}/", corpus.session,
                                                  Path(scratch)))
                except Exception as error:  # noqa: BLE001 - an app that cannot be recorded is left out, said why
                    print(f"budget: {app.name} left out: {error}", file=sys.stderr, flush=True)
    return results


def _cell(value: float | int | None, unit: str = "") -> str:
    return "–" if value is None else f"{value:g}{unit}"


def table(results: list[Site]) -> str:
    if not results:
        return "(not measured)"
    lines = ["| site | reversals | harmful | T (s) | order | first harmful: sequence | first harmful (s) | "
             "found by 25 % T | 50 % T | 100 % T |", "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
    totals = {order: [0.0, 0.0, 0.0] for order in ORDERS}
    harmful = sum(r.harmful for r in results)
    for r in results:
        for sweep in r.sweeps:
            sequence, seconds = sweep.first()
            shares = sweep.shares(r.harmful, r.exhaustive_s)
            for k, share in enumerate(shares):
                totals[sweep.order][k] += share * r.harmful
            lines.append(f"| {r.site} | {r.reversals} | {r.harmful} | {r.exhaustive_s:.2f} | {sweep.order} | "
                         f"{_cell(sequence)} | {_cell(seconds)} | "
                         + " | ".join(f"{share:.0%}" for share in shares) + " |")
    for order in ORDERS:
        found = " | ".join(f"{total / harmful:.0%}" if harmful else "–" for total in totals[order])
        lines.append(f"| **all sites** | | {harmful} | | {order} | | | {found} |")
    return "\n".join(lines)


NOTE = ("Both orders explore the same sequences. Where a site has one reversal they run the same one "
        "sequence, and a share at 100 % T is a coin toss of timing jitter (tenths of a second); the sequence "
        "of the first harmful verdict is free of it.")


def run(sites: list[Path]) -> Section:
    bundled = asyncio.run(measure(sites))
    corpus = load_apps()
    apps_dir = ensure_apps(corpus)
    apps = asyncio.run(measure_corpus(corpus, apps_dir)) if apps_dir is not None else []
    markdown = (f"Bundled sites with a harmful race:\n\n{table(bundled)}\n\n"
                f"Real-app corpus (TodoMVC session):\n\n{table(apps)}\n\n{NOTE}")
    return Section("Anytime exploration: harmful verdicts over time, plan order against likely-harm order",
                   markdown, {name: [asdict(r) | {"exhaustive_s": r.exhaustive_s} for r in results]
                              for name, results in (("bundled", bundled), ("real_apps", apps))},
                   docs=markdown if apps else None)
