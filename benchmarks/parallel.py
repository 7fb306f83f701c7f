"""Sweep throughput with one worker, two worker processes and a local two-worker Dask cluster.

One generated page (``REQUESTS`` requests whose handlers all write one list and one element)
is recorded once; the same k = 1 sweep then runs on each backend, timed from the backend's
creation (browser start-up included) to the last verdict. The summaries must agree — the
benchmark stops if they do not — so the ratio compares equal work.

It also reports how many of the machine's cores were busy during each sweep (from
``/proc/stat``, so it counts the browsers' processes too): a second worker can only add
throughput while one worker leaves cores idle.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.section import Section
from webr4.browser.driver import Driver
from webr4.serve import serve
from webr4.sweep.backends import Backend, DaskCluster, InProcess, WorkerProcesses
from webr4.sweep.explore import SEED_REPLAYS, explore
from webr4.record.session import Session, record

REQUESTS = 7

_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Racing requests</title></head>
<body><p id="log">waiting</p>
<script>
  var arrived = [];
  for (var i = 0; i < %d; i++) (function (name) {
    var request = new XMLHttpRequest();
    request.open("GET", "data/" + name + ".json");
    request.onload = function () {
      arrived.push(JSON.parse(request.responseText).name);
      document.getElementById("log").textContent = arrived.join(" ");
    };
    request.send();
  })("r" + i);
</script></body></html>
"""


@dataclass(frozen=True)
class Throughput:
    backend: str
    workers: int
    sequences: int
    seconds: float
    cores_busy: float | None  # average busy cores of the whole machine during the sweep

    @property
    def per_second(self) -> float:
        return (self.sequences + SEED_REPLAYS) / self.seconds  # the seed replays are executions too


def _write_site(root: Path) -> Path:
    site = root / "racing"
    (site / "data").mkdir(parents=True)
    (site / "index.html").write_text(_PAGE % REQUESTS)
    for i in range(REQUESTS):
        (site / "data" / f"r{i}.json").write_text(json.dumps({"name": f"r{i}"}))
    return site


@asynccontextmanager
async def _in_process(session: Session) -> AsyncIterator[Backend]:
    async with Driver() as driver:
        yield InProcess(driver, session)


@asynccontextmanager
async def _processes(session: Session) -> AsyncIterator[Backend]:
    backend = WorkerProcesses(session, 2)
    try:
        yield backend
    finally:
        await backend.close()


@asynccontextmanager
async def _dask(session: Session) -> AsyncIterator[Backend]:
    backend = await DaskCluster.connect("local:2", session)
    try:
        yield backend
    finally:
        await backend.close()


BACKENDS: tuple[tuple[str, int, Callable[[Session], AbstractAsyncContextManager[Backend]]], ...] = (
    ("in-process", 1, _in_process), ("2 processes", 2, _processes), ("dask local:2", 2, _dask))


async def measure() -> list[Throughput]:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        site = _write_site(root / "sites")
        with serve(site.parent) as base:
            async with Driver() as driver:
                session = await record(driver, f"{base}{site.name}/", root / "session", [])
        results, reference = [], None
        for name, workers, open_backend in BACKENDS:
            started, ticks = time.perf_counter(), _cpu_ticks()
            async with open_backend(session) as backend:
                summary = await explore(backend, session, root / name.replace(" ", "-"))
            results.append(Throughput(name, workers, summary.sequences - 1, time.perf_counter() - started,
                                      _cores_busy(ticks, _cpu_ticks())))
            comparable = summary.to_json()
            comparable.pop("seconds")
            if reference is None:
                reference = comparable
            elif comparable != reference:
                raise RuntimeError(f"the {name} sweep explored something else than the one-worker sweep")
    return results


def _cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) jiffies of all cores since boot, or ``None`` where ``/proc/stat`` is missing."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def _cores_busy(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float | None:
    if before is None or after is None or after[1] == before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1]) * (os.cpu_count() or 1)


def table(results: list[Throughput]) -> str:
    base = results[0].per_second
    lines = ["| backend | workers | reversals | wall (s) | executions/s | vs one worker | cores busy |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r.backend} | {r.workers} | {r.sequences} | {r.seconds:.1f} | {r.per_second:.2f} | "
              f"{r.per_second / base:.2f}× | "
              f"{'n/a' if r.cores_busy is None else f'{r.cores_busy:.2f} of {os.cpu_count()}'} |"
              for r in results]
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    results = asyncio.run(measure())
    return Section(f"Sweep throughput by backend ({REQUESTS} racing requests, k = 1)", table(results),
                   [asdict(r) | {"per_second": r.per_second} for r in results])
