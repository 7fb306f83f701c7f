"""Cost of access logging on a page whose events do real JavaScript work.

``benchmarks/pages/cpu-heavy/`` runs five timer events, each building 2,000 objects, looping
over them with property reads and writes, calling a closure, counting into an object and reading
the text of 50 list items. In one process with one browser: a plain Playwright load (fresh
context, navigate, wait until the page's last event has run, close), a controlled execution
without access logging and one with it, each the median of a few runs. The target is a ratio
instrumented / controlled of at most 5.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.controlled_execution import LIMITS, median_costs
from benchmarks.corpora import CPU_HEAVY_PAGE, served
from benchmarks.section import Section
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

REPEATS = 3


@dataclass(frozen=True)
class Cost:
    events: int
    accesses: int
    plain_s: float
    controlled_s: float
    instrumented_s: float

    @property
    def ratio(self) -> float:
        """Instrumented over controlled without access logging."""
        return self.instrumented_s / self.controlled_s


async def measure() -> Cost:
    with served([CPU_HEAVY_PAGE]) as urls:
        url = urls[CPU_HEAVY_PAGE]
        async with Driver() as driver:
            store = ResponseStore()
            seed = await driver.execute(url, store=store, live_network=True, limits=LIMITS, capture=Capture())
            costs = await median_costs(driver, url, store, REPEATS, until="document.title === 'done'")
    return Cost(len(seed.trace.steps), sum(len(s.accesses) for s in seed.trace.steps), *costs)


def run(sites: list[Path]) -> Section:
    cost = asyncio.run(measure())
    table = "\n".join([
        "| events | accesses logged | plain load (s) | controlled (s) | controlled + access log (s) "
        "| access log / controlled | access log / plain |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        f"| {cost.events} | {cost.accesses} | {cost.plain_s:.3f} | {cost.controlled_s:.3f} | "
        f"{cost.instrumented_s:.3f} | {cost.ratio:.2f} | {cost.instrumented_s / cost.plain_s:.2f} |",
    ])
    return Section("Access logging on a CPU-heavy page (target: access log / controlled ≤ 5)", table,
                   asdict(cost) | {"ratio": cost.ratio})
