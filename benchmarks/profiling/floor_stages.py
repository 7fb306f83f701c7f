"""Where one execution's wall time goes on the bundled sites, stage by stage.

``python -m benchmarks.profiling.floor_stages [SITE ...]`` (default: three sites of the floor table)
records each site's session, then runs :data:`REPEATS` executions as a sweep runs them
(screenshot, heap and the categories' page reads, replayed network) with wall-clock timers
around the stages below, and prints milliseconds per execution for each stage next to the
execution's total, the Python
process's CPU milliseconds and the Playwright calls it made per execution (each a message to
Playwright's driver, most a round trip to the page). The stages do not overlap; "other" is what
the timers do not cover (Python between stages, the trace's post-processing).

Finding: docs/benchmarks/index.md, "Cost on the bundled sites" (what the end state and the
context start cost, and what was done about them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from playwright._impl.connection import Connection
from playwright.async_api import BrowserContext

import webr4.browser.controller as controller_module
import webr4.browser.driver as driver_module
from benchmarks.corpora import bundled_sites, served
from benchmarks.floor import LIMITS
from benchmarks.profiling.stages import CONTEXT_START, Timers
from webr4.browser.actions import parse_actions
from webr4.browser.controller import Controller
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.state.categories import compared_state

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


@dataclass
class SiteProfile:
    """Per execution of one site: seconds, seconds by stage, Python CPU seconds, Playwright calls."""

    seconds: float
    stages: dict[str, float]
    cpu_s: float
    calls: float


@contextmanager
def counting_calls() -> Iterator[list[int]]:
    """A one-element list counting the messages sent to Playwright's driver while active."""
    count = [0]
    send = Connection.send_message_to_server

    def counted(connection: Connection, *args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return send(connection, *args, **kwargs)
    Connection.send_message_to_server = counted  # type: ignore[method-assign, assignment]
    try:
        yield count
    finally:
        Connection.send_message_to_server = send  # type: ignore[method-assign]


async def profile_site(driver: Driver, url: str, steps: Sequence[Any]) -> SiteProfile:
    """Figures per execution, means over :data:`REPEATS` executions of ``url``."""
    store = ResponseStore()
    await driver.execute(url, actions=steps, store=store, live_network=True, limits=LIMITS, capture=Capture())
    timers = Timers(STAGES)
    total = 0.0
    cpu_started = time.process_time()
    with timers.installed(), counting_calls() as calls:
        for _ in range(REPEATS):
            started = time.perf_counter()
            await driver.execute(url, actions=steps, store=store, live_network=False, limits=LIMITS,
                                 capture=compared_state())
            total += time.perf_counter() - started
    return SiteProfile(total / REPEATS, {stage: figure.seconds / REPEATS for stage, figure in timers.stages.items()},
                       (time.process_time() - cpu_started) / REPEATS, calls[0] / REPEATS)


async def measure(names: Sequence[str]) -> str:
    sites = [site for site in bundled_sites() if site.name in names]
    stages = list(dict.fromkeys(stage for _, _, stage in STAGES))
    columns: list[tuple[str, SiteProfile]] = []
    with served(sites) as urls:
        async with Driver() as driver:
            for site in sites:
                steps = parse_actions(json.loads((site / "expected.json").read_text())["session"])
                columns.append((site.name, await profile_site(driver, urls[site], steps)))
    lines = ["| stage (ms per execution) | " + " | ".join(name for name, _ in columns) + " |",
             "|---" + "|---:" * len(columns) + "|"]
    for stage in stages:
        lines.append(f"| {stage} | " + " | ".join(f"{p.stages.get(stage, 0.0) * 1000:.0f}" for _, p in columns) + " |")
    lines.append("| other | " + " | ".join(f"{(p.seconds - sum(p.stages.values())) * 1000:.0f}" for _, p in columns)
                 + " |")
    lines.append("| **execution** | " + " | ".join(f"**{p.seconds * 1000:.0f}**" for _, p in columns) + " |")
    lines.append("| Python CPU | " + " | ".join(f"{p.cpu_s * 1000:.0f}" for _, p in columns) + " |")
    lines.append("| Playwright calls | " + " | ".join(f"{p.calls:.0f}" for _, p in columns) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiling.floor_stages",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", default=list(DEFAULT_SITES), help="bundled sites to measure")
    args = parser.parse_args(argv)
    known = {site.name for site in bundled_sites()}
    unknown = sorted(set(args.sites) - known)
    if unknown:
        parser.error(f"no bundled site named {', '.join(unknown)}")
    print(asyncio.run(measure(args.sites)))


if __name__ == "__main__":
    main()
