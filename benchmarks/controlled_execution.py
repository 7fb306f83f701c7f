"""Cost of one controlled execution against a plain Playwright load of the same page.

For every bundled site, in one process with one browser: a plain load (fresh context, navigate,
wait for ``load``, close) and a controlled execution replayed
from the recorded network, with and without access instrumentation. Reports medians, the ratio
controlled/plain and executions per second. Figures are ratios measured in one run on one
machine: compare them with each other, not across machines.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.corpora import served, site_session
from benchmarks.plain import plain_session
from benchmarks.section import Section
from webr4.browser.actions import UserAction, parse_actions
from webr4.browser.driver import Driver
from webr4.browser.limits import Limits
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

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


async def median_costs(driver: Driver, url: str, store: ResponseStore, repeats: int,
                       actions: Sequence[UserAction] = (), until: str | None = None) -> tuple[float, float, float]:
    """Median seconds of a plain load in webr4's browser (:func:`benchmarks.plain.plain_session`
    without steps), a controlled execution replayed from ``store`` and one with access logging, the
    three interleaved ``repeats`` times so that machine noise hits them alike."""
    plain: list[float] = []
    controlled: list[float] = []
    instrumented: list[float] = []
    for _ in range(repeats):
        plain.append(await plain_session(driver.browser, url, until=until))
        for instrument, bucket in ((False, controlled), (True, instrumented)):
            started = time.perf_counter()
            await driver.execute(url, actions=actions, store=store, live_network=False, limits=LIMITS,
                                 capture=Capture(rewrite_scripts=instrument))
            bucket.append(time.perf_counter() - started)
    return statistics.median(plain), statistics.median(controlled), statistics.median(instrumented)


async def measure(sites: list[Path]) -> list[SiteCost]:
    costs = []
    with served(sites) as urls:
        async with Driver() as driver:
            for site in sites:
                url = urls[site]
                actions = parse_actions(site_session(site))
                store = ResponseStore()
                seed = await driver.execute(url, actions=actions, store=store, live_network=True, limits=LIMITS,
                                            capture=Capture())
                costs.append(SiteCost(site.name, len(seed.trace.steps),
                                      *await median_costs(driver, url, store, REPEATS, actions)))
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
