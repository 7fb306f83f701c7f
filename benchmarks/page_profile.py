"""Where the page's own CPU time goes during a logged seed replay: webr4's helpers or the app.

``python -m benchmarks.page_profile [APP ...]`` (default: react, emberjs) records each app's
TodoMVC session, then replays its seed from the recording, alternately without and with access
logging (:data:`REPLAYS` each, their median wall-clock seconds and the CPU seconds Chromium and
Python spent in them printed), and once more each way under V8's sampling CPU profiler (CDP
``Profiler``, started on the page before it navigates and stopped when the run ends, before the
final state is read): what the logged replay's page spends beyond the unlogged one's, bucket by
bucket, is what access logging costs the page. Each sample's self time goes to the
function it was in; a function of the init script is attributed to the file it came from
(``access_log.js``, ``runtime/summary.js``, the other runtime parts, ``dom_log.js``) by finding
each file's text in the script's source, and every other script is the page's own code. The
profiler slows the page down, so its figures are shares and milliseconds of one profiled run,
comparable between two builds profiled in one sitting, not the unprofiled replay's times.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

from benchmarks.real_apps import ensure_apps, load_corpus
from benchmarks.real_apps_profile import _replay, cpu_by_process
from webr4.browser.controller import Controller
from webr4.browser.driver import Driver
from webr4.browser.runtime import RUNTIME_PARTS
from webr4.record.session import Session, record
from webr4.resources import javascript
from webr4.serve import serve
from webr4.trace import Trace

DEFAULT_APPS = ("react", "emberjs")
REPLAYS = 3
SAMPLING_US = 200
"""The profiler's sampling interval in microseconds."""
PAGE = "page code"
BUILTINS = "browser built-ins (DOM and other native functions)"
IDLE = "(idle)"
PROCESSES = ("Chromium", "Python")
"""The processes whose CPU seconds per replay are shown (see :func:`cpu_by_process`)."""
FILES: tuple[str, ...] = ("access_log.js", *(f"runtime/{part}.js" for part in RUNTIME_PARTS), "dom_log.js")
"""The files of webr4's init script, whose functions are told apart from the page's."""


@dataclass(frozen=True)
class SampledRun:
    """The self milliseconds of one profiled replay, by file and by function."""

    by_file: dict[str, float]  # file (or PAGE, or a V8 pseudo-function such as "(garbage collector)") -> ms
    by_function: dict[tuple[str, str, int], float]  # (file, function, 1-based line in the file) -> ms

    @property
    def total_ms(self) -> float:
        return sum(self.by_file.values())

    @property
    def busy_ms(self) -> float:
        """What the page's thread spent on anything but waiting."""
        return self.total_ms - self.by_file.get(IDLE, 0.0)

    @property
    def webr4_ms(self) -> float:
        return sum(ms for name, ms in self.by_file.items() if name in FILES)


@dataclass(frozen=True)
class PageProfile:
    """One app's replay times and CPU seconds by process (medians of :data:`REPLAYS`) without and
    with access logging, and one profiled replay of each."""

    app: str
    bare_s: float
    logged_s: float
    bare_cpu: dict[str, float]  # process -> CPU s of one replay
    logged_cpu: dict[str, float]
    bare: SampledRun
    logged: SampledRun


class SourceMap:
    """Maps a line of a script of the page to the webr4 file it came from, if any."""

    def __init__(self) -> None:
        self._ranges: dict[str, list[tuple[int, int, str]]] = {}  # script id -> (first, end, file)

    async def learn(self, cdp: Any, script_ids: set[str]) -> None:
        """Find each of :data:`FILES` in the sources of ``script_ids`` (the debugger must be on)."""
        for script_id in script_ids:
            try:
                source = (await cdp.send("Debugger.getScriptSource", {"scriptId": script_id}))["scriptSource"]
            except Exception:  # a script the page has dropped: its functions count as the page's
                continue
            ranges = []
            for name in FILES:
                text = javascript(name)
                at = source.find(text)
                if at >= 0:
                    first = source.count("\n", 0, at)
                    ranges.append((first, first + text.count("\n") + 1, name))
            if ranges:
                self._ranges[script_id] = ranges

    def place(self, script_id: str, line: int) -> tuple[str, int]:
        """(file, 1-based line in it) of 0-based ``line`` of script ``script_id``; PAGE when not webr4's."""
        for first, end, name in self._ranges.get(script_id, ()):
            if first <= line < end:
                return name, line - first + 1
        return PAGE, line + 1


def attribute(profile: dict[str, Any], sources: SourceMap) -> SampledRun:
    """Self milliseconds of a CDP ``Profiler.Profile`` by file and by function."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    self_us: dict[int, float] = defaultdict(float)
    for sample, delta in zip(profile.get("samples", []), profile.get("timeDeltas", [])):
        self_us[sample] += delta
    by_file: dict[str, float] = defaultdict(float)
    by_function: dict[tuple[str, str, int], float] = defaultdict(float)
    for node_id, micros in self_us.items():
        frame = nodes[node_id]["callFrame"]
        name = frame["functionName"] or "(anonymous)"
        if frame["scriptId"] in ("", "0"):  # V8's own, such as (program) and (garbage collector), or a native
            where, line = (name if name.startswith("(") else BUILTINS), 0
        else:
            where, line = sources.place(frame["scriptId"], frame["lineNumber"])
        by_file[where] += micros / 1000
        by_function[(where, name, line)] += micros / 1000
    return SampledRun(dict(by_file), dict(by_function))


def profiling_run(store: list[dict[str, Any]]) -> Callable[..., Awaitable[Trace]]:
    """A replacement for :meth:`Controller.run` that profiles the page while the run lasts and
    appends ``{"profile", "sources"}`` to ``store``."""
    original = Controller.run

    async def run(self: Controller, url: str, plan: Sequence[Any]) -> Trace:
        await self.cdp.send("Profiler.enable")
        await self.cdp.send("Profiler.setSamplingInterval", {"interval": SAMPLING_US})
        await self.cdp.send("Profiler.start")
        try:
            return await original(self, url, plan)
        finally:
            profile = (await self.cdp.send("Profiler.stop"))["profile"]
            await self.cdp.send("Debugger.enable")
            sources = SourceMap()
            ids = {node["callFrame"]["scriptId"] for node in profile["nodes"]} - {"", "0"}
            await sources.learn(self.cdp, ids)
            await self.cdp.send("Debugger.disable")
            store.append({"profile": profile, "sources": sources})
    return run


async def _timed(driver: Driver, session: Session, logged: bool) -> tuple[float, dict[str, float]]:
    """Wall-clock seconds and CPU seconds by process of one seed replay."""
    before = cpu_by_process()
    seconds = await _replay(driver, session, logged)
    after = cpu_by_process()
    return seconds, {name: after.get(name, 0.0) - before.get(name, 0.0) for name in PROCESSES}


def _median_cpu(runs: list[dict[str, float]]) -> dict[str, float]:
    return {name: statistics.median(run[name] for run in runs) for name in PROCESSES}


async def _sampled(driver: Driver, session: Session, logged: bool) -> SampledRun:
    store: list[dict[str, Any]] = []
    with patch.object(Controller, "run", profiling_run(store)):
        await _replay(driver, session, logged)
    return attribute(store[0]["profile"], store[0]["sources"])


async def profile_app(driver: Driver, name: str, url: str, steps: list[dict[str, Any]], scratch: Path) -> PageProfile:
    session: Session = await record(driver, url, scratch / name, steps)
    bare: list[tuple[float, dict[str, float]]] = []
    logged: list[tuple[float, dict[str, float]]] = []
    for _ in range(REPLAYS):  # interleaved, so that the machine's noise hits both alike
        bare.append(await _timed(driver, session, False))
        logged.append(await _timed(driver, session, True))
    sampled_bare = await _sampled(driver, session, False)
    sampled_logged = await _sampled(driver, session, True)
    return PageProfile(name, statistics.median(s for s, _ in bare), statistics.median(s for s, _ in logged),
                       _median_cpu([cpu for _, cpu in bare]), _median_cpu([cpu for _, cpu in logged]),
                       sampled_bare, sampled_logged)


def markdown(profiles: Sequence[PageProfile], top: int = 15) -> str:
    lines = ["# The page's CPU time during a logged seed replay", "",
             f"Measured by `python -m benchmarks.page_profile`: median wall-clock and CPU seconds of {REPLAYS} seed "
             "replays without and with access logging, then V8's sampling profiler (every "
             f"{SAMPLING_US} µs) over one more replay of each, self time by file and by function.", ""]
    for p in profiles:
        cpu = ", ".join(f"{name} {p.bare_cpu[name]:.2f} → {p.logged_cpu[name]:.2f} CPU s" for name in PROCESSES)
        extra = p.logged.busy_ms - p.bare.busy_ms
        share = p.logged.webr4_ms / max(p.logged.busy_ms, 1e-9)
        lines += [f"## {p.app}", "",
                  f"- seed replay without access logging {p.bare_s:.2f} s, with it {p.logged_s:.2f} s; {cpu}",
                  f"- profiled replays: the page busy {p.bare.busy_ms:.0f} ms without logging, "
                  f"{p.logged.busy_ms:.0f} ms with it (+{extra:.0f} ms); "
                  f"**{p.logged.webr4_ms:.0f} ms in webr4's init script** "
                  f"({share:.0%} of the logged replay's busy time)", "",
                  "| where | self ms unlogged | self ms logged | logged − unlogged |", "|---|---:|---:|---:|"]
        places = sorted(set(p.bare.by_file) | set(p.logged.by_file),
                        key=lambda where: -p.logged.by_file.get(where, 0.0))
        for where in places:
            before, after = p.bare.by_file.get(where, 0.0), p.logged.by_file.get(where, 0.0)
            if max(before, after) >= 1:
                lines.append(f"| {where} | {before:.0f} | {after:.0f} | {after - before:+.0f} |")
        lines += ["", "webr4's functions with the most self time (logged replay):", "",
                  "| function | file:line | self ms |", "|---|---|---:|"]
        mine = sorted(((key, ms) for key, ms in p.logged.by_function.items() if key[0] in FILES),
                      key=lambda item: -item[1])
        for (where, function, line), ms in mine[:top]:
            lines.append(f"| `{function}` | {where}:{line} | {ms:.0f} |")
        lines.append("")
    return "\n".join(lines)


async def profile(names: Sequence[str]) -> list[PageProfile]:
    corpus = load_corpus()
    apps_dir = ensure_apps(corpus)
    if apps_dir is None:
        sys.exit(2)
    profiles = []
    with serve(apps_dir) as base, tempfile.TemporaryDirectory(prefix="webr4-page-profile-") as scratch:
        async with Driver() as driver:
            for name in names:
                print(f"page_profile: {name} ...", file=sys.stderr, flush=True)
                profiles.append(await profile_app(driver, name, f"{base}{name}/", corpus.session, Path(scratch)))
    return profiles


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.page_profile", description=__doc__.splitlines()[0])
    parser.add_argument("apps", nargs="*", default=list(DEFAULT_APPS),
                        help="apps of the corpus (default: react emberjs)")
    args = parser.parse_args(argv)
    known = {app.name for app in load_corpus().apps}
    unknown = sorted(set(args.apps) - known)
    if unknown:
        parser.error(f"not in the corpus: {', '.join(unknown)}")
    print(markdown(asyncio.run(profile(args.apps))))


if __name__ == "__main__":
    main()
