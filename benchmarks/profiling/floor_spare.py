"""What making the next execution's page ahead saves, measured against making it on the spot.

``python -m benchmarks.profiling.floor_spare [SITE ...] [--app NAME ...]`` records each bundled site's
session (default: the three sites of ``floor_stages``) and, with ``--app``, each named app of
the real-app corpus, then runs executions as a sweep runs them (replayed network, screenshot,
heap, the categories' page reads) in alternating blocks, in one process and one browser so that
machine noise hits both alike: :data:`BLOCK` executions whose page was made ahead (the one before
the block makes the first spare), then :data:`BLOCK` whose page is made on the spot (no spare),
:data:`ROUNDS` times. Prints, per site, the median seconds per execution each way, the ratio, and
the mean of the stages the spare moves: the context start an execution waits for and the end
state that the next page's making overlaps.

Finding: docs/benchmarks/index.md, "Cost on the bundled sites" (each execution's page is made
while the execution before reads its end state). The profiler drops the driver's spare page
through its private context supply to make the next one on the spot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest.mock import patch

import webr4.browser.driver as driver_module
from benchmarks.corpora import bundled_sites, served, served_apps
from benchmarks.floor import LIMITS
from benchmarks.profiling.floor_stages import DEFAULT_SITES
from benchmarks.profiling.stages import CONTEXT_START, Timers
from webr4.browser.actions import UserAction, parse_actions
from webr4.browser.contexts import ContextSupply
from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.state.categories import compared_state

ROUNDS = 4
BLOCK = 3
STAGES: tuple[tuple[Any, str, str], ...] = CONTEXT_START + (
    (driver_module, "_final_state", "end state"),
)


@dataclass(frozen=True)
class Target:
    """Something to execute: a name, its URL, its session's user steps and its run limits."""

    name: str
    url: str
    steps: Sequence[UserAction]
    limits: Limits


@dataclass(frozen=True)
class Comparison:
    """Per execution of one target, made ahead vs on the spot: median seconds and mean stages."""

    name: str
    ahead_s: float
    on_the_spot_s: float
    ahead_stages: dict[str, float]
    on_the_spot_stages: dict[str, float]


@contextmanager
def without_spare() -> Iterator[None]:
    """Executions make no page ahead while active: each makes its own on the spot."""
    with patch.object(ContextSupply, "prepare", lambda self, init_script: None):
        yield


async def _block(driver: Driver, target: Target, store: ResponseStore, timers: Timers) -> list[float]:
    seconds = []
    with timers.installed():
        for _ in range(BLOCK):
            started = time.perf_counter()
            await driver.execute(target.url, actions=target.steps, store=store, live_network=False,
                                 limits=target.limits, capture=compared_state())
            seconds.append(time.perf_counter() - started)
    return seconds


async def compare(driver: Driver, target: Target) -> Comparison:
    store = ResponseStore()
    await driver.execute(target.url, actions=target.steps, store=store, live_network=True, limits=target.limits,
                         capture=Capture())
    ahead, on_the_spot = Timers(STAGES), Timers(STAGES)
    ahead_s: list[float] = []
    on_the_spot_s: list[float] = []
    supply = driver._contexts  # its spare is dropped before each block made on the spot
    assert supply is not None
    for _ in range(ROUNDS):
        # the execution before the block makes the block's first spare
        await driver.execute(target.url, actions=target.steps, store=store, live_network=False, limits=target.limits,
                             capture=compared_state())
        ahead_s += await _block(driver, target, store, ahead)
        await supply.close()
        with without_spare():
            on_the_spot_s += await _block(driver, target, store, on_the_spot)
    count = ROUNDS * BLOCK
    return Comparison(target.name, statistics.median(ahead_s), statistics.median(on_the_spot_s),
                      {stage: s.seconds / count for stage, s in ahead.stages.items()},
                      {stage: s.seconds / count for stage, s in on_the_spot.stages.items()})


def table(comparisons: Sequence[Comparison]) -> str:
    stages = list(dict.fromkeys(stage for _, _, stage in STAGES))
    lines = ["| site | made ahead (s) | on the spot (s) | ratio | "
             + " | ".join(f"{stage} (ms): ahead / on the spot" for stage in stages) + " |",
             "|---|---:|---:|---:|" + "---:|" * len(stages)]
    for c in comparisons:
        cells = [f"{c.ahead_stages.get(s, 0.0) * 1000:.0f} / {c.on_the_spot_stages.get(s, 0.0) * 1000:.0f}"
                 for s in stages]
        lines.append(f"| {c.name} | {c.ahead_s:.3f} | {c.on_the_spot_s:.3f} | {c.ahead_s / c.on_the_spot_s:.2f} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


async def measure(site_names: Sequence[str], app_names: Sequence[str]) -> str:
    sites = [site for site in bundled_sites() if site.name in site_names]
    comparisons = []
    with served(sites) as urls:
        async with Driver() as driver:
            for site in sites:
                steps = parse_actions(json.loads((site / "expected.json").read_text())["session"])
                comparisons.append(await compare(driver, Target(site.name, urls[site], steps, LIMITS)))
            if app_names:
                comparisons += await _apps(driver, app_names)
    return table(comparisons)


async def _apps(driver: Driver, names: Sequence[str]) -> list[Comparison]:
    """The comparison for apps of the real-app corpus, with the corpus's session steps."""
    comparisons = []
    with served_apps("webr4-floor-spare-") as (corpus, base, _):
        for name in names:
            comparisons.append(await compare(driver, Target(name, f"{base}{name}/", corpus.steps, LIMITS)))
    return comparisons


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiling.floor_spare",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", default=list(DEFAULT_SITES), help="bundled sites to measure")
    parser.add_argument("--app", action="append", default=[], help="an app of the real-app corpus to measure too")
    args = parser.parse_args(argv)
    known = {site.name for site in bundled_sites()}
    unknown = sorted(set(args.sites) - known)
    if unknown:
        parser.error(f"no bundled site named {', '.join(unknown)}")
    print(asyncio.run(measure(args.sites, args.app)))


if __name__ == "__main__":
    main()
