"""The per-execution floor on the bundled sites: one execution as a sweep runs it, against a plain
Playwright session of the same page and the same user steps.

Per site, in one process, interleaved :data:`REPEATS` times so that machine noise hits all alike:
the plain session (fresh context, load, the site's session steps with Playwright, close) in a
Chromium launched as a plain Playwright script launches it (:mod:`benchmarks.plain`), the same in
webr4's browser, and an execution replayed from the recording with everything a sweep asks
for (access log, screenshot, heap). Reports the medians, their ratio and the Python process's
CPU seconds per execution (the share of the harness that a busy machine does not inflate),
next to the targets: ratio ≤ 2 for the median site and ≤ 4 for the worst, median execution
≤ 0.5 s.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.corpora import served, site_session
from benchmarks.plain import plain_browser, plain_session
from benchmarks.section import Section
from playwright.async_api import Browser
from webr4.browser.actions import UserAction, parse_actions
from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

REPEATS = 5
LIMITS = Limits(horizon_ms=5_000)
TARGETS = {"ratio_median": 2.0, "ratio_worst": 4.0, "execution_median_s": 0.5}


@dataclass(frozen=True)
class Floor:
    site: str
    events: int
    plain_s: float
    same_launch_plain_s: float  # the plain session in webr4's browser, with its switches
    execution_s: float
    python_cpu_s: float

    @property
    def ratio(self) -> float:
        return self.execution_s / self.plain_s

    @property
    def same_launch_ratio(self) -> float:
        return self.execution_s / self.same_launch_plain_s


async def measure_site(driver: Driver, plain_chromium: Browser, url: str, site: str,
                       steps: Sequence[UserAction]) -> Floor:
    store = ResponseStore()
    seed = await driver.execute(url, actions=steps, store=store, live_network=True, limits=LIMITS, capture=Capture())
    plain: list[float] = []
    same_launch: list[float] = []
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(REPEATS):
        plain.append(await plain_session(plain_chromium, url, steps))
        same_launch.append(await plain_session(driver.browser, url, steps))
        started, cpu_started = time.perf_counter(), time.process_time()
        await driver.execute(url, actions=steps, store=store, live_network=False, limits=LIMITS,
                             capture=Capture(screenshot=True, heap=True))
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    return Floor(site, len(seed.trace.steps), statistics.median(plain), statistics.median(same_launch),
                 statistics.median(wall), statistics.median(cpu))


async def measure(sites: list[Path]) -> list[Floor]:
    floors = []
    with served(sites) as urls:
        async with Driver() as driver, plain_browser() as plain_chromium:
            for site in sites:
                steps = parse_actions(site_session(site))
                floors.append(await measure_site(driver, plain_chromium, urls[site], site.name, steps))
    return floors


def table(floors: list[Floor]) -> str:
    lines = ["| site | events | plain session (s) | execution (s) | ratio | ratio to plain in webr4's browser "
             "| Python CPU per execution (s) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {f.site} | {f.events} | {f.plain_s:.3f} | {f.execution_s:.3f} | {f.ratio:.2f} | "
              f"{f.same_launch_ratio:.2f} | {f.python_cpu_s:.3f} |" for f in floors]
    ratios = [f.ratio for f in floors]
    median_s = statistics.median(f.execution_s for f in floors)
    lines.append(f"| **median** | | {statistics.median(f.plain_s for f in floors):.3f} | {median_s:.3f} | "
                 f"{statistics.median(ratios):.2f} | {statistics.median(f.same_launch_ratio for f in floors):.2f} | "
                 f"{statistics.median(f.python_cpu_s for f in floors):.3f} |")
    lines += ["", "| target | goal | measured | met |", "|---|---:|---:|---|"]
    for name, goal, value in (("execution / plain session, median site", TARGETS["ratio_median"],
                               statistics.median(ratios)),
                              ("execution / plain session, worst site", TARGETS["ratio_worst"], max(ratios)),
                              ("execution, median site (s)", TARGETS["execution_median_s"], median_s)):
        lines.append(f"| {name} | ≤ {goal:g} | {value:.2f} | {'yes' if value <= goal else 'no'} |")
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    floors = asyncio.run(measure(sites))
    return Section("Per-execution floor: an execution as a sweep runs it vs a plain Playwright session",
                   table(floors), {"targets": TARGETS,
                                   "sites": [asdict(f) | {"ratio": f.ratio, "same_launch_ratio": f.same_launch_ratio}
                                             for f in floors]})
