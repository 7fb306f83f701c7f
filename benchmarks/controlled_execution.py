"""Cost of one controlled execution against a plain Playwright load of the same page.

For every bundled site, in one process with one browser: a plain load (fresh context, navigate,
wait for ``load``, close) and a controlled execution replayed
from the recorded network, with and without access instrumentation. Reports medians, the ratio
controlled/plain and executions per second. Figures are ratios measured in one run on one
machine: compare them with each other, not across machines.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.section import Section, served
from webr4.browser.actions import parse_actions
from webr4.browser.controller import Limits
from webr4.browser.driver import VIEWPORT, Driver
from webr4.browser.responses import ResponseStore

REPEATS = 5
LIMITS = Limits(horizon_ms=5_000)


@dataclass(frozen=True)
class SiteCost:
    site: str
    events: int
    plain_s: float
    controlled_s: float
    instrumented_s: float

    @property
    def ratio(self) -> float:
        return self.instrumented_s / self.plain_s


async def plain_load(driver: Driver, url: str) -> float:
    started = time.perf_counter()
    context = await driver.browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    await page.goto(url, wait_until="load")
    await context.close()
    return time.perf_counter() - started


async def measure(sites: list[Path]) -> list[SiteCost]:
    costs = []
    with served(sites) as urls:
        async with Driver() as driver:
            for site in sites:
                url = urls[site]
                actions = parse_actions(json.loads((site / "expected.json").read_text())["session"])
                store = ResponseStore()
                seed = await driver.execute(url, actions=actions, store=store, record=True, limits=LIMITS)
                plain, controlled, instrumented = [], [], []
                for _ in range(REPEATS):
                    plain.append(await plain_load(driver, url))
                    for instrument, bucket in ((False, controlled), (True, instrumented)):
                        started = time.perf_counter()
                        await driver.execute(url, actions=actions, store=store, record=False, limits=LIMITS,
                                             instrument=instrument)
                        bucket.append(time.perf_counter() - started)
                costs.append(SiteCost(site.name, len(seed.trace.steps), statistics.median(plain),
                                      statistics.median(controlled), statistics.median(instrumented)))
    return costs


def table(costs: list[SiteCost]) -> str:
    lines = [
        "| site | events | plain load (s) | controlled (s) | controlled + access log (s) | ratio | executions/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for c in costs:
        lines.append(f"| {c.site} | {c.events} | {c.plain_s:.3f} | {c.controlled_s:.3f} | {c.instrumented_s:.3f} "
                     f"| {c.ratio:.2f} | {1 / c.instrumented_s:.2f} |")
    plain = statistics.median(c.plain_s for c in costs)
    inst = statistics.median(c.instrumented_s for c in costs)
    lines.append(f"| **median** | | {plain:.3f} | {statistics.median(c.controlled_s for c in costs):.3f} "
                 f"| {inst:.3f} | {inst / plain:.2f} | {1 / inst:.2f} |")
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    costs = asyncio.run(measure(sites))
    return Section("Controlled execution vs plain Playwright load", table(costs),
                   [asdict(c) | {"ratio": c.ratio} for c in costs])
