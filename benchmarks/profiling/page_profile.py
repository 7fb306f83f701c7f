"""Where the page's own CPU time goes during a logged seed replay: webr4's helpers or the app.

``python -m benchmarks.profiling.page_profile [--against REVISION] [APP ...]`` (default: react, emberjs)
records each app's TodoMVC session, then replays its seed from the recording, alternately without
access logging and with it (``--replays`` each, their median wall-clock seconds printed), and
once more each way under V8's sampling CPU profiler (CDP ``Profiler``, started on the page before
it navigates and stopped when the run ends, before the final state is read): what the logged
replay's page spends beyond the unlogged one's, bucket by bucket, is what access logging costs
the page. ``--against REVISION`` adds the logged replays of another build's injected JavaScript
(``instrument_js/`` of that git revision, with this checkout's rewriter), interleaved with this
checkout's (copied when the run starts), so that two builds are compared under the same load.
Each sample's self time goes to the function it was in; a function of the init script is
attributed to the file it came from (``access_log/`` parts, ``runtime/access_summary.js``, the other runtime
parts, ``dom_log/``) by finding each file's text in the script's source, and every other
script is the page's own code. The profiler slows the page down, so its figures are shares and
milliseconds of one profiled run, comparable between two builds profiled in one sitting, not the
unprofiled replay's times.

Finding: ``benchmarks/results/page_profile.md``, and "Where the time goes" in
docs/benchmarks/real-apps.md.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

from benchmarks.corpora import load_apps, served_apps
from benchmarks.profiling.real_apps_profile import replay_seed
from benchmarks.readme_section import REPO
from webr4 import resources
from webr4.browser.accesslogs import ACCESS_LOG_PARTS, DOM_LOG_PARTS
from webr4.browser.controller import Controller
from webr4.browser.driver import Driver
from webr4.browser.runtime import RUNTIME_PARTS, runtime_source
from webr4.record.session import Session, record
from webr4.trace import Trace

DEFAULT_APPS = ("react", "emberjs")
REPLAYS = 3
SAMPLING_US = 200
"""The profiler's sampling interval in microseconds."""
PAGE = "page code"
BUILTINS = "browser built-ins (DOM and other native functions)"
IDLE = "(idle)"
THIS = "this checkout"
FILES: tuple[str, ...] = (*(f"access_log/{part}.js" for part in ACCESS_LOG_PARTS),
                          *(f"runtime/{part}.js" for part in RUNTIME_PARTS),
                          *(f"dom_log/{part}.js" for part in DOM_LOG_PARTS))
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
    """One app's median replay seconds and one profiled replay without access logging, and the
    same with it for each build (``builds``: build -> (seconds, profiled replay))."""

    app: str
    bare_s: float
    bare: SampledRun
    builds: dict[str, tuple[float, SampledRun]]


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
                text = resources.javascript(name)
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
        cdp = self.channel.cdp
        await cdp.send("Profiler.enable")
        await cdp.send("Profiler.setSamplingInterval", {"interval": SAMPLING_US})
        await cdp.send("Profiler.start")
        try:
            return await original(self, url, plan)
        finally:
            profile = (await cdp.send("Profiler.stop"))["profile"]
            await cdp.send("Debugger.enable")
            sources = SourceMap()
            ids = {node["callFrame"]["scriptId"] for node in profile["nodes"]} - {"", "0"}
            await sources.learn(cdp, ids)
            await cdp.send("Debugger.disable")
            store.append({"profile": profile, "sources": sources})
    return run


@contextmanager
def injected_javascript(directory: Path | None) -> Iterator[None]:
    """Inject the JavaScript of ``directory`` (an ``instrument_js`` tree) while the block runs;
    None: this checkout's as it is on disk."""
    caches = (resources.javascript, runtime_source)
    for cached in caches:
        cached.cache_clear()
    try:
        if directory is None:
            yield
        else:
            original = resources.resource_dir
            with patch.object(resources, "resource_dir", lambda kind: directory if kind == "js" else original(kind)):
                yield
    finally:
        for cached in caches:
            cached.cache_clear()


def builds_of(against: Sequence[str], scratch: Path) -> dict[str, Path]:
    """The ``instrument_js`` trees to compare, unpacked under ``scratch``: each revision of
    ``against`` and, under :data:`THIS`, this checkout's as it is now (later edits do not reach
    a run under way)."""
    builds = {revision: javascript_of(revision, scratch) for revision in against}
    builds[THIS] = Path(shutil.copytree(resources.resource_dir("js"), scratch / "js" / "this"))
    return builds


def javascript_of(revision: str, scratch: Path) -> Path:
    """The ``instrument_js`` tree of git ``revision`` of this checkout, unpacked under ``scratch``."""
    target = scratch / "js" / revision.replace("/", "_")
    target.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision, "instrument_js"], capture_output=True,
                             check=False)
    if archive.returncode != 0:
        raise SystemExit(f"page_profile: no instrument_js at {revision!r}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target / "instrument_js"


async def _sampled(driver: Driver, session: Session, logged: bool) -> SampledRun:
    store: list[dict[str, Any]] = []
    with patch.object(Controller, "run", profiling_run(store)):
        await replay_seed(driver, session, logged)
    return attribute(store[0]["profile"], store[0]["sources"])


async def profile_app(driver: Driver, name: str, url: str, steps: list[dict[str, Any]], scratch: Path,
                      builds: dict[str, Path | None], replays: int) -> PageProfile:
    session: Session = await record(driver, url, scratch / name, steps)
    bare: list[float] = []
    logged: dict[str, list[float]] = {build: [] for build in builds}
    for _ in range(replays):  # interleaved, so that the machine's noise hits every build alike
        bare.append(await replay_seed(driver, session, False))
        for build, directory in builds.items():
            with injected_javascript(directory):
                logged[build].append(await replay_seed(driver, session, True))
    sampled_bare = await _sampled(driver, session, False)
    sampled: dict[str, SampledRun] = {}
    for build, directory in builds.items():
        with injected_javascript(directory):
            sampled[build] = await _sampled(driver, session, True)
    return PageProfile(name, statistics.median(bare), sampled_bare,
                       {build: (statistics.median(logged[build]), sampled[build]) for build in builds})


def markdown(profiles: Sequence[PageProfile], replays: int, top: int = 15) -> str:
    lines = ["# The page's CPU time during a logged seed replay", "",
             "Measured by `python -m benchmarks.profiling.page_profile`: median wall-clock seconds of "
             f"{replays} seed replays "
             "without access logging and with it (with each build's injected JavaScript, interleaved), then "
             f"V8's sampling profiler (every {SAMPLING_US} µs) over one more replay of each, self time by file "
             "and by function.", ""]
    for p in profiles:
        lines += [f"## {p.app}", "", f"- seed replay without access logging {p.bare_s:.2f} s, page busy "
                  f"{p.bare.busy_ms:.0f} ms when profiled"]
        for build, (seconds, run) in p.builds.items():
            share = run.webr4_ms / max(run.busy_ms, 1e-9)
            lines.append(f"- {build}: with access logging {seconds:.2f} s (**logging costs {seconds - p.bare_s:+.2f} "
                         f"s**); page busy {run.busy_ms:.0f} ms (+{run.busy_ms - p.bare.busy_ms:.0f} ms), "
                         f"{run.webr4_ms:.0f} ms in webr4's init script ({share:.0%})")
        names = list(p.builds)
        lines += ["", "| where | self ms unlogged | " + " | ".join(f"self ms, {build}" for build in names) + " |",
                  "|---|---:|" + "---:|" * len(names)]
        runs = [p.bare, *(p.builds[build][1] for build in names)]
        places = sorted(set().union(*(run.by_file for run in runs)), key=lambda where: -runs[-1].by_file.get(where, 0))
        for where in places:
            row = [run.by_file.get(where, 0.0) for run in runs]
            if max(row) >= 1:
                lines.append(f"| {where} | " + " | ".join(f"{ms:.0f}" for ms in row) + " |")
        for build in names:
            run = p.builds[build][1]
            lines += ["", f"webr4's functions with the most self time ({build}):", "",
                      "| function | file:line | self ms |", "|---|---|---:|"]
            mine = sorted(((key, ms) for key, ms in run.by_function.items() if key[0] in FILES),
                          key=lambda item: -item[1])
            for (where, function, line), ms in mine[:top]:
                lines.append(f"| `{function}` | {where}:{line} | {ms:.0f} |")
        lines.append("")
    return "\n".join(lines)


async def profile(names: Sequence[str], against: Sequence[str], replays: int) -> list[PageProfile]:
    profiles = []
    with served_apps("webr4-page-profile-") as (corpus, base, scratch):
        builds: dict[str, Path | None] = dict(builds_of(against, scratch))
        async with Driver() as driver:
            for name in names:
                print(f"page_profile: {name} ...", file=sys.stderr, flush=True)
                profiles.append(await profile_app(driver, name, f"{base}{name}/", corpus.session, Path(scratch),
                                                  builds, replays))
    return profiles


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiling.page_profile",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("apps", nargs="*", default=list(DEFAULT_APPS),
                        help="apps of the corpus (default: react emberjs)")
    parser.add_argument("--against", action="append", default=[], metavar="REVISION",
                        help="also replay with the injected JavaScript (instrument_js/) of this git revision, "
                             "interleaved with this checkout's (the rewriter is this checkout's); repeatable")
    parser.add_argument("--replays", type=int, default=REPLAYS, help=f"timed replays of each kind (default {REPLAYS})")
    args = parser.parse_args(argv)
    known = {app.name for app in load_apps().apps}
    unknown = sorted(set(args.apps) - known)
    if unknown:
        parser.error(f"not in the corpus: {', '.join(unknown)}")
    print(markdown(asyncio.run(profile(args.apps, args.against, args.replays)), args.replays))


if __name__ == "__main__":
    main()
