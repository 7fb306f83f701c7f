"""What handing responses to Chromium through Playwright costs an execution.

``python -m benchmarks.fulfil_cost [APP ...]`` (default: jquery, emberjs, react) records each
app's TodoMVC session, then replays its seed a few times, timing every ``route.fulfill`` (wall
clock, awaited: Python base64-encodes the body into a JSON message, Playwright's driver passes
it to Chromium over CDP) and the Python writes to the driver's pipe; it counts the bytes
fulfilled and the CPU seconds of the two processes a body passes through before Chromium
(Python and the Node driver). Printed, not written to the results.

The awaited fulfils overlap one another and the page's own work, so their sum says how long
bodies were in flight, not what they added to the execution; compare it with the wall clock
and the CPU seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright._impl.network import Route as RouteImpl
from playwright._impl.transport import PipeTransport

from benchmarks.real_apps import load_corpus, served_corpus
from benchmarks.real_apps_profile import cpu_by_process
from benchmarks.stages import Timers
from webr4.browser.driver import Driver
from webr4.execution import Capture
from webr4.record.session import Session, record

DEFAULT_APPS = ("jquery", "emberjs", "react")
REPLAYS = 4
TIMED: tuple[tuple[Any, str, str], ...] = (
    (RouteImpl, "fulfill", "fulfil"),
    (PipeTransport, "send", "pipe write"),
)
_HARNESS = ("Python", "Playwright driver (Node)")  # the processes a body passes through before Chromium


@dataclass
class FulfilCost:
    """Per seed replay of one app: wall seconds, seconds awaiting fulfils (summed) and their
    calls, seconds writing to the driver's pipe, MB fulfilled, CPU seconds of Python and Node."""

    app: str
    execution_s: float
    fulfil_s: float
    fulfils: float
    pipe_s: float
    fulfilled_mb: float
    python_cpu_s: float
    node_cpu_s: float


@contextmanager
def _counting_bytes(total: list[int]) -> Iterator[None]:
    """Add the size of every fulfilled body to ``total[0]``."""
    inner = RouteImpl._inner_fulfill

    async def counting(self: RouteImpl, *args: Any, **kwargs: Any) -> Any:
        body = kwargs.get("body")
        total[0] += len(body.encode() if isinstance(body, str) else body or b"")
        return await inner(self, *args, **kwargs)
    RouteImpl._inner_fulfill = counting  # type: ignore[method-assign]
    try:
        yield
    finally:
        RouteImpl._inner_fulfill = inner  # type: ignore[method-assign]


async def _replay(driver: Driver, session: Session) -> float:
    started = time.perf_counter()
    await driver.execute(session.url, tuple(session.seed_trace().sequence), actions=session.user_actions,
                         store=session.network(), live_network=False, limits=session.run_limits, seed=session.seed,
                         capture=Capture())
    return time.perf_counter() - started


async def measure(driver: Driver, name: str, url: str, steps: list, scratch: Path) -> FulfilCost:
    session = await record(driver, url, scratch / name, steps)
    await _replay(driver, session)  # warm: every rewrite cached, as in a sweep
    timers = Timers(TIMED)
    size = [0]
    walls = []
    cpu = dict.fromkeys(_HARNESS, 0.0)
    with timers.installed(), _counting_bytes(size):
        for _ in range(REPLAYS):
            before = cpu_by_process()
            walls.append(await _replay(driver, session))
            after = cpu_by_process()
            for process in _HARNESS:
                cpu[process] += after.get(process, 0.0) - before.get(process, 0.0)
    fulfil, pipe = timers.stages["fulfil"], timers.stages["pipe write"]
    return FulfilCost(name, statistics.median(walls), fulfil.seconds / REPLAYS, fulfil.calls / REPLAYS,
                      pipe.seconds / REPLAYS, size[0] / REPLAYS / 1e6, cpu["Python"] / REPLAYS,
                      cpu["Playwright driver (Node)"] / REPLAYS)


async def run(names: Sequence[str]) -> list[FulfilCost]:
    costs = []
    with served_corpus("webr4-fulfil-") as (corpus, base, scratch):
        async with Driver() as driver:
            for name in names:
                costs.append(await measure(driver, name, f"{base}{name}/", corpus.session, scratch))
    return costs


def markdown(costs: Sequence[FulfilCost]) -> str:
    lines = [f"Per seed replay (median wall of {REPLAYS}; the rest averaged over them):", "",
             "| app | s per execution | fulfil s | fulfils | pipe write s | MB fulfilled | Python CPU s | Node CPU s |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {c.app} | {c.execution_s:.2f} | {c.fulfil_s:.3f} | {c.fulfils:.0f} | "
              f"{c.pipe_s:.3f} | {c.fulfilled_mb:.2f} | {c.python_cpu_s:.2f} | {c.node_cpu_s:.2f} |" for c in costs]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fulfil_cost", description=__doc__.splitlines()[0])
    parser.add_argument("apps", nargs="*", default=list(DEFAULT_APPS), help="apps of the corpus")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.apps) - {app.name for app in load_corpus().apps})
    if unknown:
        parser.error(f"not in the corpus: {', '.join(unknown)}")
    print(markdown(asyncio.run(run(args.apps))))


if __name__ == "__main__":
    main()
