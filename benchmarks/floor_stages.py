"""Where one execution's wall time goes on the bundled sites, stage by stage.

``python -m benchmarks.floor_stages [SITE ...]`` (default: three sites of the floor table)
records each site's session, then runs :data:`REPEATS` executions as ``benchmarks.floor`` runs
them (screenshot and heap, replayed network) with wall-clock timers around the stages below, and
prints milliseconds per execution for each stage next to the execution's total. The stages do
not overlap; "other" is what the timers do not cover (Python between stages, the trace's
post-processing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any

from playwright.async_api import BrowserContext

import webr4.browser.controller as controller_module
import webr4.browser.driver as driver_module
from benchmarks.floor import LIMITS
from benchmarks.section import find_sites, served
from benchmarks.stages import CONTEXT_START, Timers
from webr4.browser.actions import parse_actions
from webr4.browser.controller import Controller
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.resources import resource_dir

REPEATS = 5
DEFAULT_SITES = ("commutative-counter", "click-during-parse", "two-xhr")
STAGES: tuple[tuple[Any, str, str], ...] = CONTEXT_START + (
    (Controller, "_open", "opening: navigation, head parsed and settled"),
    (controller_module, "target_state", "user steps: target checks"),
    (Controller, "_execute", "events run one by one (user steps, actuations)"),
    (Controller, "_run_stretch", "events run by the page in stretches"),
    (driver_module, "_final_state", "end state: DOM, names, screenshot, heap"),
    (BrowserContext, "close", "context close"),
)
"""(owner, attribute, stage): the coroutine functions timed; a stage's figure is their sum."""


async def profile_site(driver: Driver, url: str, steps: Sequence[Any]) -> tuple[float, dict[str, float]]:
    """Mean seconds per execution, and per stage, over :data:`REPEATS` executions of ``url``."""
    store = ResponseStore()
    await driver.execute(url, actions=steps, store=store, record=True, limits=LIMITS)
    timers = Timers(STAGES)
    total = 0.0
    with timers.installed():
        for _ in range(REPEATS):
            started = time.perf_counter()
            await driver.execute(url, actions=steps, store=store, record=False, limits=LIMITS,
                                 screenshot=True, heap=True)
            total += time.perf_counter() - started
    return total / REPEATS, {stage: figure.seconds / REPEATS for stage, figure in timers.stages.items()}


async def measure(names: Sequence[str]) -> str:
    sites = [site for site in find_sites(resource_dir("sites")) if site.name in names]
    stages = list(dict.fromkeys(stage for _, _, stage in STAGES))
    columns: list[tuple[str, float, dict[str, float]]] = []
    with served(sites) as urls:
        async with Driver() as driver:
            for site in sites:
                steps = parse_actions(json.loads((site / "expected.json").read_text())["session"])
                total, by_stage = await profile_site(driver, urls[site], steps)
                columns.append((site.name, total, by_stage))
    lines = ["| stage (ms per execution) | " + " | ".join(name for name, _, _ in columns) + " |",
             "|---" + "|---:" * len(columns) + "|"]
    for stage in stages:
        lines.append(f"| {stage} | " + " | ".join(f"{by.get(stage, 0.0) * 1000:.0f}" for _, _, by in columns) + " |")
    lines.append("| other | " + " | ".join(f"{(total - sum(by.values())) * 1000:.0f}" for _, total, by in columns)
                 + " |")
    lines.append("| **execution** | " + " | ".join(f"**{total * 1000:.0f}**" for _, total, _ in columns) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.floor_stages", description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", default=list(DEFAULT_SITES), help="bundled sites to measure")
    args = parser.parse_args(argv)
    known = {site.name for site in find_sites(resource_dir("sites"))}
    unknown = sorted(set(args.sites) - known)
    if unknown:
        parser.error(f"no bundled site named {', '.join(unknown)}")
    print(asyncio.run(measure(args.sites)))


if __name__ == "__main__":
    main()
