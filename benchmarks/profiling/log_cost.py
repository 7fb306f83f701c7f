"""What the access log costs on a real app's accesses, measured apart from the browser.

``python -m benchmarks.profiling.log_cost [--against REVISION] [APP ...]`` (default: react, emberjs,
angularjs) records each app's TodoMVC session, replays its seed once with the full access log,
and saves every step's accesses. ``benchmarks/profiling/log_replay.js`` then feeds that stream, in Node,
through the access log and the runtime's summary, as rewritten code would call them, event by
event, ending each as the runtime does (flush, hand-over of held locations, the record's JSON),
and prints the CPU milliseconds of each round and whether every build handed over the same
summaries and held locations. With ``--against``, the same stream goes through the injected
JavaScript of that git revision too, the two alternating in separate processes, so that both see
the same load; the page's wall-clock times (``benchmarks.profiling.page_profile``) vary too
much on a shared machine to tell the two apart.

Finding: ``benchmarks/results/log_cost.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.corpora import load_apps, served_apps
from benchmarks.profiling.page_profile import builds_of
from webr4.browser.accesslogs import access_log_in
from webr4.browser.driver import Driver
from webr4.execution import AccessLog, Capture
from webr4.record.session import record

DEFAULT_APPS = ("react", "emberjs", "angularjs")
ROUNDS = 3  # rounds in one Node process: the first warms nothing up, each has a fresh context
PROCESSES = 3  # Node processes per build, alternating between builds
REPLAYER = Path(__file__).with_name("log_replay.js")
NODE = shutil.which("node") or "/usr/bin/node"


async def stream_of(driver: Driver, name: str, url: str, steps: list, scratch: Path) -> Path:
    """Every access of each step of the app's seed replayed with the full access log, as JSON."""
    session = await record(driver, url, scratch / name, steps)
    execution = await driver.execute(session.url, tuple(session.seed_trace().sequence), actions=session.user_actions,
                                     store=session.network(), live_network=False, limits=session.run_limits,
                                     seed=session.seed, capture=Capture(accesses=AccessLog.FULL))
    stream = [[step.event, [[a.kind.value, a.location, a.site, a.value] for a in step.accesses]]
              for step in execution.trace.steps]
    target = scratch / f"{name}.json"
    target.write_text(json.dumps(stream))
    return target


def replay(js: Path, stream: Path) -> tuple[list[float], list[str]]:
    """CPU ms of each round, and the digests of what the log handed over in them."""
    access_log = js / "access_log.js"  # one file in builds from before the log was split into parts
    if not access_log.is_file():
        access_log = js / "access_log.joined.js"
        access_log.write_text(access_log_in(js), encoding="utf-8")
    done = subprocess.run([NODE, str(REPLAYER), str(js), str(access_log), str(stream), str(ROUNDS)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"log_cost: the replay failed: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    return report["ms"], report["output"]


@dataclass(frozen=True)
class Cost:
    """One app's stream: its accesses, and per build the median CPU ms of a replay of it."""

    accesses: int
    ms: dict[str, float]
    same_output: bool  # every build and round handed over the same summaries and held locations


async def measure(names: Sequence[str], against: Sequence[str]) -> dict[str, Cost]:
    """app -> its cost."""
    results: dict[str, Cost] = {}
    with served_apps("webr4-log-cost-") as (corpus, base, scratch):
        builds = builds_of(against, scratch)
        async with Driver() as driver:
            streams = {}
            for name in names:
                print(f"log_cost: {name} ...", file=sys.stderr, flush=True)
                streams[name] = await stream_of(driver, name, f"{base}{name}/", corpus.session, Path(scratch))
        for name, stream in streams.items():
            accesses = sum(len(step[1]) for step in json.loads(stream.read_text()))
            times: dict[str, list[float]] = {build: [] for build in builds}
            outputs: set[str] = set()
            for _ in range(PROCESSES):
                for build, js in builds.items():
                    ms, digests = replay(js, stream)
                    times[build] += ms
                    outputs.update(digests)
            results[name] = Cost(accesses, {build: statistics.median(ms) for build, ms in times.items()},
                                 len(outputs) == 1)
    return results


def markdown(results: dict[str, Cost]) -> str:
    builds = list(next(iter(results.values())).ms)
    lines = ["# The access log's CPU time on each app's accesses", "",
             "Measured by `python -m benchmarks.profiling.log_cost`: median CPU ms of "
             f"{ROUNDS * PROCESSES} replays of the "
             "seed's full access stream through the access log and the runtime's summary, in Node.", "",
             "| app | accesses | " + " | ".join(f"{build} ms" for build in builds) + " | same output |",
             "|---|---:|" + "---:|" * len(builds) + "---|"]
    for name, cost in results.items():
        lines.append(f"| {name} | {cost.accesses:,} | " + " | ".join(f"{cost.ms[b]:.0f}" for b in builds)
                     + f" | {'yes' if cost.same_output else '**no**'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiling.log_cost",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("apps", nargs="*", default=list(DEFAULT_APPS), help="apps of the corpus")
    parser.add_argument("--against", action="append", default=[], metavar="REVISION",
                        help="also replay through the injected JavaScript of this git revision; repeatable")
    args = parser.parse_args(argv)
    known = {app.name for app in load_apps().apps}
    unknown = sorted(set(args.apps) - known)
    if unknown:
        parser.error(f"not in the corpus: {', '.join(unknown)}")
    print(markdown(asyncio.run(measure(args.apps, args.against))))


if __name__ == "__main__":
    main()
